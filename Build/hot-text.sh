#!/bin/bash
# Writes Build/hot-text.order: the functions of the release binary that a pinned download to a file, a -T upload,
# a GET to stdout, GETs of three URLs through the DoH answer cache and --version execute (callgrind's list of executed functions, one symbol a line). The release
# link (the Makefile's RELEASE flags) packs them together at the front of .text. Needs the lab (Tests/Lab/lab.sh up) and valgrind.
# usage: Build/hot-text.sh [path/to/release/ipcurl]
# SwiftPM does not track the order file: delete the release binary (.build/x86_64-unknown-linux-gnu/release/ipcurl)
# so the next build relinks.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/ipcurl}
set -a; . "$(Tests/Lab/lab.sh env)"; set +a
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
head -c 1048576 /dev/zero >"$work/upload.bin"
pin=(-s --cacert "$LAB_CA" --resolve "a.test:$LAB_HTTPS_PORT:$LAB_IP")
url=https://a.test:$LAB_HTTPS_PORT
run() { valgrind -q --tool=callgrind --demangle=no --callgrind-out-file="$work/cg.$1" "$bin" "${@:2}" >/dev/null; }
run version --version
run download "${pin[@]}" -o "$work/out" "$url/files/big.bin"
run upload "${pin[@]}" -o /dev/null -T "$work/upload.bin" "$url/api/echo"
run stdout "${pin[@]}" "$url/"
export IPCURL_CACHE_DIR="$work/cache"
"$bin" -s -o /dev/null --cacert "$LAB_CA" --doh "$LAB_DOH_URL" "$url/"  # fills the answer cache
run warm -s --cacert "$LAB_CA" --doh "$LAB_DOH_URL" "$url/" "$url/?n=2" "$url/?n=3"
# Executed names, kept only where the binary defines them as functions.
sed -n -E 's/^c?fn=\([0-9]+\) (.+)$/\1/p' "$work"/cg.* | sort -u >"$work/executed"
nm --defined-only "$bin" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u >"$work/defined"
comm -12 "$work/executed" "$work/defined" >Build/hot-text.order
wc -l <Build/hot-text.order
