#!/usr/bin/env python3
"""Writes one section of TESTING.md from the output of a make target, as bench.py writes BENCHMARKS.md.

Usage: COMMAND | testing-md.py SECTION [MAKE_COMMAND]     SECTION: sanitize, fuzz or stress

Copies its standard input to standard output line by line (the make target's output stays visible as it comes),
then, when that output shows a passing run, replaces SECTION of TESTING.md (between its markers) with the run's
figures, dated and with the commit and machine, and keeps the other sections as they are. A run that did not pass
leaves the file alone. The fuzz section keeps one row per target: a run replaces the rows of the targets it ran
(FUZZ_TARGETS picks some) and keeps the others. TESTING_MD names another file (default: TESTING.md at the top of
the repository).
"""
import datetime
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = os.environ.get("TESTING_MD", os.path.join(ROOT, "TESTING.md"))
ORDER = ["sanitize", "fuzz", "stress"]
TITLES = {"sanitize": "Sanitizers", "fuzz": "Fuzzing", "stress": "Stress"}
HEADER = """# Testing

Written by `make sanitize`, `make fuzz` and `make stress` (`Build/testing-md.py`), each into its own section when
it passes; edit the script, not this file. What each run does is in [Tests/README.md](Tests/README.md#beyond-make-test),
what it defends against in [SECURITY.md](SECURITY.md).
"""


def begin(name):
    return f"<!-- testing-md:{name} begin -->"


def end(name):
    return f"<!-- testing-md:{name} end -->"


def git(*args):
    result = subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else ""


def commit():
    head = git("rev-parse", "--short", "HEAD") or "unknown"
    changed = [line[3:] for line in git("status", "--porcelain", "--untracked-files=no").splitlines()]
    changed = [path for path in changed if path not in ("TESTING.md", "BENCHMARKS.md")]
    return f"`{head}`" + (" with uncommitted changes" if changed else "")


def machine():
    name = ""
    try:
        with open("/etc/os-release") as release:
            for line in release:
                if line.startswith("PRETTY_NAME="):
                    name = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    cores = f"{os.cpu_count()} cores"
    return f"{cores}, {name}" if name else cores


def today():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")


def number(text):
    try:
        return f"{int(float(text)):,}"
    except ValueError:
        return text


def sanitize(lines, command):
    steps, total = [], None
    for line in lines:
        if m := re.match(r"make sanitize: (.+?): (\d+) tests? passed \((\d+) s\)$", line):
            steps.append((m[1], int(m[2]), int(m[3])))
        elif m := re.match(r"make sanitize: total: (\d+) s$", line):
            total = int(m[1])
        elif m := re.match(r"make sanitize: (.+ build): (\d+) s$", line):
            steps.append((m[1], None, int(m[2])))
    if not any(tests for _, tests, _ in steps):
        return None
    rows = [f"| {name} | {'' if tests is None else number(tests)} | {seconds} |" for name, tests, seconds in steps]
    tests = sum(tests or 0 for _, tests, _ in steps)
    rows.append(f"| all steps | {number(tests)} | {'' if total is None else total} |")
    return "\n".join([
        f"`{command}` on {today()} at commit {commit()} ({machine()}): every step passed, 0 sanitizer reports.",
        "The last row's time is the whole run's wall time, lab start and stop included.",
        "",
        "| step | tests | seconds |",
        "|---|---:|---:|",
        *rows,
    ])


FUZZ_COLUMNS = "| target | executions | exec/s | crashes | run | date | commit |"


def fuzz(lines, command, old_body):
    seconds = {m[1]: m[2] for line in lines if (m := re.match(r"fuzz: (\S+) for (\d+)s$", line))}
    results, in_table = [], False
    for line in lines:
        if re.match(r"target\s+executions\s+exec/s\s+crashes$", line):
            in_table = True
        elif in_table and (m := re.match(r"(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$", line)):
            results.append(m.groups())
    if not results or any(crashes != "0" or units == "?" for _, units, _, crashes in results):
        return None
    parallel = re.search(r"FUZZ_PARALLEL=(\d+)", command)
    at_once = f", {parallel[1]} at a time" if parallel else ""
    date, head, where = today(), commit(), machine().split(",")[0]
    rows = {}
    for line in (old_body or "").splitlines():  # the rows the section holds, by target
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| Fuzz") and len(cells) == 7:
            rows[cells[0]] = cells
    for target, units, rate, crashes in results:
        run = f"{seconds.get(target, '?')} s{at_once}, {where}"
        rows[target] = [target, number(units), number(rate), crashes, run, date, head]
    fewest = min(rows.values(), key=lambda cells: int(cells[1].replace(",", "") or 0))
    return "\n".join([
        f"The latest passing `make fuzz` run of each target (the last: `{command}` on {date}). {len(rows)} targets,",
        f"0 crashes; the fewest executions in one run: {fewest[0]}, {fewest[1]}.",
        "",
        FUZZ_COLUMNS,
        "|---|---:|---:|---:|---|---|---|",
        *("| " + " | ".join(cells) + " |" for cells in rows.values()),
    ])


