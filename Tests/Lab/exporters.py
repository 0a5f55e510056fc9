"""Starting `ipcurl exporter` and blackbox_exporter on loopback, reading a process's CPU time, resident memory and
descriptors from /proc, and sending it probes from keep-alive clients. Used by Benchmarks/bench.py (the exporter rows)
and stress.py (the exporter soak)."""
import http.client
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from urllib.parse import quote

TICKS = os.sysconf("SC_CLK_TCK")


def module(name, ca, timeout="5s"):
    """blackbox's YAML for one http module as the lab's `https_lab`: IPv4 only, no fallback, the lab CA."""
    return (f"  {name}:\n    prober: http\n    timeout: {timeout}\n    http:\n      preferred_ip_protocol: ip4\n"
            f"      ip_protocol_fallback: false\n      tls_config:\n        ca_file: {ca}\n")


class Exporter:
    """A running exporter: its process (`pid` is the server's own: `ipcurl exporter` execs `ipcurl-exporter`) and
    port. `modules` is the text under `modules:` of its configuration file."""

    def __init__(self, kind, modules, ipcurl=None, resolver=(), env=None):
        self.scratch = tempfile.mkdtemp(prefix=f"ipcurl-{kind}.")
        config, log = os.path.join(self.scratch, "config.yml"), os.path.join(self.scratch, "log")
        with open(config, "w") as file:
            file.write("modules:\n" + modules)
        env = dict(env or os.environ, IPCURL_CACHE_DIR=os.path.join(self.scratch, "cache"))
        env.pop("IPCURL_DNS", None)
        if kind == "ipcurl":
            argv = [ipcurl, "exporter", f"--config.file={config}", "--web.listen-address=127.0.0.1:0", *resolver]
        else:
            self.port = free_port()
            argv = confined(self.scratch) + ["prometheus-blackbox-exporter", f"--config.file={config}",
                                             f"--web.listen-address=127.0.0.1:{self.port}"]
        with open(log, "w") as out:
            self.process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=out)
        self.pid = self.process.pid
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and self.process.poll() is None:
            text = open(log).read()
            if kind == "ipcurl" and "port=" in text:
                self.port = int(text.split("port=", 1)[1].split()[0])
                return
            if kind == "blackbox" and healthy(self.port):
                return
            time.sleep(0.05)
        self.stop()
        raise SystemExit(f"{kind} exporter did not start: {open(log).read()[-600:]}")

    def cpu_seconds(self):
        """utime + stime of every thread, live and ended (/proc/PID/stat fields 14 and 15)."""
        with open(f"/proc/{self.pid}/stat") as file:
            fields = file.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def status(self, key):
        """A /proc/PID/status figure: `VmRSS` in KiB, `Threads`."""
        with open(f"/proc/{self.pid}/status") as file:
            return next(int(line.split()[1]) for line in file if line.startswith(key + ":"))

    def descriptors(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def settled(self, baseline=None):
        """(descriptors, VmRSS KiB, threads) once the server has closed the connections clients closed: read until
        two readings 100 ms apart agree (and, with `baseline`, the descriptors are back to it), at most 3 s."""
        last, deadline = None, time.monotonic() + 3
        while time.monotonic() < deadline:
            time.sleep(0.1)
            now = (self.descriptors(), self.status("VmRSS"), self.status("Threads"))
            if now == last and (baseline is None or now[0] <= baseline):
                break
            last = now
        return now

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.scratch, ignore_errors=True)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def healthy(port):
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        connection.request("GET", "/-/healthy")
        return connection.getresponse().status == 200
    except OSError:
        return False


def confined(scratch):
    """As root, a private mount namespace whose resolv.conf names 127.0.0.1 (where no DNS server listens), as the
    lab runs its blackbox_exporter: a name it cannot find in /etc/hosts never becomes a lookup off loopback.
    `unshare` and `sh` exec, so the process keeps its pid."""
    if os.geteuid() != 0 or subprocess.run(["unshare", "-m", "true"]).returncode != 0:
        return []
    resolv = os.path.join(scratch, "resolv.conf")
    with open(resolv, "w") as file:
        file.write("nameserver 127.0.0.1\noptions timeout:1 attempts:1\n")
    return ["unshare", "-m", "sh", "-c", 'mount --bind "$0" /etc/resolv.conf && exec "$@"', resolv]


def drive(port, paths, clients, check):
    """Sends GET `paths` (taken in order) from `clients` threads, each on one keep-alive connection (a new one after
    an error), and closes the connections at the end. `check(path, status, body)` (called under a lock) returns a
    failure or None.
    Returns (latencies in seconds, in the order the requests ended; failures)."""
    queue, lock, latencies, failures = iter(paths), threading.Lock(), [], []

    def client():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while True:
            with lock:
                path = next(queue, None)
            if path is None:
                break
            start = time.perf_counter()
            try:
                connection.request("GET", path)
                response = connection.getresponse()
                status, body = response.status, response.read().decode(errors="replace")
            except (OSError, http.client.HTTPException) as error:
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                status, body = 0, f"{type(error).__name__}: {error}"
            elapsed = time.perf_counter() - start
            with lock:
                latencies.append(elapsed)
                failure = check(path, status, body)
                if failure:
                    failures.append(failure)
        connection.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, failures


def probe_path(module_name, target):
    """`/probe` of `target` with module `module_name`."""
    return f"/probe?module={module_name}&target={quote(target, safe='')}"


def success(body):
    """probe_success's value in a probe's metrics, or None."""
    for line in body.splitlines():
        if line.startswith("probe_success "):
            return float(line.split()[1])
    return None
