#!/usr/bin/env python3
"""make stress: many ipcurl processes on one answer cache directory and one -o directory, some killed (SIGKILL),
some stopped (SIGSTOP) and continued or killed while stopped. Afterwards every cache record reads back correct,
every output file holds the whole body, and once one more run has written into each directory no temporary file
remains. Then exporter_soak.py's soak of one `ipcurl exporter` (no descriptor leak, flat memory). Exit 1 on any
failure.

usage: stress.py IPCURL   (the lab's lab.env values in the environment: LAB_HTTPDNS_IP, LAB_DOH_URL, ...)
STRESS_WORKERS (8), STRESS_RUNS (200 per worker), STRESS_SEED (random) tune it; EXPORTER_SOAK_PROBES=0 leaves the
exporter soak out.
"""
import json, os, random, signal, subprocess, sys, tempfile, threading, time

import exporter_soak

IPCURL = sys.argv[1]
WORKERS = int(os.environ.get("STRESS_WORKERS", "8"))
RUNS = int(os.environ.get("STRESS_RUNS", "200"))
SEED = int(os.environ.get("STRESS_SEED", str(time.time_ns() % 1_000_000)))
LAB = {k: v for k, v in os.environ.items() if k.startswith("LAB_")}

# Fixture names: *.any.test answer 127.0.0.2 and ::1 (ttl1-* with a TTL of 1 s, so they are written again and again).
HOSTS = [f"s{i}.any.test" for i in range(6)] + [f"ttl1-s{i}.any.test" for i in range(6)]
EXPECTED = {"v4": ["127.0.0.2"], "v6": ["::1"]}
# -o targets: two get a static file, two a body dripped over about 50 ms (a wide window for a kill mid-write).
DRIP_BYTES = 30000
OUTPUTS = {"out0.txt": "/files/text.txt", "out1.txt": "/files/text.txt",
           "drip0.txt": f"/api/drip?bytes={DRIP_BYTES}&chunk=3000&ms=5", "drip1.txt": f"/api/drip?bytes={DRIP_BYTES}&chunk=3000&ms=5"}


def resolve_command(host):
    server = f"http://{LAB['LAB_HTTPDNS_IP']}:{LAB['LAB_HTTPDNS_HTTP_PORT']}"
    return [IPCURL, "resolve", "--aliyun", LAB["LAB_ALIYUN_ACCOUNT"], "--httpdns-server", server, host]


def download_command(outdir, name):
    url = f"https://a.test:{LAB['LAB_HTTPS_PORT']}{OUTPUTS.get(name, '/files/text.txt')}"
    return [IPCURL, "--doh", LAB["LAB_DOH_URL"], "--cacert", LAB["LAB_CA"], "-sS", "-o", os.path.join(outdir, name), url]


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}
        self.failures = []


    def add(self, key, failure=None):
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + 1
            if failure:
                self.failures.append(failure)


def one_run(rng, env, cachedir, outdir, tally):
    if rng.random() < 0.6:
        kind, host = "resolve", rng.choice(HOSTS)
        command = resolve_command(host)
    else:
        kind, host = "download", None
        command = download_command(outdir, rng.choice(sorted(OUTPUTS)))
    fate = rng.choices(["none", "kill", "stop-cont", "stop-kill"], [70, 15, 10, 5])[0]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if fate != "none":
        time.sleep(rng.uniform(0, 0.15))
        try:
            if fate == "kill":
                process.send_signal(signal.SIGKILL)
            else:
                process.send_signal(signal.SIGSTOP)
                time.sleep(rng.uniform(0.05, 0.4))
                process.send_signal(signal.SIGCONT if fate == "stop-cont" else signal.SIGKILL)
                if fate == "stop-kill":
                    process.send_signal(signal.SIGCONT)
        except ProcessLookupError:
            pass
    try:
        out, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        tally.add(kind + " hung", f"{' '.join(command)}: no exit within 60 s")
        return
    killed = process.returncode == -signal.SIGKILL
    if killed:  # did it leave a temporary file (named with its pid) behind? A later run must remove it.
        cache, output = leftovers(cachedir, outdir)
        if any(f".{process.pid}." in n for n in cache) or any(f"-{process.pid}-" in n for n in output):
            tally.add("killed runs that left a temporary file")
    key = f"{kind} {'killed' if killed else 'completed'}"
    failure = None
    if not killed:
        text = out.decode(errors="replace")
        if process.returncode != 0:
            failure = f"{' '.join(command)} ({fate}): exit {process.returncode}: {err.decode(errors='replace').strip()}"
        elif kind == "resolve" and f"{host}:443:127.0.0.2" not in text:
            failure = f"{' '.join(command)} ({fate}): unexpected output {text!r}"
    tally.add(key, failure)


