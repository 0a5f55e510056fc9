#!/usr/bin/env bash
# make bench: startup and request timings of ipcurl against curl, plus peak memory, on the lab (offline).
# Usage: bench.sh PATH/TO/ipcurl   (the release build; `make bench` passes it)
set -euo pipefail
bin=${1:?usage: bench.sh PATH/TO/ipcurl}
command -v hyperfine >/dev/null || { echo "bench: needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
lab="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lab.sh"
set -a; . "$("$lab" env)"; set +a

url="https://a.test:$LAB_HTTPS_PORT/"
pin="a.test:$LAB_HTTPS_PORT:$LAB_IP"
common=(-s -o /dev/null --cacert "$LAB_CA")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() {  # run NAME CMD...: hyperfine one command, print "NAME mean±sd ms"
    local name=$1; shift
    hyperfine -N -w 5 -r "${RUNS:-40}" --export-json "$out/$name.json" "$(printf '%q ' "$@")" >/dev/null 2>&1
    python3 - "$out/$name.json" "$name" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f"{sys.argv[2]:<28} {r['mean']*1000:7.2f} ms ± {r['stddev']*1000:5.2f}")
PY
}

rss() {  # rss CMD...: peak resident set size in KiB
    /usr/bin/env time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1
}

echo "== startup (--version)"
run curl-version curl --version
run ipcurl-version "$bin" --version
echo "== one HTTPS request, address pinned (--resolve)"
run curl-resolve curl "${common[@]}" --resolve "$pin" "$url"
run ipcurl-resolve "$bin" "${common[@]}" --resolve "$pin" "$url"
echo "== one HTTPS request resolved over DoH (A+AAAA, HTTP/2) then IP-direct"
run curl-doh curl "${common[@]}" --doh-url "$LAB_DOH_URL" "$url"
run ipcurl-doh "$bin" "${common[@]}" --doh "$LAB_DOH_URL" "$url"
echo "== resolve only"
run ipcurl-resolve-cmd "$bin" resolve --cacert "$LAB_CA" --doh "$LAB_DOH_URL" a.test b.test
echo "== peak RSS (KiB)"
if /usr/bin/env time -f '%M' true >/dev/null 2>&1; then
    echo "curl   --doh-url request  $(rss curl "${common[@]}" --doh-url "$LAB_DOH_URL" "$url")"
    echo "ipcurl --doh request      $(rss "$bin" "${common[@]}" --doh "$LAB_DOH_URL" "$url")"
else
    echo "(GNU time not installed: apt-get install time)"
fi