def stress(lines, command):
    if "stress: passed" not in lines:
        return None
    run = next((m for line in lines if (m := re.match(
        r"stress: (\d+) processes x (\d+) runs \(seed (\d+)\) in ([\d.]+) s: (.*)$", line))), None)
    read = next((m for line in lines if (m := re.match(
        r"stress: (\d+) cache records read back; left at the end of the runs: (\d+); after the final runs: (\d+)$",
        line))), None)
    if not run or not read:
        return None
    counts = dict((m[1], int(m[2])) for part in run[5].split(", ") if (m := re.match(r"(.+) (\d+)$", part)))
    left = counts.pop("killed runs that left a temporary file", 0)
    killed = sum(value for key, value in counts.items() if key.endswith(" killed"))
    rows = [
        ("processes × runs", f"{run[1]} × {run[2]} = {number(int(run[1]) * int(run[2]))}"),
        ("seed (`STRESS_SEED`)", run[3]),
        ("wall time", f"{run[4]} s"),
        ("outcomes", ", ".join(f"{key} {value}" for key, value in counts.items())),
        ("killed", str(killed)),
        ("killed runs that left a temporary file", str(left)),
        ("temporary files left at the end of the runs", read[2]),
        ("temporary files after the final runs", read[3]),
        ("cache records read back", read[1]),
        *exporter_rows(lines),
        ("failures", "0"),
    ]
    return "\n".join([
        f"`{command}` on {today()} at commit {commit()} ({machine()}): passed.",
        "",
        "| figure | value |",
        "|---|---|",
        *(f"| {name} | {value} |" for name, value in rows),
    ])


def exporter_rows(lines):
    """The rows of exporter_soak.py's two lines, when the output has them."""
    soak = next((m for line in lines if (m := re.match(
        r"stress: exporter: (\d+) probes, (\d+) at a time \(seed \d+\) in ([\d.]+) s: (.*)$", line))), None)
    held = next((m for line in lines if (m := re.match(
        r"stress: exporter: descriptors (\d+) after (\d+) probes, (\d+) after \d+; VmRSS ([\d.]+) MiB after \d+ "
        r"probes, ([\d.]+) MiB after \d+; threads (\d+), (\d+)$", line))), None)
    if not soak or not held:
        return []
    span = f"after {number(held[2])} probes → after {number(soak[1])}"
    growth = float(held[5]) - float(held[4])
    return [
        ("exporter soak", f"{number(soak[1])} probes, {soak[2]} at a time, {soak[3]} s"),
        ("exporter outcomes", soak[4]),
        (f"exporter descriptors, {span}", f"{held[1]} → {held[3]} ({int(held[3]) - int(held[1]):+d}; at most +2)"),
        (f"exporter VmRSS, {span}", f"{held[4]} → {held[5]} MiB ({growth:+.2f} MiB; at most +2 MiB)"),
        (f"exporter threads, {span}", f"{held[6]} → {held[7]}"),
    ]


def sections(text):
    found = {}
    for name in ORDER:
        m = re.search(re.escape(begin(name)) + r"\n(.*?)" + re.escape(end(name)), text, re.S)
        if m:
            found[name] = m[1]
    return found


def body_of(section_text):
    """A section's text without its heading."""
    return section_text.split("\n", 2)[2] if section_text.startswith("## ") else section_text


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[1] not in ORDER:
        sys.exit(f"usage: COMMAND | {sys.argv[0]} {'|'.join(ORDER)} [MAKE_COMMAND]")
    name = sys.argv[1]
    command = sys.argv[2] if len(sys.argv) == 3 else f"make {name}"
    lines = []
    for line in sys.stdin:
        sys.stdout.write(line)
        sys.stdout.flush()
        lines.append(line.rstrip("\n"))

    text = open(PATH).read() if os.path.exists(PATH) else HEADER
    old = sections(text)
    if name == "fuzz":
        body = fuzz(lines, command, body_of(old.get("fuzz", "")))
    else:
        body = {"sanitize": sanitize, "stress": stress}[name](lines, command)
    if body is None:
        print(f"testing-md: no passing {name} run in the output; {os.path.basename(PATH)} left as it was",
              file=sys.stderr)
        return 0
    block = f"{begin(name)}\n## {TITLES[name]}\n\n{body}\n{end(name)}"
    if name in old:
        text = text.replace(f"{begin(name)}\n{old[name]}{end(name)}", block)
    else:  # a new section goes before the first section that follows it in ORDER, or at the end
        later = [other for other in ORDER[ORDER.index(name) + 1:] if other in old]
        if later:
            text = text.replace(begin(later[0]), block + "\n\n" + begin(later[0]), 1)
        else:
            text = text.rstrip("\n") + "\n\n" + block + "\n"
    with open(PATH + ".tmp", "w") as out:
        out.write(text)
    os.replace(PATH + ".tmp", PATH)
    print(f"testing-md: {name} section of {os.path.basename(PATH)} written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