def leftovers(cachedir, outdir):
    cache = [n for n in os.listdir(cachedir) if n.startswith(".tmp.")] if os.path.isdir(cachedir) else []
    output = [n for n in os.listdir(outdir) if ".ipcurl-" in n]
    return cache, output


def main():
    work = tempfile.mkdtemp(prefix="ipcurl-stress.")
    cachedir, outdir = os.path.join(work, "cache"), os.path.join(work, "out")
    os.mkdir(outdir)
    env = dict(os.environ, IPCURL_CACHE_DIR=cachedir)
    env.pop("IPCURL_DNS", None)
    tally = Tally()
    started = time.monotonic()

    def worker(index):
        rng = random.Random(SEED * 1000 + index)
        for _ in range(RUNS):
            one_run(rng, env, cachedir, outdir, tally)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    failures = list(tally.failures)
    cache_left, output_left = leftovers(cachedir, outdir)

    listed = subprocess.run([IPCURL, "cache", "list", "--json"], env=env, capture_output=True)
    if listed.returncode != 0 or listed.stderr:
        failures.append(f"cache list: exit {listed.returncode}: {listed.stderr.decode(errors='replace').strip()}")
    records = json.loads(listed.stdout or b"[]")
    for record in records:
        if record["host"] not in HOSTS + ["a.test"] or record["addresses"] != EXPECTED[record["family"]]:
            failures.append(f"cache record reads back wrong: {record}")
    text = open(os.path.join(LAB["LAB_WWW"], "text.txt"), "rb").read()
    for name, source in OUTPUTS.items():
        path, body = os.path.join(outdir, name), text if source.startswith("/files/") else b"x" * DRIP_BYTES
        if os.path.exists(path) and open(path, "rb").read() != body:
            failures.append(f"{name}: {os.path.getsize(path)} bytes, not the whole body ({len(body)})")

    # One more run writes into each directory (a new cache entry, so the cache is trimmed): no leftover may remain.
    final = [resolve_command(f"final-{SEED}.any.test"), download_command(outdir, "final.txt")]
    for command in final:
        result = subprocess.run(command, env=env, capture_output=True)
        if result.returncode != 0:
            failures.append(f"{' '.join(command)}: exit {result.returncode}: {result.stderr.decode(errors='replace').strip()}")
    cache_after, output_after = leftovers(cachedir, outdir)
    if cache_after or output_after:
        failures.append(f"temporary files remain: {cache_after + output_after}")

    counts = ", ".join(f"{k} {v}" for k, v in sorted(tally.counts.items()))
    print(f"stress: {WORKERS} processes x {RUNS} runs (seed {SEED}) in {elapsed:.1f} s: {counts}")
    print(f"stress: {len(records)} cache records read back; "
          f"left at the end of the runs: {len(cache_left) + len(output_left)}; after the final runs: {len(cache_after) + len(output_after)}")
    subprocess.run(["rm", "-rf", work])
    if exporter_soak.PROBES:  # StressTests (make test) sets EXPORTER_SOAK_PROBES=0
        failures += ["exporter: " + failure for failure in exporter_soak.run(IPCURL, LAB, SEED)]
    for failure in failures[:20]:
        print("stress: FAIL " + failure, file=sys.stderr)
    if failures:
        print(f"stress: {len(failures)} failures", file=sys.stderr)
        return 1
    print("stress: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
