#!/usr/bin/env python3
"""make bench: ipcurl against curl on the lab (loopback only), written to BENCHMARKS.md.

Usage: bench.py IPCURL FLOOR_DIR OUTPUT.md   (the lab's variables in the environment: `lab.sh env`)
       bench.py IPCURL FLOOR_DIR OUTPUT.md --only large-inputs|exporter|samples   (that section alone, printed, no
       file written)

Every time is a paired ratio: the ipcurl command and the curl command run back to back (the order alternating from
pair to pair), and the row reports the median of the per-pair ratios, so drift of the machine during the run cancels
out. Peak RSS comes from GNU time (`/usr/bin/time -f %M`, the median of 3 runs of each side); instruction counts
from callgrind (deterministic). As root, the whole run happens in a private mount namespace whose /etc/ssl/certs
holds the lab CA and whose /etc/hosts names a.test, so the system-store rows run as a user's would.
PAIRS (default 31; at least 15) and BIG_PAIRS (default 15; the 64 MiB and 256 MiB rows and check) set the counts.
The exporter section (`--only exporter` runs it alone) sets `ipcurl exporter` beside blackbox_exporter 0.23 under the
same load; EXPORTER_PROBES (default 4000; at least 2000) probes each.
"""
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Lab"))
from exporters import Exporter, drive, module, probe_path, success  # noqa: E402

IPCURL, FLOORS, OUTPUT = sys.argv[1], sys.argv[2], sys.argv[3]
ONLY = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "--only" else None
EXPORTER_PROBES = max(2000, int(os.environ.get("EXPORTER_PROBES", "4000")))
PAIRS = max(15, int(os.environ.get("PAIRS", "31")))
BIG_PAIRS = max(15, int(os.environ.get("BIG_PAIRS", "15")))
LAB = {k: v for k, v in os.environ.items() if k.startswith("LAB_")}
PORT, IP, CA = LAB["LAB_HTTPS_PORT"], LAB["LAB_IP"], LAB["LAB_CA"]
DOH = LAB["LAB_DOH_URL"]
URL = f"https://a.test:{PORT}/"
PIN = f"a.test:{PORT}:{IP}"
SCRATCH = tempfile.mkdtemp(prefix="ipcurl-bench.")
# Trust is what each row says it is: no CA variables from the caller's environment, no resolver override.
ENV = {k: v for k, v in os.environ.items()
       if k not in ("CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR", "IPCURL_DNS")}
ENV["IPCURL_CACHE_DIR"] = os.path.join(SCRATCH, "cache")
LAB_CA = ["--cacert", CA]
# The several-URLs row: one command line, one host (connections and TLS sessions reused as curl reuses them).
SEVERAL = 50


@dataclass
class Side:
    argv: list
    ms: list = field(default_factory=list)
    rss_kib: int = 0
    faults: int = 0
    instructions: int | None = None


@dataclass
class Row:
    name: str
    note: str
    ours: Side
    theirs: Side
    pairs: int
    ratios: list = field(default_factory=list)

    @property
    def ratio(self):
        return statistics.median(self.ratios)

    def spread(self):
        q = statistics.quantiles(self.ratios, n=4)
        return q[0], q[2]


def spawn(argv):
    """Runs argv with stdout/stderr to /dev/null and returns its wall time in seconds. (posix_spawn shares this
    process's memory until the exec, so the child's rusage would report this process's RSS: see peak_rss.)"""
    actions = [(os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
               (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0)]
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, ENV, file_actions=actions)
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"bench: {' '.join(argv)} exited {os.waitstatus_to_exitcode(status)}")
    return elapsed


def peak_rss(argv):
    """The medians of 3 runs of argv (and its waited-for children) by GNU time: peak resident set size in KiB and
    minor page faults."""
    report = os.path.join(SCRATCH, "rss")
    sizes, faults = [], []
    for _ in range(3):
        subprocess.run(["/usr/bin/time", "-f", "%M %R", "-o", report] + argv, env=ENV, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(report) as file:
            size, minor = file.read().split()[-2:]
        sizes.append(int(size))
        faults.append(int(minor))
    return statistics.median(sizes), statistics.median(faults)


def redirect_hops_rss(hops):
    """Peak RSS in KiB (the median of 3 GNU time runs) of ipcurl and of curl following `hops` redirects of the lab's
    endless loop over plain HTTP with -w '%{json}' (which reads every hop), each stopped by --max-redirs (exit 47).
    Keep `hops` under 1,700: past 300 KiB of response headers (about 1,716 of the lab's hops) both stop with 56."""
    port = LAB["LAB_HTTP_PORT"]
    common = ["-s", "-o", "/dev/null", "-w", "%{json}", "-L", "--max-redirs", str(hops),
              "--resolve", f"a.test:{port}:{IP}", f"http://a.test:{port}/api/loop"]
    report = os.path.join(SCRATCH, "rss-hops")
    sizes = []
    for tool in (IPCURL, "curl"):
        runs = []
        for _ in range(3):
            done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report, tool, *common], env=ENV,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if done.returncode != 47:
                raise SystemExit(f"bench: {tool} following {hops} redirects exited {done.returncode}, not 47")
            with open(report) as file:
                runs.append(int(file.read().split()[-1]))
        sizes.append(statistics.median(runs))
    return tuple(sizes)


