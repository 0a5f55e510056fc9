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
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Rows that measure a provider skip the answer cache; the cache rows below use this directory.
export IPCURL_CACHE_DIR="$out/cache"
common=(-s -o /dev/null --cacert "$LAB_CA")
ask=("${common[@]}" --no-dns-cache)

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

instructions() {  # instructions CMD...: callgrind's instruction count (deterministic, unlike wall time)
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

echo "== instructions (callgrind): start-up and a warm pinned request, ipcurl against curl"
if command -v valgrind >/dev/null; then
    python3 - "$(instructions curl --version)" "$(instructions "$bin" --version)" \
        "$(instructions curl "${common[@]}" --resolve "$pin" "$url")" \
        "$(instructions "$bin" "${common[@]}" --resolve "$pin" "$url")" <<'PY'
import sys
cv, iv, cr, ir = (int(x) for x in sys.argv[1:])
print(f"--version                    curl {cv/1e6:6.2f} M   ipcurl {iv/1e6:6.2f} M   {iv/cv:.2f}x")
print(f"pinned request (--resolve)   curl {cr/1e6:6.2f} M   ipcurl {ir/1e6:6.2f} M   {ir/cr:.2f}x")
PY
    echo "peak RSS, pinned request     curl $(rss curl "${common[@]}" --resolve "$pin" "$url") KiB   ipcurl $(rss "$bin" "${common[@]}" --resolve "$pin" "$url") KiB"
else
    echo "(valgrind not installed: apt-get install valgrind)"
fi
echo "== startup (--version)"
run curl-version curl --version
run ipcurl-version "$bin" --version
echo "== one HTTPS request, address pinned (--resolve)"
run curl-resolve curl "${common[@]}" --resolve "$pin" "$url"
run ipcurl-resolve "$bin" "${common[@]}" --resolve "$pin" "$url"
echo "== one HTTPS request resolved over DoH (A+AAAA, HTTP/2) then IP-direct"
run curl-doh curl "${common[@]}" --doh-url "$LAB_DOH_URL" "$url"
run ipcurl-doh "$bin" "${ask[@]}" --doh "$LAB_DOH_URL" "$url"
fixture="http://$LAB_HTTPDNS_IP:$LAB_HTTPDNS_HTTP_PORT"
echo "== one HTTPS request resolved through a vendor HTTPDNS API (python fixture on loopback)"
run ipcurl-aliyun "$bin" "${ask[@]}" --aliyun "$LAB_ALIYUN_ACCOUNT" --httpdns-server "$fixture" "$url"
run ipcurl-aliyun-signed "$bin" "${ask[@]}" --aliyun "$LAB_ALIYUN_SIGNED_ACCOUNT" \
    --httpdns-secret-file "$LAB_ALIYUN_SECRET_FILE" --httpdns-server "$fixture" "$url"
run ipcurl-aliyun-https "$bin" "${ask[@]}" --aliyun "$LAB_ALIYUN_ACCOUNT" \
    --httpdns-server "https://$LAB_HTTPDNS_IP:$LAB_HTTPDNS_ALIYUN_TLS_PORT" "$url"
run ipcurl-dnspod-aes "$bin" "${ask[@]}" --dnspod-id "$LAB_DNSPOD_ID" --dnspod-key-file "$LAB_DNSPOD_AES_KEY_FILE" \
    --httpdns-server "$fixture" "$url"
run ipcurl-dnspod-des "$bin" "${ask[@]}" --dnspod-id "$LAB_DNSPOD_ID" --dnspod-alg des \
    --dnspod-key-file "$LAB_DNSPOD_DES_KEY_FILE" --httpdns-server "$fixture" "$url"
run ipcurl-doh-json "$bin" "${ask[@]}" --doh-json "$fixture/resolve" "$url"
printf '#!/bin/sh\necho "$1:$2:%s"\n' "$LAB_IP" >"$out/resolver.sh"
chmod 755 "$out/resolver.sh"
run ipcurl-resolver-cmd "$bin" "${ask[@]}" --resolver-cmd "$out/resolver.sh" "$url"
echo "== resolve only"
run ipcurl-resolve-cmd "$bin" resolve --no-dns-cache --cacert "$LAB_CA" --doh "$LAB_DOH_URL" a.test b.test
run ipcurl-resolve-aliyun5 "$bin" resolve --no-dns-cache --aliyun "$LAB_ALIYUN_ACCOUNT" --httpdns-server "$fixture" \
    a.test b.test v6.test cname.test multi.test
echo "== resolution policy"
"$bin" "${common[@]}" --aliyun "$LAB_ALIYUN_ACCOUNT" --httpdns-server "$fixture" "$url"   # warm the cache
run ipcurl-aliyun-cache-hit "$bin" "${common[@]}" --aliyun "$LAB_ALIYUN_ACCOUNT" --httpdns-server "$fixture" "$url"
run ipcurl-doh-cache-hit "$bin" "${common[@]}" --doh "$LAB_DOH_URL" "$url"
run ipcurl-fallback-503 "$bin" "${ask[@]}" --aliyun 1 --httpdns-server "http://$LAB_HTTPDNS_IP:$LAB_HTTPDNS_FAIL_PORT" \
    "https://localhost:$LAB_HTTPS_PORT/"
run ipcurl-fallback-empty "$bin" "${ask[@]}" --aliyun "$LAB_ALIYUN_ACCOUNT" --httpdns-server "$fixture" \
    "https://localhost:$LAB_HTTPS_PORT/"
run curl-localhost curl "${common[@]}" "https://localhost:$LAB_HTTPS_PORT/"
# A blackholed first server: it accepts TCP (the kernel backlog) and never answers; the lab DoH server is second.
hole_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.4", 0)); print(s.getsockname()[1])')
python3 -c 'import socket, sys, time; s=socket.socket(); s.bind(("127.0.0.4", int(sys.argv[1]))); s.listen(64); time.sleep(600)' \
    "$hole_port" &
hole=$!
trap 'kill $hole 2>/dev/null; rm -rf "$out"' EXIT
sleep 0.3
run ipcurl-hedged-blackhole "$bin" "${ask[@]}" --dns-timeout 5 --doh "https://127.0.0.4:$hole_port/dns-query" \
    --doh "$LAB_DOH_URL" "$url"
run ipcurl-tls-failover "$bin" "${ask[@]}" --aliyun "$LAB_ALIYUN_ACCOUNT" --httpdns-server "$fixture" \
    "https://failover.test:$LAB_HTTPS_PORT/"
echo "== transfers (a.test, address pinned)"
api="https://a.test:$LAB_HTTPS_PORT/api"
big="https://a.test:$LAB_HTTPS_PORT/files/big.bin"
head -c $((256 << 20)) /dev/urandom >"$out/256m.bin"
run curl-download-64m curl "${common[@]}" --resolve "$pin" "$big"
run ipcurl-download-64m "$bin" "${common[@]}" --resolve "$pin" "$big"
run curl-upload-256m curl "${common[@]}" --resolve "$pin" -T "$out/256m.bin" "$api/echo"
run ipcurl-upload-256m "$bin" "${common[@]}" --resolve "$pin" -T "$out/256m.bin" "$api/echo"
hop="https://a.test:$LAB_HTTPS_PORT/api/redirect?code=302&to=https%3A%2F%2Fb.test%3A$LAB_HTTPS_PORT%2Fapi%2Fecho"
run curl-redirect-2-hosts curl "${common[@]}" -L --resolve "$pin" --resolve "b.test:$LAB_HTTPS_PORT:$LAB_IP" "$hop"
run ipcurl-redirect-2-hosts "$bin" "${common[@]}" -L --resolve "$pin" --resolve "b.test:$LAB_HTTPS_PORT:$LAB_IP" "$hop"
run ipcurl-redirect-aliyun "$bin" "${ask[@]}" -L --aliyun "$LAB_ALIYUN_ACCOUNT" --httpdns-server "$fixture" "$hop"
echo "== ipcurl check: parallel probes (a.test through the lab DoH server, one lookup shared by every probe)"
if "$bin" check --help >/dev/null 2>&1; then
    urls() { for ((n = 1; n <= $1; n++)); do printf 'https://a.test:%s/?n=%d\n' "$LAB_HTTPS_PORT" "$n"; done; }
    urls 100 >"$out/urls100"
    mapfile -t urls100 <"$out/urls100"
    probe=("$bin" check --no-dns-cache --cacert "$LAB_CA" --doh "$LAB_DOH_URL" -4 --format json -o /dev/null)
    RUNS=${CHECK_RUNS:-10} run curl-xargs-P8-100 sh -c 'xargs -P8 -n1 curl -s -o /dev/null --cacert "$1" --resolve "$2" <"$3"' _ \
        "$LAB_CA" "$pin" "$out/urls100"
    RUNS=${CHECK_RUNS:-10} run ipcurl-check-P8-100 "${probe[@]}" --parallel 8 "${urls100[@]}"
    RUNS=${CHECK_RUNS:-10} run ipcurl-check-P16-100 "${probe[@]}" "${urls100[@]}"
    python3 - "$out" <<'PY'
import json, sys
mean = lambda n: json.load(open(f"{sys.argv[1]}/{n}.json"))["results"][0]["mean"]
base = mean("curl-xargs-P8-100")
for n in ("ipcurl-check-P8-100", "ipcurl-check-P16-100"):
    print(f"{n:<28} {mean(n) / base:.2f}x the wall time of xargs -P8 -n1 curl --resolve")
PY
    for count in 10 100 1000; do
        urls "$count" >"$out/urls$count"
        mapfile -t many <"$out/urls$count"
        RUNS=${CHECK_RUNS:-10} run "ipcurl-check-$count" "${probe[@]}" "${many[@]}"
        if /usr/bin/env time -f '%M' true >/dev/null 2>&1; then
            printf '%-28s peak RSS %s KiB\n' "ipcurl-check-$count" "$(rss "${probe[@]}" "${many[@]}")"
        fi
    done
else
    echo "(this ipcurl has no check subcommand)"
fi
echo "== peak RSS (KiB)"
if /usr/bin/env time -f '%M' true >/dev/null 2>&1; then
    echo "curl   --doh-url request  $(rss curl "${common[@]}" --doh-url "$LAB_DOH_URL" "$url")"
    echo "ipcurl --doh request      $(rss "$bin" "${ask[@]}" --doh "$LAB_DOH_URL" "$url")"
    echo "ipcurl cache-hit request  $(rss "$bin" "${common[@]}" --doh "$LAB_DOH_URL" "$url")"
    echo "ipcurl --dnspod-id (AES)  $(rss "$bin" "${ask[@]}" --dnspod-id "$LAB_DNSPOD_ID" \
        --dnspod-key-file "$LAB_DNSPOD_AES_KEY_FILE" --httpdns-server "$fixture" "$url")"
    echo "curl   64 MiB download    $(rss curl "${common[@]}" --resolve "$pin" "$big")"
    echo "ipcurl 64 MiB download    $(rss "$bin" "${common[@]}" --resolve "$pin" "$big")"
    for body in "-T $out/256m.bin" "--data-binary @$out/256m.bin" "-F f=@$out/256m.bin"; do
        # shellcheck disable=SC2086
        printf 'curl   256 MiB %-11s %s\n' "${body%% *}" "$(rss curl "${common[@]}" --resolve "$pin" $body "$api/echo")"
        # shellcheck disable=SC2086
        printf 'ipcurl 256 MiB %-11s %s\n' "${body%% *}" "$(rss "$bin" "${common[@]}" --resolve "$pin" $body "$api/echo")"
    done
    echo "ipcurl 256 MiB -T - (pipe) $(rss sh -c 'cat "$1" | "$2" -s -o /dev/null --cacert "$3" --resolve "$4" -T - "$5"' _ \
        "$out/256m.bin" "$bin" "$LAB_CA" "$pin" "$api/echo")"
else
    echo "(GNU time not installed: apt-get install time)"
fi
