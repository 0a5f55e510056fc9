#!/usr/bin/env python3
"""make stress, second part: one `ipcurl exporter` answers EXPORTER_SOAK_PROBES probes (default 20,000) from
EXPORTER_SOAK_CLIENTS keep-alive clients at once (default 16), mixing good targets, a wrong certificate, a refused
port and a target slower than its module's 1 s timeout, with a /metrics scrape every 500 requests. Every probe must
answer 200 with the probe_success its target deserves, and /metrics must count them. Between the warm-up (the first
2,000 probes) and the end, with every client connection closed, the process may gain at most 2 descriptors
(/proc/PID/fd) and 2 MiB of VmRSS. Prints two `stress: exporter:` lines; exit 1 on any failure.

usage: exporter_soak.py IPCURL   (the lab's lab.env values in the environment); STRESS_SEED as stress.py.
"""
import os
import random
import sys
import time

from exporters import Exporter, drive, module, probe_path, success

PROBES = int(os.environ.get("EXPORTER_SOAK_PROBES", "20000"))
CLIENTS = int(os.environ.get("EXPORTER_SOAK_CLIENTS", "16"))
WARM_UP, METRICS_EVERY, MAX_DESCRIPTORS, MAX_GROWTH_KIB = 2000, 500, 2, 2048


def targets(lab):
    """(kind, weight, path, expected probe_success)."""
    port = lab["LAB_HTTPS_PORT"]
    return [("good", 75, probe_path("lab", f"https://a.test:{port}/"), 1),
            ("wrong certificate", 10, probe_path("lab", f"https://wrong.test:{port}/"), 0),
            ("refused", 10, probe_path("lab", "https://127.0.0.1:9/"), 0),
            ("timed out", 5, probe_path("slow", f"https://a.test:{port}/api/delay?ms=3000"), 0)]


def run(ipcurl, lab, seed):
    if PROBES <= WARM_UP:
        return [f"EXPORTER_SOAK_PROBES must be more than the warm-up's {WARM_UP}"]
    rng = random.Random(seed)
    kinds = targets(lab)
    expected = {path: (kind, value) for kind, _, path, value in kinds}
    plan = rng.choices([path for _, _, path, _ in kinds], [weight for _, weight, _, _ in kinds], k=PROBES)
    # A /metrics scrape after every METRICS_EVERY probes.
    requests = [request for index, path in enumerate(plan)
                for request in ([path, "/metrics"] if (index + 1) % METRICS_EVERY == 0 else [path])]
    tally, slowest = {kind: 0 for kind, _, _, _ in kinds} | {"/metrics": 0}, [0.0]

    def check(path, status, body):
        if path == "/metrics":
            tally["/metrics"] += 1
            return None if status == 200 and "ipcurl_exporter_probes_total" in body else f"/metrics: {status}: {body[:200]}"
        kind, value = expected[path]
        tally[kind] += 1
        got = success(body) if status == 200 else None
        return None if got == value else f"{kind} ({path}): {status}, probe_success {got}: {body[:300]}"

    config = module("lab", lab["LAB_CA"]) + module("slow", lab["LAB_CA"], timeout="1s")
    exporter = Exporter("ipcurl", config, ipcurl, ["--doh", lab["LAB_DOH_URL"], "--cacert", lab["LAB_CA"], "--no-fallback"])
    failures = []
    try:
        started = time.monotonic()
        split = WARM_UP + WARM_UP // METRICS_EVERY
        _, failed = drive(exporter.port, requests[:split], CLIENTS, check)
        failures += failed
        warm = exporter.settled()
        _, failed = drive(exporter.port, requests[split:], CLIENTS, check)
        failures += failed
        end = exporter.settled(baseline=warm[0])
        elapsed = time.monotonic() - started
        counted = counted_probes(exporter)
    finally:
        exporter.stop()
    if counted != PROBES:
        failures.append(f"/metrics counts {counted} probes, not {PROBES}")
    if end[0] - warm[0] > MAX_DESCRIPTORS:
        failures.append(f"descriptors grew from {warm[0]} to {end[0]} (more than +{MAX_DESCRIPTORS})")
    if end[1] - warm[1] > MAX_GROWTH_KIB:
        failures.append(f"VmRSS grew from {warm[1]} KiB to {end[1]} KiB (more than {MAX_GROWTH_KIB} KiB)")
    outcomes = ", ".join(f"{kind} {count}" for kind, count in tally.items())
    print(f"stress: exporter: {PROBES} probes, {CLIENTS} at a time (seed {seed}) in {elapsed:.1f} s: {outcomes}")
    print(f"stress: exporter: descriptors {warm[0]} after {WARM_UP} probes, {end[0]} after {PROBES}; "
          f"VmRSS {warm[1] / 1024:.2f} MiB after {WARM_UP} probes, {end[1] / 1024:.2f} MiB after {PROBES}; "
          f"threads {warm[2]}, {end[2]}")
    return failures


def counted_probes(exporter):
    """The sum of ipcurl_exporter_probes_total in one more /metrics scrape."""
    texts = []
    drive(exporter.port, ["/metrics"], 1, lambda _, status, body: texts.append(body))
    return sum(int(float(line.rsplit(" ", 1)[1])) for line in texts[0].splitlines()
               if line.startswith("ipcurl_exporter_probes_total{")) if texts else -1


if __name__ == "__main__":
    lab = {k: v for k, v in os.environ.items() if k.startswith("LAB_")}
    seed = int(os.environ.get("STRESS_SEED", str(time.time_ns() % 1_000_000)))
    failures = run(sys.argv[1], lab, seed)
    for failure in failures[:20]:
        print("stress: FAIL exporter: " + failure, file=sys.stderr)
    if failures:
        print(f"stress: {len(failures)} exporter failures", file=sys.stderr)
    sys.exit(1 if failures else 0)