def redirect_hops_goal():
    """The goal row for memory over a long redirect chain: what 1,400 more hops add to the peak RSS."""
    (few, curl_few), (many, curl_many) = redirect_hops_rss(100), redirect_hops_rss(1500)
    growth, curl_growth = (many - few) / 1024, (curl_many - curl_few) / 1024
    print(f"{'redirect hops: RSS 100 -> 1500':<44} ipcurl {few / 1024:.1f} -> {many / 1024:.1f} MiB"
          f"  curl {curl_few / 1024:.1f} -> {curl_many / 1024:.1f} MiB", flush=True)
    return ("peak RSS growth, 1,500 redirect hops over 100 (`-w '%{json}'`)", "≤ 0.5 MiB",
            f"{growth:+.2f} MiB ({few / 1024:.1f} → {many / 1024:.1f} MiB; curl {curl_growth:+.2f} MiB)",
            "yes" if growth <= 0.5 else "no", REASONS["hops"])


def instructions(argv):
    """callgrind's instruction count for argv."""
    grind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--trace-children=no"]
    result = subprocess.run(grind + argv, env=ENV, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    for line in result.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    raise SystemExit(f"bench: callgrind failed for {' '.join(argv)}: {result.stderr[-400:]}")


def measure(name, note, ours, theirs, pairs=None, grind=True):
    """Runs the pairs of one row and, with `grind`, callgrind on both sides. The answer cache starts empty, so the
    warm-up run fills it with a fresh answer (the lab's TTL is 60 s; a row takes a few seconds)."""
    shutil.rmtree(ENV["IPCURL_CACHE_DIR"], ignore_errors=True)
    row = Row(name, note, Side(ours), Side(theirs), pairs or PAIRS)
    sides = (row.ours, row.theirs)
    for side in sides:  # warm-up: page cache, lab servers, the answer cache
        spawn(side.argv)
    for index in range(row.pairs):
        order = sides if index % 2 == 0 else sides[::-1]
        for side in order:
            side.ms.append(spawn(side.argv) * 1000)
        row.ratios.append(row.ours.ms[-1] / row.theirs.ms[-1])
    for side in sides:
        side.rss_kib, side.faults = peak_rss(side.argv)
    if grind and shutil.which("valgrind"):
        for side in sides:
            side.instructions = instructions(side.argv)
    print(f"{name:<44} {statistics.median(row.ours.ms):8.1f} ms  curl {statistics.median(row.theirs.ms):8.1f} ms"
          f"  ratio {row.ratio:5.2f}", flush=True)
    return row


def private_store():
    """A copy of /etc/ssl/certs with the lab CA added (hash link and bundle, as update-ca-certificates leaves
    them) and a hosts file mapping a.test to the lab: (store, hosts), or None when not root or without unshare."""
    if os.geteuid() != 0 or not shutil.which("unshare") or not os.path.isdir("/etc/ssl/certs"):
        return None
    if subprocess.run(["unshare", "-m", "true"], env=ENV).returncode != 0:
        return None
    store, hosts = os.path.join(SCRATCH, "certs"), os.path.join(SCRATCH, "hosts")
    subprocess.run(["cp", "-a", "/etc/ssl/certs", store], check=True)
    bundle = os.path.join(store, "ca-certificates.crt")
    with open(CA) as source, open(bundle, "a") as target:
        target.write(source.read())
    shutil.copy(CA, os.path.join(store, "ipcurl-lab-ca.pem"))
    digest = subprocess.run(["openssl", "x509", "-hash", "-noout", "-in", CA], check=True,
                            capture_output=True, text=True).stdout.strip()
    os.symlink("ipcurl-lab-ca.pem", os.path.join(store, f"{digest}.0"))
    os.utime(store)  # the directory is at least as new as the bundle, as after a rehash
    with open(hosts, "w") as file:
        file.write(f"127.0.0.1 localhost\n{IP} a.test\n")
    return store, hosts


def blackhole():
    """A DoH server address that accepts TCP connections (the kernel's backlog) and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.4", 0))
    listener.listen(256)
    return listener, f"https://127.0.0.4:{listener.getsockname()[1]}/dns-query"


def stopped_glob_rss(argv, transfers):
    """Runs argv (whose -w prints a line per transfer), reads `transfers` lines, then reads the process's peak
    resident set (VmHWM, KiB) and ends it: the memory a run holds once it is under way, whatever the glob's size."""
    process = subprocess.Popen(argv, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        for _ in range(transfers):
            if not process.stdout.readline():
                raise SystemExit(f"bench: {argv[0]} ended before {transfers} transfers")
        with open(f"/proc/{process.pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    finally:
        process.kill()
        process.wait()


def median_seconds(argv, runs=5):
    """The median wall time of `runs` runs of argv (it must exit 0)."""
    return statistics.median(spawn(argv) for _ in range(runs))


GLOB_URLS, GLOB_STOP, CONFIG_LINES = 20, 1000, 100_000


def large_inputs():
    """(figure, ipcurl, curl, note) rows: the peak RSS of a glob of 20 x [1-100000] stopped after GLOB_STOP
    transfers, and the time to read a config file of CONFIG_LINES lines (parsing alone, with --version after it)."""
    rows = []
    urls = [f"https://a.test:{PORT}/files/empty.txt?u={n}&n=[1-100000]" for n in range(GLOB_URLS)]
    glob = ["-s", *LAB_CA, "--resolve", PIN, "-o", "/dev/null", "-w", "%{urlnum}\n", *urls]
    ours, theirs = stopped_glob_rss([IPCURL, *glob], GLOB_STOP), stopped_glob_rss(["curl", *glob], GLOB_STOP)
    rows.append((f"peak RSS, {GLOB_URLS} URLs of [1-100000] (2,000,000 transfers) stopped after {GLOB_STOP}",
                 f"{ours / 1024:.1f} MiB", f"{theirs / 1024:.1f} MiB", "globs are expanded one URL at a time"))
    for kind, line in (("header", 'header = "X-Bench-{}: v"'), ("resolve", 'resolve = "h{}.test:443:127.0.0.1"')):
        path = os.path.join(SCRATCH, f"{kind}.conf")
        with open(path, "w") as file:
            file.writelines(line.format(n) + "\n" for n in range(CONFIG_LINES))
        ours = median_seconds([IPCURL, "-q", "-K", path, "--version"])
        theirs = median_seconds(["curl", "-q", "-K", path, "--version"])
        rows.append((f"reading a -K file of {CONFIG_LINES:,} `{kind}` lines (`-q -K FILE --version`)",
                     f"{ours * 1000:.0f} ms", f"{theirs * 1000:.0f} ms", "parsing alone: no request"))
    return rows


def large_inputs_lines(rows):
    lines = ["## Large inputs", "",
             "Local input far beyond what a person writes, each side once in the same way (median of 5 for times). "
             "The glob row reads the first transfers' `-w` lines and then the process's `VmHWM`, so it shows what a "
             "run holds once under way, not how long two million transfers take.", "",
             "| figure | ipcurl | curl | note |", "|---|---|---|---|"]
    lines += [f"| {figure} | {ours} | {theirs} | {note} |" for figure, ours, theirs, note in rows]
    return lines + [""]


EXPORTER_CLIENTS, EXPORTER_ROUND, EXPORTER_FIRST = 8, 500, 1000


def exporters():
    """`ipcurl exporter` and blackbox_exporter 0.23 side by side: the same module (the lab's `https_lab`), the same
    target, EXPORTER_PROBES probes each from EXPORTER_CLIENTS keep-alive clients in rounds of EXPORTER_ROUND,
    alternating which exporter goes first. Per side: CPU seconds (utime+stime from before the first probe to after
    the last), VmRSS (KiB) after EXPORTER_FIRST probes and after the last, each request's latency, the rounds' wall
    time."""
    path = probe_path("https_lab", f"https://localhost:{PORT}/")
    config = module("https_lab", CA)
    sides = {"ipcurl": Exporter("ipcurl", config, IPCURL, ["--doh", DOH, "--cacert", CA, "--no-fallback"], ENV)}
    try:
        sides["blackbox"] = Exporter("blackbox", config, env=ENV)
        figures = {name: {"cpu": exporter.cpu_seconds(), "latencies": [], "wall": 0.0} for name, exporter in sides.items()}

        def check(_, status, body):
            return None if status == 200 and success(body) == 1 else f"{status}: {body[:300]}"

        for index in range(EXPORTER_PROBES // EXPORTER_ROUND):
            for name in (("ipcurl", "blackbox") if index % 2 == 0 else ("blackbox", "ipcurl")):
                start = time.perf_counter()
                latencies, failures = drive(sides[name].port, [path] * EXPORTER_ROUND, EXPORTER_CLIENTS, check)
                figures[name]["wall"] += time.perf_counter() - start
                if failures:
                    raise SystemExit(f"bench: {name} exporter: {len(failures)} probes failed, the first: {failures[0]}")
                figures[name]["latencies"] += latencies
                if len(figures[name]["latencies"]) == EXPORTER_FIRST:
                    figures[name]["rss_first"] = sides[name].status("VmRSS")
        for name, exporter in sides.items():
            figures[name]["cpu"] = exporter.cpu_seconds() - figures[name]["cpu"]
            figures[name]["rss_last"] = exporter.status("VmRSS")
    finally:
        for exporter in sides.values():
            exporter.stop()
    probes = len(figures["ipcurl"]["latencies"])
    for name, got in figures.items():
        print(f"{'exporter: ' + name:<44} {got['cpu'] / probes * 1000:.3f} ms CPU/probe  RSS {got['rss_first'] / 1024:.1f}"
              f" -> {got['rss_last'] / 1024:.1f} MiB  median {statistics.median(got['latencies']) * 1000:.2f} ms",
              flush=True)
    return probes, figures


def exporter_table(probes, figures):
    """(figure, ipcurl exporter, blackbox_exporter, ratio) rows."""
    ours, theirs = figures["ipcurl"], figures["blackbox"]
    mib, ms = (lambda kib: f"{kib / 1024:.1f} MiB"), (lambda seconds: f"{seconds * 1000:.2f} ms")
    pct = lambda got, q: statistics.quantiles(got["latencies"], n=10)[q]
    rows = [("CPU per probe", ours["cpu"] / probes, theirs["cpu"] / probes, ms),
            (f"VmRSS after {EXPORTER_FIRST:,} probes", ours["rss_first"], theirs["rss_first"], mib),
            (f"VmRSS after {probes:,} probes", ours["rss_last"], theirs["rss_last"], mib),
            (f"VmRSS growth, {EXPORTER_FIRST:,} → {probes:,} probes", ours["rss_last"] - ours["rss_first"],
             theirs["rss_last"] - theirs["rss_first"], lambda kib: f"{kib / 1024:+.2f} MiB"),
            ("median scrape latency", statistics.median(ours["latencies"]), statistics.median(theirs["latencies"]), ms),
            ("90th percentile scrape latency", pct(ours, 8), pct(theirs, 8), ms),
            (f"probes per second ({EXPORTER_CLIENTS} clients)", probes / ours["wall"], probes / theirs["wall"],
             lambda rate: f"{rate:.0f}")]
    return [(name, show(a), show(b), f"{a / b:.2f}×" if b > 0 and "growth" not in name else "")
            for name, a, b, show in rows]


def exporter_goals(probes, figures):
    ours, theirs = figures["ipcurl"], figures["blackbox"]
    cpu = ours["cpu"] / theirs["cpu"]
    latency = statistics.median(ours["latencies"]) / statistics.median(theirs["latencies"])
    rss, growth = ours["rss_last"] / 1024, (ours["rss_last"] - ours["rss_first"]) / 1024
    return [("exporter CPU per probe / blackbox_exporter's", "≤ 0.50×", f"{cpu:.2f}×", "yes" if cpu <= 0.5 else "no",
             REASONS["exporter-cpu"]),
            (f"exporter VmRSS after {probes:,} probes", "≤ 24 MiB",
             f"{rss:.1f} MiB (blackbox_exporter {theirs['rss_last'] / 1024:.1f} MiB)", "yes" if rss <= 24 else "no",
             REASONS["exporter-rss"]),
            (f"exporter VmRSS growth, {EXPORTER_FIRST:,} → {probes:,} probes", "≤ 1 MiB", f"{growth:+.2f} MiB",
             "yes" if growth <= 1 else "no", REASONS["exporter-rss"]),
            ("exporter median scrape latency / blackbox_exporter's", "≤ 1.00×", f"{latency:.2f}×",
             "yes" if latency <= 1 else "no", REASONS["exporter-latency"])]


def exporter_lines(probes, figures):
    lines = ["## Exporter", "",
             "`ipcurl exporter` (`--doh` the lab's DoH server, `--cacert` the lab CA, `--no-fallback`) and Debian's "
             "blackbox_exporter 0.23, each on 127.0.0.1 with the same module (the lab's `https_lab`: IPv4, no "
             f"fallback, the lab CA, 5 s) probing `https://localhost:PORT/`: {probes:,} probes each from "
             f"{EXPORTER_CLIENTS} client threads on keep-alive connections, in rounds of {EXPORTER_ROUND} alternating "
             "which exporter goes first. CPU is the exporter process's utime + stime (`/proc/PID/stat`) from before "
             "the first probe to after the last, over the probes; VmRSS is read after the first "
             f"{EXPORTER_FIRST:,} probes and after the last; latency is the client's, per request. blackbox_exporter "
             "finds `localhost` in /etc/hosts; ipcurl asks the DoH server once per TTL (the probes share answers).",
             "", "| figure | ipcurl exporter | blackbox_exporter | ratio |", "|---|---|---|---|"]
    lines += [f"| {name} | {ours} | {theirs} | {ratio} |" for name, ours, theirs, ratio in exporter_table(probes, figures)]
    return lines + [""]


def machine():
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.processor())
    memory = next(int(line.split()[1]) for line in open("/proc/meminfo") if line.startswith("MemTotal"))
    system = next((line.split("=", 1)[1].strip().strip('"') for line in open("/etc/os-release")
                   if line.startswith("PRETTY_NAME=")), platform.system())
    first = lambda argv: subprocess.run(argv, capture_output=True, text=True).stdout.splitlines()[0]
    return [f"{platform.node()}: {cpu}, {os.cpu_count()} cores, {memory / 1048576:.0f} GiB, {system}, "
            f"Linux {platform.release()}",
            first(["curl", "--version"]), first([IPCURL, "--version"]),
            first(["swift", "--version"]) if shutil.which("swift") else "swift: not on PATH"]


def main():
    rows = []
    quiet = ["-s", "-o", "/dev/null"]
    curl_pinned = ["curl", *quiet, *LAB_CA, "--resolve", PIN, URL]
    curl_doh = ["curl", *quiet, *LAB_CA, "--doh-url", DOH, URL]
    warm = [IPCURL, *quiet, *LAB_CA, "--doh", DOH, URL]
    cold = [IPCURL, *quiet, *LAB_CA, "--no-dns-cache", "--doh", DOH, URL]
    rows.append(measure("--version", "start-up alone", [IPCURL, "--version"], ["curl", "--version"]))
    rows.append(measure("floor: minimal Swift program, pinned", "Benchmarks/Floor/floor.swift",
                        [f"{FLOORS}/floor", URL, PIN, CA], curl_pinned))
    rows.append(measure("floor: the same in C, pinned", "Benchmarks/Floor/floor.c",
                        [f"{FLOORS}/floor-c", URL, PIN, CA], curl_pinned))
    rows.append(measure("pinned request", "--resolve against curl --resolve",
                        [IPCURL, *quiet, *LAB_CA, "--resolve", PIN, URL], curl_pinned))
    rows.append(measure("warm request / curl --doh-url", "answer cache hit, lab CA", warm, curl_doh))
    rows.append(measure("warm request / curl --resolve", "answer cache hit, lab CA", warm, curl_pinned))
    rows.append(measure("cold request / curl --doh-url", "a DoH query (A+AAAA over HTTP/2), lab CA", cold, curl_doh))
    many = [f"{URL}?n={n}" for n in range(SEVERAL)]
    rows.append(measure(f"{SEVERAL} URLs of one host", "one command line, warm, lab CA, against curl --resolve",
                        [IPCURL, *quiet, *LAB_CA, "--doh", DOH, *many], ["curl", *quiet, *LAB_CA, "--resolve", PIN, *many]))
    if NAMESPACED:
        system_warm = [IPCURL, *quiet, "--doh", DOH, URL]
        rows.append(measure("system store: warm / curl's defaults", "no --cacert; curl resolves a.test via /etc/hosts",
                            system_warm, ["curl", *quiet, URL]))
        rows.append(measure("system store: cold / curl --doh-url", "no --cacert on either side",
                            [IPCURL, *quiet, "--no-dns-cache", "--doh", DOH, URL],
                            ["curl", *quiet, "--doh-url", DOH, URL]))
    listener, hole = blackhole()
    rows.append(measure("hedged: blackholed first DoH server",
                        "--dns-timeout 5 --doh HOLE --doh LAB; curl asks LAB only. By design the second server is asked "
                        "after the 300 ms hedge delay, so the row is one hedge delay plus a cold request",
                        [IPCURL, *quiet, *LAB_CA, "--no-dns-cache", "--dns-timeout", "5", "--doh", hole, "--doh", DOH, URL],
                        curl_doh, grind=False))
    listener.close()
    fixture = f"http://{LAB['LAB_HTTPDNS_IP']}:{LAB['LAB_HTTPDNS_HTTP_PORT']}"
    plain = "the lab's vendor fixture over plain HTTP; curl --doh-url beside it"
    vendors = (("Alibaba Cloud HTTPDNS", plain, ["--aliyun", LAB["LAB_ALIYUN_ACCOUNT"], "--httpdns-server", fixture]),
               ("Alibaba Cloud HTTPDNS, signed", plain, ["--aliyun", LAB["LAB_ALIYUN_SIGNED_ACCOUNT"],
                                                         "--httpdns-secret-file", LAB["LAB_ALIYUN_SECRET_FILE"],
                                                         "--httpdns-server", fixture]),
               ("DNSPod, AES", plain + "; the fixture runs the openssl CLI twice per query",
                ["--dnspod-id", LAB["LAB_DNSPOD_ID"], "--dnspod-key-file", LAB["LAB_DNSPOD_AES_KEY_FILE"],
                 "--httpdns-server", fixture]),
               ("DoH JSON", plain, ["--doh-json", f"{fixture}/resolve"]))
    for name, note, resolver in vendors:
        rows.append(measure(f"cold, {name}", note,
                            [IPCURL, *quiet, *LAB_CA, "--no-dns-cache", *resolver, URL], curl_doh, grind=False))
    fail = f"http://{LAB['LAB_HTTPDNS_IP']}:{LAB['LAB_HTTPDNS_FAIL_PORT']}"
    local = f"https://localhost:{PORT}/"
    rows.append(measure("fallback: HTTPDNS 503, system resolver", "--aliyun against a failing server, then the system",
                        [IPCURL, *quiet, *LAB_CA, "--no-dns-cache", "--aliyun", "1", "--httpdns-server", fail, local],
                        ["curl", *quiet, *LAB_CA, local]))
    for count in (10, 100, 1000):
        path = os.path.join(SCRATCH, f"urls{count}")
        urls = [f"https://a.test:{PORT}/?n={n}" for n in range(count)]
        with open(path, "w") as file:
            file.write("\n".join(urls) + "\n")
        probe = [IPCURL, "check", "--no-dns-cache", *LAB_CA, "--doh", DOH, "-4", "--format", "json", "-o", "/dev/null"]
        xargs = ["sh", "-c", 'xargs -P8 -n1 curl -s -o /dev/null --cacert "$1" --resolve "$2" <"$3"', "sh", CA, PIN, path]
        rows.append(measure(f"check: {count} probes", "against xargs -P8 -n1 curl --resolve", probe + urls, xargs,
                            pairs=BIG_PAIRS, grind=False))
    sampled, sampled_rss = sampled_check()
    rows.append(sampled)
    big = f"https://a.test:{PORT}/files/big.bin"
    mine, curls = os.path.join(SCRATCH, "mine.bin"), os.path.join(SCRATCH, "curls.bin")
    rows.append(measure("64 MiB download to a file", "-o replacing an existing file on both sides",
                        [IPCURL, "-s", *LAB_CA, "--resolve", PIN, "-o", mine, big],
                        ["curl", "-s", *LAB_CA, "--resolve", PIN, "-o", curls, big], pairs=BIG_PAIRS))
    upload = os.path.join(SCRATCH, "256m.bin")
    with open(upload, "wb") as file:
        for _ in range(256):
            file.write(os.urandom(1 << 20))
    api = f"https://a.test:{PORT}/api/echo"
    rows.append(measure("256 MiB upload (-T)", "PUT to the lab's echo API",
                        [IPCURL, *quiet, *LAB_CA, "--resolve", PIN, "-T", upload, api],
                        ["curl", *quiet, *LAB_CA, "--resolve", PIN, "-T", upload, api], pairs=BIG_PAIRS, grind=False))
    probes, figures = exporters()
    write(rows, NAMESPACED, large_inputs(), [sampled_rss, redirect_hops_goal(), *exporter_goals(probes, figures)],
          exporter_lines(probes, figures))


def sampled_check():
    """`check --samples 10` over 100 URLs against ten sequential `check` runs of the same URLs (the row), and the peak
    RSS of a check of 10,000 samples, 100 of each URL (a goal)."""
    urls = [f"https://a.test:{PORT}/?n={n}" for n in range(100)]
    probe = [IPCURL, "check", "--no-dns-cache", *LAB_CA, "--doh", DOH, "-4", "--format", "json", "-o", "/dev/null"]
    loop = 'for i in 1 2 3 4 5 6 7 8 9 10; do "$@" || exit 1; done'
    row = measure("check --samples 10: 100 URLs", "against ten sequential `check` runs of the same 100 URLs",
                  probe + ["--samples", "10"] + urls, ["sh", "-c", loop, "sh", *probe, *urls], pairs=BIG_PAIRS, grind=False)
    kib, _ = peak_rss(probe + ["--samples", "100"] + urls)
    print(f"{'check: 10,000 samples, peak RSS':<44} {kib / 1024:.1f} MiB", flush=True)
    goal = ("peak RSS, check of 10,000 samples (`--samples 100`, 100 URLs)", "< 30 MiB", f"{kib / 1024:.1f} MiB",
            "yes" if kib / 1024 < 30 else "no", REASONS["samples-rss"])
    return row, goal


def find(rows, name):
    return next((row for row in rows if row.name == name), None)


def goals(rows):
    """(figure, goal, value, met, reason if missed) for the issue's goals."""
    out = []

    def ratio(name, figure, goal, reason):
        row = find(rows, name)
        if row is None:
            out.append((figure, f"≤ {goal:.2f}×", "not measured (needs root and unshare)", "—", ""))
        else:
            out.append((figure, f"≤ {goal:.2f}×", f"{row.ratio:.2f}×", "yes" if row.ratio <= goal else "no", reason))

    row = find(rows, "--version")
    out.append(("`--version`, time / curl's", "≤ 1.00×", f"{row.ratio:.2f}×", "yes" if row.ratio <= 1.0 else "no",
                REASONS["version"]))
    value = row.ours.instructions / row.theirs.instructions if row.ours.instructions else None
    out.append(("`--version`, instructions / curl's", "≤ 1.00×", f"{value:.3f}×" if value else "not measured",
                "yes" if value and value <= 1.0 else "no", REASONS["version"]))
    ratio("system store: warm / curl's defaults", "warm request with the system store / curl with its defaults", 0.40,
          REASONS["system"])
    doh, pinned = find(rows, "warm request / curl --doh-url"), find(rows, "warm request / curl --resolve")
    beat = 0.75 * statistics.median(doh.theirs.ms) / statistics.median(pinned.theirs.ms)
    ratio("warm request / curl --doh-url", "warm request (lab CA) / `curl --doh-url`", 0.75,
          f"0.75× of curl --doh-url is {beat:.2f}× of curl --resolve's time for the same pinned request (the two warm "
          "rows' curl times): a warm request would have to beat curl at the request itself. ")
    ratio("warm request / curl --resolve", "warm request / `curl --resolve`", 1.10, REASONS["warm-resolve"])
    ratio("cold request / curl --doh-url", "cold request (a DoH query) / `curl --doh-url`", 1.00, REASONS["cold"])
    row = find(rows, "warm request / curl --resolve")
    value = row.ours.instructions / row.theirs.instructions if row and row.ours.instructions else None
    out.append(("warm request instructions / `curl --resolve`'s", "≤ 1.00×",
                f"{value:.3f}× ({row.ours.instructions / 1e6:.2f} M / {row.theirs.instructions / 1e6:.2f} M)" if value
                else "not measured", "yes" if value and value <= 1.0 else "no", REASONS["instructions"]))
    ratio(f"{SEVERAL} URLs of one host", f"{SEVERAL} URLs of one host in one command / curl's", 1.10, REASONS["several"])
    several, single = find(rows, f"{SEVERAL} URLs of one host"), find(rows, "warm request / curl --resolve")
    if several and single and several.ours.instructions and single.ours.instructions:
        # The cost of each URL after the first: the row's instructions less the single request's, per extra URL.
        ours = (several.ours.instructions - single.ours.instructions) / (SEVERAL - 1)
        theirs = (several.theirs.instructions - single.theirs.instructions) / (SEVERAL - 1)
        out.append(("instructions per further URL / curl's", "≤ 1.00×",
                    f"{ours / theirs:.3f}× ({ours / 1e3:.0f} k / {theirs / 1e3:.0f} k)",
                    "yes" if ours <= theirs else "no", REASONS["per-url"]))
    ratio("64 MiB download to a file", "64 MiB download to a file, time / curl", 1.05, REASONS["download"])
    for name, figure, goal in (("warm request / curl --resolve", "peak RSS, warm request", 18),
                               ("64 MiB download to a file", "peak RSS, 64 MiB download", 17),
                               ("256 MiB upload (-T)", "peak RSS, 256 MiB upload", 17)):
        row = find(rows, name)
        mib = row.ours.rss_kib / 1024
        out.append((figure, f"≤ {goal} MiB", f"{mib:.1f} MiB (curl {row.theirs.rss_kib / 1024:.1f} MiB)",
                    "yes" if mib <= goal else "no", REASONS["rss"]))
    ratio("check: 100 probes", "check, 100 URLs / `xargs -P8 -n1 curl --resolve`", 0.35, REASONS["check"])
    ratio("check --samples 10: 100 URLs", "check `--samples 10` over 100 URLs / ten sequential `check` runs", 1.00,
          REASONS["samples"])
    row = find(rows, "check: 1000 probes")
    mib = row.ours.rss_kib / 1024
    out.append(("peak RSS, check of 1000 probes", "< 60 MiB", f"{mib:.1f} MiB", "yes" if mib < 60 else "no",
                REASONS["check"]))
    return out


# Why a goal is missed where the bench has found it missed; shown only beside a goal this run missed.
def faults(rows, name):
    """The page-fault reason, with this run's figures of row `name`."""
    row = find(rows, name)
    return (f"ipcurl costs {row.ours.instructions / row.theirs.instructions:.2f}× curl's instructions here but takes "
            f"{row.ours.faults} minor page faults to curl's {row.theirs.faults} (GNU time `%R`, this row): its larger "
            "static binary, and copy-on-write faults on the PIE's relocated Swift metadata (release builds keep PIE). "
            if row and row.ours.instructions and row.theirs.instructions else "")


REASONS = {
    "system": "the TLS handshake and the hosts-file lookup are the same for both; the CA store is what differs.",
    "warm-resolve": "",
    "cold": "",
    "version": "start-up is the static Swift runtime's (compare the floor rows). ",
    "check": "probes run on one multi handle; the curl side pays a process per URL.",
    "samples": "samples run in rounds on one multi handle, each round waiting for its slowest probe, as each of the "
               "sequential runs waits for its own; the run saves their start-ups and name lookups. ",
    "samples-rss": "an address keeps of each sample its phase times and outcome (SampleAggregate), and whole results "
                   "only for its first failed, last passed and last sample. ",
    "instructions": "the minimal Swift program (Benchmarks/Floor) is the floor this figure stands on.",
    "download": "the per-byte path is libcurl's on both sides; only file handling differs.",
    "rss": "the static Swift runtime's pages are resident from the start (compare --version).",
    "several": "each URL is a transfer of ipcurl's own loop (resolution, pin, redirect and retry rules) on a new easy "
               "handle, as curl makes one per URL; the command's serial transfers run on one multi handle, where "
               "curl_easy_perform makes one (and its wake-up socket pair) for each. ",
    "hops": "a redirect hop's report is summed into the chain's as it ends (RedirectChain); growth is a hop's own "
            "state that outlives it. ",
    "exporter-cpu": "every probe is a fresh TLS connection, as blackbox's, and in a callgrind profile of the "
                    "exporter (200 probes, 8.6 M instructions each) OpenSSL's SSL_connect is 65 % of a probe (the "
                    "chain's verification 11 %, the key exchange 6 %) and the SSL_CTX libcurl 7.88 makes for every "
                    "connection 14 %; building the exposition text is 7.5 %. The CA store is built once per server "
                    "thread (libcurl's CA cache in the thread's multi handle) and the certificate facts are read "
                    "from the live connection, not from CURLOPT_CERTINFO's text. ",
    "exporter-rss": "most of it is file-backed (the program's text and libcrypto's); what moves is glibc's malloc "
                    "arenas, one more for each probe thread running at once, up to 8 per core. ",
    "exporter-latency": "the clients keep both cores busy, so latency follows what a probe costs the machine: the "
                        "exporter's CPU above, and nginx's and the clients' alike on both sides. ",
    "per-url": "ipcurl builds each URL's request from its options and parses the URL before libcurl does (to resolve "
               "its host), and saves the multi handle curl_easy_perform makes per URL. ",
}


def write(rows, namespaced, inputs, extra_goals=(), sections=()):
    lines = ["# Benchmarks", "",
             "Written by `make bench` (`Benchmarks/bench.py`) against the lab on loopback; edit the script, not this "
             "file.", "",
             "**Machine.** " + " · ".join(f"`{entry}`" for entry in machine()) + "", "",
             "**Method.** Each row runs an ipcurl command and a curl command back to back, alternating which goes "
             "first, and reports the median of the per-pair time ratios (ipcurl / curl) with its interquartile "
             "range; the times are the medians of each side. Peak RSS and minor page faults are the medians of three GNU time "
             "runs (`%M`, `%R`); "
             "instruction counts come from one `valgrind --tool=callgrind` run of each side (deterministic, unlike "
             "time). Lab CA rows pass `--cacert`. Everything runs in a private mount namespace whose "
             "`/etc/ssl/certs` is a copy of the system's with the lab CA added (hash link and bundle) and whose "
             "`/etc/hosts` maps a.test to the lab" + ("" if namespaced else " (not this run: it needs root and unshare, so the system-store rows are missing)") +
             ". CA variables (`CURL_CA_BUNDLE`, `SSL_CERT_FILE`, `SSL_CERT_DIR`) are removed from the environment.",
             "", "## Goals", "", "| figure | goal | measured | met | why, when missed |", "|---|---|---|---|---|"]
    for figure, goal, value, met, reason in goals(rows) + list(extra_goals):
        if met == "no":
            row = {"`--version`, time / curl's": "--version",
                   "warm request (lab CA) / `curl --doh-url`": "warm request / curl --doh-url",
                   "warm request / `curl --resolve`": "warm request / curl --resolve",
                   "cold request (a DoH query) / `curl --doh-url`": "cold request / curl --doh-url"}.get(figure)
            reason += faults(rows, row) if row else ""
        lines.append(f"| {figure} | {goal} | {value} | {met} | {reason.strip() if met == 'no' else ''} |")
    lines += ["", "## Rows", "",
              "| row | compared with | pairs | ipcurl ms | curl ms | ratio (IQR) | ipcurl instr. | curl instr. | "
              "instr. ratio | ipcurl RSS | curl RSS | ipcurl faults | curl faults |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        low, high = row.spread()
        ours, theirs = row.ours.instructions, row.theirs.instructions
        grind = (f"{ours / 1e6:.2f} M | {theirs / 1e6:.2f} M | {ours / theirs:.3f}×" if ours and theirs
                 else "— | — | —")
        lines.append(f"| {row.name} | {row.note} | {row.pairs} | {statistics.median(row.ours.ms):.1f} | "
                     f"{statistics.median(row.theirs.ms):.1f} | {row.ratio:.2f}× ({low:.2f}–{high:.2f}) | {grind} | "
                     f"{row.ours.rss_kib / 1024:.1f} MiB | {row.theirs.rss_kib / 1024:.1f} MiB | "
                     f"{row.ours.faults} | {row.theirs.faults} |")
    lines += ["", "Instruction counts are left out (—) where callgrind would take minutes (256 MiB), where the "
              "compared command is a shell pipeline (check), for the vendor rows (their curl side is a different "
              "protocol) and for the hedged row's blackholed server, whose wait is time, not instructions.", ""]
    lines += large_inputs_lines(inputs) + list(sections)
    with open(OUTPUT, "w") as file:
        file.write("\n".join(lines))
    print(f"bench: wrote {OUTPUT}")


NAMESPACED = os.environ.get("BENCH_NAMESPACED") == "1"
if __name__ == "__main__":  # imported, a single figure function can be run on its own
    try:
        if ONLY is not None:
            if ONLY == "large-inputs":
                print("\n".join(large_inputs_lines(large_inputs())))
            elif ONLY == "samples":
                row, goal = sampled_check()
                print(f"| {' | '.join(goal)} |")
            elif ONLY == "exporter":
                probes, figures = exporters()
                print("\n".join(exporter_lines(probes, figures)))
                print("\n".join(f"| {' | '.join(row)} |" for row in exporter_goals(probes, figures)))
            else:
                raise SystemExit(f"bench: no section {ONLY!r} (large-inputs, exporter, samples)")
            sys.exit(0)
        made = None if NAMESPACED else private_store()
        if made:
            # The same script again inside a private mount namespace with the store and hosts file mounted over the
            # system's; this process only waits and cleans up.
            script = 'mount --bind "$1" /etc/ssl/certs && mount --bind "$2" /etc/hosts && shift 2 && exec "$@"'
            inner = dict(os.environ, BENCH_NAMESPACED="1")
            sys.exit(subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", *made, sys.executable, *sys.argv],
                                    env=inner).returncode)
        main()
    finally:
        shutil.rmtree(SCRATCH, ignore_errors=True)
