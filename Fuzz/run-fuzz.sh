#!/usr/bin/env bash
# Runs fuzz targets for SECONDS each on a copy of their seed corpus and prints a table; exits 1 when any target
# found a crash (its input stays in WORK/<target>/). Usage: run-fuzz.sh BIN_DIR WORK SECONDS PARALLEL TARGET...
set -uo pipefail
bin=$1 work=$2 seconds=$3 parallel=$4; shift 4
here=$(cd "$(dirname "$0")" && pwd)

# Longest input per target: a few times the largest real answer.
max_len() {
    case $1 in
        FuzzDNSMessage) echo 1024 ;; FuzzTargetsFile | FuzzConfigFile | FuzzWriteOut | FuzzAliyunBatch | FuzzAliyunV2) echo 2048 ;;
        FuzzCacheRecord) echo 4200 ;; FuzzOptionParser | FuzzResolveEntry | FuzzResolverCommandLine) echo 512 ;;
        *) echo 1024 ;;
    esac
}

# The command-line targets reach libcurl's URL parser, whose IDN conversion keeps allocations LeakSanitizer reports.
asan_options() {
    case $1 in FuzzOptionParser | FuzzConfigFile) echo detect_leaks=0 ;; esac
}

run_one() {
    local target=$1 dir="$work/$1"
    rm -rf "$dir" && mkdir -p "$dir/corpus" "$dir/artifacts"
    cp "$here/Corpus/$target/"* "$dir/corpus/"
    ASAN_OPTIONS=$(asan_options "$target") "$bin/$target" -max_total_time="$seconds" -max_len="$(max_len "$target")" -print_final_stats=1 \
        -artifact_prefix="$dir/artifacts/" "$dir/corpus" >"$dir/log" 2>&1
    echo $? >"$dir/status"
}

running=0
for target in "$@"; do
    [ -x "$bin/$target" ] || { echo "run-fuzz: no fuzz target $target in $bin" >&2; exit 2; }
    echo "fuzz: $target for ${seconds}s"
    run_one "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$parallel" ]; then wait -n; running=$((running - 1)); fi
done
wait

failed=0
printf '%-26s %14s %10s %8s\n' target executions exec/s crashes
for target in "$@"; do
    dir="$work/$target"
    units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -n 1)
    crashes=$(find "$dir/artifacts" -type f | wc -l)
    if [ "$(cat "$dir/status")" != 0 ] && [ "$crashes" = 0 ]; then crashes=1; fi  # died without an artifact
    [ "$crashes" = 0 ] || failed=1
    printf '%-26s %14s %10s %8s\n' "$target" "${units:-?}" "${rate:-?}" "$crashes"
done
[ "$failed" = 0 ] || echo "fuzz: crashes found; inputs and logs under $work/<target>/" >&2
exit "$failed"
