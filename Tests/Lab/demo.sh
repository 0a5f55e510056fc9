#!/usr/bin/env bash
# make demo: one visible IP-direct request against the lab (offline). Usage: demo.sh PATH/TO/ipcurl
set -euo pipefail
bin=${1:?usage: demo.sh PATH/TO/ipcurl}
lab="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lab.sh"
set -a; . "$("$lab" env)"; set +a

url="https://a.test:$LAB_HTTPS_PORT/"
trace=$(mktemp)
cache=$(mktemp -d)
trap 'rm -rf "$trace" "$cache"' EXIT
export IPCURL_CACHE_DIR=$cache   # the demo starts with an empty answer cache and leaves none behind
echo "\$ ipcurl resolve --doh $LAB_DOH_URL --cacert \$LAB_CA --port $LAB_HTTPS_PORT a.test b.test"
"$bin" resolve --doh "$LAB_DOH_URL" --cacert "$LAB_CA" --port "$LAB_HTTPS_PORT" a.test b.test
echo
echo "\$ ipcurl -v --doh $LAB_DOH_URL --cacert \$LAB_CA $url   (trace trimmed to the interesting lines)"
body=$("$bin" -v --doh "$LAB_DOH_URL" --cacert "$LAB_CA" "$url" 2>"$trace")
grep -E '^\* (HTTPDNS|RESOLVE|Added|Connected|ALPN: server| +subject:| +issuer:| +subjectAltName| +SSL certificate verify)|^> (GET|Host)|^< HTTP' "$trace"
echo "$body"
echo
echo "The connection went to $LAB_IP (from DoH), yet SNI, Host and the certificate check all used a.test."
echo "The naive way (IP in the URL plus a Host header) fails verification:"
echo "\$ curl --cacert \$LAB_CA -H 'Host: a.test' https://$LAB_IP:$LAB_HTTPS_PORT/"
status=0
curl -sS --cacert "$LAB_CA" -H 'Host: a.test' "https://$LAB_IP:$LAB_HTTPS_PORT/" 2>"$trace" || status=$?
head -n 1 "$trace"
echo "(exit $status)"
echo
fixture="http://$LAB_HTTPDNS_IP:$LAB_HTTPDNS_HTTP_PORT"
echo "Vendor HTTPDNS (the lab's fixture speaks Alibaba's and DNSPod's APIs); secrets come from files:"
echo "\$ ipcurl resolve -v --aliyun $LAB_ALIYUN_SIGNED_ACCOUNT --httpdns-secret-file \$LAB_ALIYUN_SECRET_FILE --httpdns-server $fixture a.test b.test"
"$bin" resolve -v --aliyun "$LAB_ALIYUN_SIGNED_ACCOUNT" --httpdns-secret-file "$LAB_ALIYUN_SECRET_FILE" \
    --httpdns-server "$fixture" a.test b.test
echo "\$ ipcurl -sS --dnspod-id $LAB_DNSPOD_ID --dnspod-key-file \$LAB_DNSPOD_AES_KEY_FILE --httpdns-server $fixture --cacert \$LAB_CA $url"
"$bin" -sS --dnspod-id "$LAB_DNSPOD_ID" --dnspod-key-file "$LAB_DNSPOD_AES_KEY_FILE" --httpdns-server "$fixture" \
    --cacert "$LAB_CA" "$url"
echo "An answer that would inject a resolve entry is refused:"
echo "\$ ipcurl --aliyun $LAB_ALIYUN_ACCOUNT --httpdns-server $fixture https://bad-comma.test/"
status=0
"$bin" --aliyun "$LAB_ALIYUN_ACCOUNT" --httpdns-server "$fixture" https://bad-comma.test/ || status=$?
echo "(exit $status)"
echo
echo "Resolution policy. The answer above is cached for its TTL, so a second process asks nobody:"
echo "\$ ipcurl resolve -v --aliyun $LAB_ALIYUN_SIGNED_ACCOUNT --httpdns-secret-file \$LAB_ALIYUN_SECRET_FILE --httpdns-server $fixture a.test"
"$bin" resolve -v --aliyun "$LAB_ALIYUN_SIGNED_ACCOUNT" --httpdns-secret-file "$LAB_ALIYUN_SECRET_FILE" \
    --httpdns-server "$fixture" a.test
echo "failover.test answers 127.0.0.9 (refuses), 127.0.0.3 (wrong certificate), 127.0.0.2; the request still lands:"
echo "\$ ipcurl --aliyun $LAB_ALIYUN_ACCOUNT --httpdns-server $fixture --cacert \$LAB_CA -w '%{remote_ip}\\n' https://failover.test:$LAB_HTTPS_PORT/"
"$bin" --aliyun "$LAB_ALIYUN_ACCOUNT" --httpdns-server "$fixture" --cacert "$LAB_CA" -w '%{remote_ip}\n' \
    "https://failover.test:$LAB_HTTPS_PORT/"
failing="http://$LAB_HTTPDNS_IP:$LAB_HTTPDNS_FAIL_PORT"
echo "When every HTTPDNS server fails, the system resolver is asked, and the certificate is still checked:"
echo "\$ ipcurl --aliyun 1 --httpdns-server $failing --cacert \$LAB_CA -w '%{dns_source}\\n' https://localhost:$LAB_HTTPS_PORT/"
"$bin" --aliyun 1 --httpdns-server "$failing" --cacert "$LAB_CA" -w '%{dns_source}\n' "https://localhost:$LAB_HTTPS_PORT/"
echo
hop="https://a.test:$LAB_HTTPS_PORT/api/redirect?code=307&to=https%3A%2F%2Fcdn.any.test%3A$LAB_HTTPS_PORT%2Fapi%2Fecho"
echo "Transfers. A 307 to a host only HTTPDNS knows: the POST body follows, the credentials do not:"
echo "\$ ipcurl -L -u alice:secret -d hello=world --aliyun $LAB_ALIYUN_ACCOUNT --httpdns-server $fixture --cacert \$LAB_CA -w '%{num_redirects} %{url_effective}\\n' '$hop'"
"$bin" -L -u alice:secret -d hello=world --aliyun "$LAB_ALIYUN_ACCOUNT" --httpdns-server "$fixture" --cacert "$LAB_CA" \
    -w '\n%{num_redirects} %{url_effective}\n' "$hop"
