#!/usr/bin/env bash
# make demo: one visible IP-direct request against the lab (offline). Usage: demo.sh PATH/TO/ipcurl
set -euo pipefail
bin=${1:?usage: demo.sh PATH/TO/ipcurl}
lab="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lab.sh"
set -a; . "$("$lab" env)"; set +a

url="https://a.test:$LAB_HTTPS_PORT/"
echo "\$ ipcurl resolve --doh $LAB_DOH_URL --cacert \$LAB_CA --port $LAB_HTTPS_PORT a.test b.test"
"$bin" resolve --doh "$LAB_DOH_URL" --cacert "$LAB_CA" --port "$LAB_HTTPS_PORT" a.test b.test
echo
echo "\$ ipcurl -v --doh $LAB_DOH_URL --cacert \$LAB_CA $url   (trace trimmed to the interesting lines)"
"$bin" -v --doh "$LAB_DOH_URL" --cacert "$LAB_CA" "$url" 2> >(grep -E \
    '^\* (HTTPDNS|RESOLVE|Added|Connected|  subject|  issuer|SSL certificate verify|ALPN: server)|^> (GET|Host)|^< HTTP' >&2)
sleep 0.2
echo
echo "The connection went to $LAB_IP (from DoH), yet SNI, Host and the certificate check all used a.test."
echo "The naive way (IP in the URL plus a Host header) fails verification:"
echo "\$ curl --cacert \$LAB_CA -H 'Host: a.test' https://$LAB_IP:$LAB_HTTPS_PORT/"
curl -sS --cacert "$LAB_CA" -H 'Host: a.test' "https://$LAB_IP:$LAB_HTTPS_PORT/" || echo "(exit $?)"
