#!/usr/bin/env bash
# ipcurl real-server test lab: nginx (HTTPS vhosts + plain HTTP), unbound
# (DNS-over-HTTPS, and plain DNS over TCP for kresd), kresd (knot-resolver: a
# second DNS-over-HTTPS server, forwarding to unbound), httpdns_fixture.py
# (fake vendor HTTPDNS APIs) and echo_backend.py (HTTP/1.1 backend behind
# nginx's /api/), forward_proxy.py (HTTP and HTTPS forward proxies) and socks_proxy.py
# (SOCKS4/4a/5) on loopback addresses only, all state in one directory.
#
#   lab.sh up       start (idempotent), write $STATE/lab.env
#   lab.sh down     stop (idempotent), remove pid files and lab.env
#   lab.sh status   exit 0 if nginx, unbound, kresd, the fixture and the echo backend are all running
#   lab.sh env      print the path of lab.env (fails if the lab is not up)
#
# State dir: ${IPCURL_LAB_DIR:-<repo root>/.lab}
# Port overrides (else picked free): LAB_HTTPS_PORT, LAB_HTTP_PORT, LAB_DOH_PORT,
#   LAB_DNS_PORT, LAB_KRESD_PORT, LAB_HTTPDNS_HTTP_PORT, LAB_HTTPDNS_ALIYUN_TLS_PORT,
#   LAB_HTTPDNS_TLS_PORT, LAB_HTTPDNS_FAIL_PORT, LAB_HTTPDNS_ALIYUN_V2_TLS_PORT, LAB_ECHO_PORT.
set -euo pipefail

# Debian installs nginx, unbound and kresd in /usr/sbin, which a user's PATH may lack.
PATH="$PATH:/usr/sbin:/sbin"

LAB_SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$LAB_SRC/../.." && pwd)"
STATE="${IPCURL_LAB_DIR:-$REPO_ROOT/.lab}"
CERTS="$STATE/certs"
ENV_FILE="$STATE/lab.env"

LAB_IP=127.0.0.2        # a.test b.test cname.test xn--bcher-kva.test failover.test; default vhost (nocert.test, multi.test)
LAB_WRONG_IP=127.0.0.3  # serves other.test's certificate only
LAB_IP6=::1             # a.test cname.test v6.test xn--bcher-kva.test; default vhost
DOH_IP=127.0.0.1        # unbound: DoH on LAB_DOH_PORT, plain DNS (TCP) on LAB_DNS_PORT; kresd: DoH on LAB_KRESD_PORT
HTTPDNS_IP=127.0.0.5    # httpdns_fixture.py: every listener but the service ones
HTTPDNS_SERVICE_IP=127.0.0.10  # httpdns_fixture.py: the service address Alibaba's /ss names (HTTP and v2 TLS ports)
ALIYUN_TLS_NAME=resolvers-cn.httpdns.aliyuncs.com  # the only name in that listener's cert (v1)
ALIYUN_V2_TLS_NAME=resolvers.httpdns.aliyuncs.com  # the only name in the v2 and service listeners' cert
SECRETS="$STATE/secrets"
FIXTURE=httpdns-fixture # pid file name; the process itself is python3
ECHO_IP=127.0.0.6       # echo_backend.py (nginx proxies /api/ here)
ECHO=echo-backend       # pid file name; the process itself is python3
PROXY_IP=127.0.0.7      # forward_proxy.py: an open forward proxy, one demanding Basic or Digest credentials, one over TLS
PROXY=forward-proxy     # pid file name; the process itself is python3
SOCKS_IP=127.0.0.8      # socks_proxy.py: an open SOCKS4/4a/5 proxy, and one demanding credentials
SOCKS=socks-proxy       # pid file name; the process itself is python3
BLACKBOX=blackbox-exporter  # pid file names; the processes are prometheus-blackbox-exporter and
PUSHGATEWAY=pushgateway     # prometheus-pushgateway, on 127.0.0.1 (consumers of ipcurl check's reports)
WWW="$STATE/www"        # nginx /files/: big.bin text.txt empty.txt (kept across down/up)
BIG_SIZE=67108864       # big.bin: 64 MiB

log() { printf 'lab: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# --------------------------------------------------------------- processes

# alive PID: the process exists and is not a zombie (our daemons are
# re-parented to PID 1, which may reap them late).
alive() {
    local state
    kill -0 "$1" 2>/dev/null || return 1
    state=$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 1
    [[ -n $state && $state != Z ]]
}

# is_ours PID NAME: the process really is NAME (guards against stale pid files
# and pid reuse). nginx/unbound/kresd: /proc/PID/comm is NAME. The fixture and the
# echo backend run as python3, so the command line must name the script and
# this lab's pid file.
is_ours() {
    local pid=$1 name=$2 comm cmdline script
    if [[ $name == "$BLACKBOX" || $name == "$PUSHGATEWAY" ]]; then
        # Started with IPCURL_LAB_STATE naming this lab's state dir in their environment.
        cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)
        [[ $cmdline == *"prometheus-$name"* ]] &&
            tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qxF "IPCURL_LAB_STATE=$STATE"
    elif [[ $name == "$FIXTURE" || $name == "$ECHO" || $name == "$PROXY" || $name == "$SOCKS" ]]; then
        script=httpdns_fixture.py
        [[ $name == "$ECHO" ]] && script=echo_backend.py
        [[ $name == "$PROXY" ]] && script=forward_proxy.py
        [[ $name == "$SOCKS" ]] && script=socks_proxy.py
        cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)
        [[ $cmdline == *"$script"* && $cmdline == *"--pidfile $STATE/$name.pid"* ]]
    else
        comm=$(cat "/proc/$pid/comm" 2>/dev/null || true)
        [[ $comm == "$name" ]]
    fi
}

# pid_of NAME -> prints the pid from $STATE/NAME.pid if that process is alive
# and really is NAME.
pid_of() {
    local name=$1 pidfile="$STATE/$1.pid" pid
    [[ -s $pidfile ]] || return 1
    pid=$(tr -dc '0-9' <"$pidfile")
    [[ -n $pid ]] && alive "$pid" || return 1
    is_ours "$pid" "$name" || return 1
    printf '%s\n' "$pid"
}

running() {
    pid_of nginx >/dev/null && pid_of unbound >/dev/null && pid_of kresd >/dev/null &&
        pid_of "$FIXTURE" >/dev/null && pid_of "$ECHO" >/dev/null && pid_of "$PROXY" >/dev/null &&
        pid_of "$SOCKS" >/dev/null && pid_of "$BLACKBOX" >/dev/null && pid_of "$PUSHGATEWAY" >/dev/null
}

# stop NAME: TERM, wait up to 5 s, then KILL (the process and its children).
stop() {
    local name=$1 pid i kids
    if pid=$(pid_of "$name"); then
        kids=$(pgrep -P "$pid" || true)   # nginx workers
        kill -TERM "$pid" 2>/dev/null || true
        for ((i = 0; i < 50; i++)); do
            alive "$pid" || break
            sleep 0.1
        done
        if alive "$pid"; then
            log "$name ($pid) ignored TERM, sending KILL"
            # shellcheck disable=SC2086
            kill -KILL "$pid" $kids 2>/dev/null || true
        fi
    fi
    rm -f "$STATE/$name.pid"
}

# ------------------------------------------------------------ certificates

# leaf NAME SAN: key + cert signed by the lab CA, valid for TLS servers.
leaf() {
    local name=$1 san=$2
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
        -keyout "$CERTS/$name.key" -out "$CERTS/$name.csr" \
        -subj "/O=ipcurl lab/CN=$name" 2>/dev/null
    cat >"$CERTS/$name.ext" <<EOF
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = $san
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
EOF
    openssl x509 -req -in "$CERTS/$name.csr" -days 30 -sha256 \
        -CA "$CERTS/ca.pem" -CAkey "$CERTS/ca.key" -set_serial "0x$(openssl rand -hex 16)" \
        -extfile "$CERTS/$name.ext" -out "$CERTS/$name.pem" 2>/dev/null
    rm -f "$CERTS/$name.csr" "$CERTS/$name.ext"
}

# Leaf name -> subjectAltName.
declare -A LEAVES=(
    [a.test]="DNS:a.test"
    [b.test]="DNS:b.test"
    [cname.test]="DNS:cname.test"
    [v6.test]="DNS:v6.test"
    [other.test]="DNS:other.test"
    [default.invalid]="DNS:default.invalid"
    [doh]="IP:127.0.0.1, DNS:doh.test"
    [$ALIYUN_TLS_NAME]="DNS:$ALIYUN_TLS_NAME"
    [$ALIYUN_V2_TLS_NAME]="DNS:$ALIYUN_V2_TLS_NAME"
    [httpdns.test]="IP:$HTTPDNS_IP, DNS:httpdns.test"
    [proxy.test]="IP:$PROXY_IP, DNS:proxy.test"
    [failover.test]="DNS:failover.test"
    [mtls.test]="DNS:mtls.test"
    [localhost]="DNS:localhost"
    [mixed.test]="DNS:mixed.test"
    [xn--bcher-kva.test]="DNS:xn--bcher-kva.test"
    [wildcard.any.test]="DNS:*.any.test"
)

# cert_ok NAME: key + cert exist and the cert is valid for at least a day.
cert_ok() {
    [[ -s $CERTS/$1.pem && -s $CERTS/$1.key ]] &&
        openssl x509 -in "$CERTS/$1.pem" -noout -checkend 86400 >/dev/null 2>&1
}

# A new CA (missing or expiring) re-issues every leaf; otherwise only the
# leaves that are missing or expiring are (re)issued.
make_certs() {
    local n
    if ! cert_ok ca; then
        log "generating the lab CA and certificates in $CERTS"
        rm -rf "$CERTS"
        mkdir -p "$CERTS"
        openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
            -keyout "$CERTS/ca.key" -out "$CERTS/ca.pem" -days 30 -sha256 \
            -subj "/O=ipcurl lab/CN=ipcurl Lab CA" \
            -addext "basicConstraints=critical,CA:TRUE" \
            -addext "keyUsage=critical,keyCertSign,cRLSign" \
            -addext "subjectKeyIdentifier=hash" 2>/dev/null
    fi
    for n in "${!LEAVES[@]}"; do
        cert_ok "$n" || leaf "$n" "${LEAVES[$n]}"
    done
    cert_ok client && [[ -s $CERTS/client.p12 ]] || client_cert
    [[ -s $CERTS/a.test.pin ]] || public_key_pin a.test
    [[ -s $CERTS/proxy.test.pin ]] || public_key_pin proxy.test
}

# client_cert: the client certificate mtls.test demands (CN=lab client, signed by the lab CA) as PEM
# (client.pem + client.key), DER (client.der + client-key.der), the key under the passphrase in
# secrets/client.pass (client-enc.key), and a PKCS#12 file under the same passphrase (client.p12).
client_cert() {
    make_secrets
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
        -keyout "$CERTS/client.key" -out "$CERTS/client.csr" -subj "/O=ipcurl lab/CN=lab client" 2>/dev/null
    printf '%s\n' "basicConstraints = critical, CA:FALSE" "keyUsage = critical, digitalSignature" \
        "extendedKeyUsage = clientAuth" >"$CERTS/client.ext"
    openssl x509 -req -in "$CERTS/client.csr" -days 30 -sha256 -CA "$CERTS/ca.pem" -CAkey "$CERTS/ca.key" \
        -set_serial "0x$(openssl rand -hex 16)" -extfile "$CERTS/client.ext" -out "$CERTS/client.pem" 2>/dev/null
    rm -f "$CERTS/client.csr" "$CERTS/client.ext"
    openssl x509 -in "$CERTS/client.pem" -outform DER -out "$CERTS/client.der"
    openssl pkey -in "$CERTS/client.key" -outform DER -out "$CERTS/client-key.der"
    openssl pkey -in "$CERTS/client.key" -aes-256-cbc -passout "file:$SECRETS/client.pass" -out "$CERTS/client-enc.key"
    openssl pkcs12 -export -in "$CERTS/client.pem" -inkey "$CERTS/client.key" -name "lab client" \
        -passout "file:$SECRETS/client.pass" -out "$CERTS/client.p12"
}

# public_key_pin NAME: NAME's public key as PEM (NAME.pub.pem) and as curl's sha256//BASE64 pin (NAME.pin).
public_key_pin() {
    openssl x509 -in "$CERTS/$1.pem" -noout -pubkey >"$CERTS/$1.pub.pem"
    printf 'sha256//%s\n' "$(openssl pkey -pubin -in "$CERTS/$1.pub.pem" -outform DER |
        openssl dgst -sha256 -binary | base64)" >"$CERTS/$1.pin"
}

# ----------------------------------------------------------------- secrets

# secret FILE PYTHON-EXPR: write a fresh random value (no trailing newline,
# mode 600) unless FILE already holds one. Kept across down/up.
secret() {
    [[ -s $SECRETS/$1 ]] && return 0
    (umask 077 && python3 -c "import secrets, string; print($2, end='')" >"$SECRETS/$1.tmp")
    mv "$SECRETS/$1.tmp" "$SECRETS/$1"
}

make_secrets() {
    local alnum="''.join(secrets.choice(string.ascii_letters + string.digits) for _ in range(%d))"
    mkdir -p "$SECRETS"
    chmod 700 "$SECRETS"
    # shellcheck disable=SC2059
    {
        secret aliyun.secret  "secrets.token_hex(16)"
        secret aliyun-aes.key "secrets.token_hex(16)"
        secret dnspod-aes.key "$(printf "$alnum" 16)"
        secret dnspod-des.key "$(printf "$alnum" 8)"
        secret dnspod.token   "secrets.randbelow(900000000) + 100000000"
        secret client.pass    "$(printf "$alnum" 20)"
        secret proxy.user     "'labuser:' + $(printf "$alnum" 16)"
    }
}

# ------------------------------------------------------------------- ports

# pick_ports N [TAKEN...]: prints N distinct TCP ports that are free on every
# lab address and differ from the TAKEN ports (the env overrides).
pick_ports() {
    python3 - "$@" <<'EOF'
import socket, sys
COUNT = int(sys.argv[1])
TAKEN = {int(p) for p in sys.argv[2:] if p}
ADDRS = [(socket.AF_INET, "127.0.0.1"), (socket.AF_INET, "127.0.0.2"), (socket.AF_INET, "127.0.0.7"),
         (socket.AF_INET, "127.0.0.8"),
         (socket.AF_INET, "127.0.0.3"), (socket.AF_INET, "127.0.0.5"),
         (socket.AF_INET, "127.0.0.6"), (socket.AF_INET, "127.0.0.10"), (socket.AF_INET6, "::1")]
def free_everywhere(port):
    for fam, addr in ADDRS:
        s = socket.socket(fam, socket.SOCK_STREAM)
        try:
            s.bind((addr, port))
        except OSError:
            return False
        finally:
            s.close()
    return True
ports = []
while len(ports) < COUNT:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    if port not in ports and port not in TAKEN and free_everywhere(port):
        ports.append(port)
print(*ports)
EOF
}

# ---------------------------------------------------------------- configs

# render TEMPLATE OUT KEY=VALUE...: replace @KEY@ placeholders.
render() {
    local tpl out=$2 kv
    tpl=$(<"$1")
    shift 2
    for kv in "$@"; do
        tpl=${tpl//"@${kv%%=*}@"/"${kv#*=}"}
    done
    printf '%s\n' "$tpl" >"$out"
}

# ------------------------------------------------------------------ probes

probe_nginx() {
    curl -fsS --max-time 2 --cacert "$CERTS/ca.pem" \
        --resolve "a.test:$LAB_HTTPS_PORT:$LAB_IP" \
        "https://a.test:$LAB_HTTPS_PORT/" -o /dev/null 2>/dev/null
}

# probe_doh [PORT]: raw RFC 8484 POST to unbound (or the DoH server on PORT):
# query "doh.test IN A". Through kresd this also reaches unbound's plain-DNS
# listener (until kresd has the answer cached).
probe_doh() {
    printf '\x00\x00\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x03doh\x04test\x00\x00\x01\x00\x01' |
        curl -fsS --max-time 2 --cacert "$CERTS/ca.pem" \
            -H 'content-type: application/dns-message' --data-binary @- \
            "https://$DOH_IP:${1:-$LAB_DOH_PORT}/dns-query" -o /dev/null 2>/dev/null
}

probe_kresd() { probe_doh "$LAB_KRESD_PORT"; }

# GET /_stats on every fixture listener (the fail listener answers it too).
probe_fixture() {
    local base=(curl -fsS --max-time 2 --cacert "$CERTS/ca.pem" -o /dev/null)
    "${base[@]}" "http://$HTTPDNS_IP:$LAB_HTTPDNS_HTTP_PORT/_stats" 2>/dev/null &&
        "${base[@]}" "http://$HTTPDNS_IP:$LAB_HTTPDNS_FAIL_PORT/_stats" 2>/dev/null &&
        "${base[@]}" "https://$HTTPDNS_IP:$LAB_HTTPDNS_TLS_PORT/_stats" 2>/dev/null &&
        "${base[@]}" --resolve "$ALIYUN_TLS_NAME:$LAB_HTTPDNS_ALIYUN_TLS_PORT:$HTTPDNS_IP" \
            "https://$ALIYUN_TLS_NAME:$LAB_HTTPDNS_ALIYUN_TLS_PORT/_stats" 2>/dev/null &&
        "${base[@]}" --resolve "$ALIYUN_V2_TLS_NAME:$LAB_HTTPDNS_ALIYUN_V2_TLS_PORT:$HTTPDNS_IP" \
            "https://$ALIYUN_V2_TLS_NAME:$LAB_HTTPDNS_ALIYUN_V2_TLS_PORT/_stats" 2>/dev/null &&
        "${base[@]}" "http://$HTTPDNS_SERVICE_IP:$LAB_HTTPDNS_HTTP_PORT/_stats" 2>/dev/null &&
        "${base[@]}" --resolve "$ALIYUN_V2_TLS_NAME:$LAB_HTTPDNS_ALIYUN_V2_TLS_PORT:$HTTPDNS_SERVICE_IP" \
            "https://$ALIYUN_V2_TLS_NAME:$LAB_HTTPDNS_ALIYUN_V2_TLS_PORT/_stats" 2>/dev/null
}

# The echo backend directly, then through nginx (a.test /api/ proxies to it).
# blackbox_exporter and the pushgateway answer their health endpoints.
probe_prometheus() {
    curl -fsS --max-time 2 -o /dev/null "http://127.0.0.1:$LAB_BLACKBOX_PORT/-/healthy" 2>/dev/null &&
        curl -fsS --max-time 2 -o /dev/null "http://127.0.0.1:$LAB_PUSHGATEWAY_PORT/-/healthy" 2>/dev/null
}

probe_echo() {
    curl -fsS --max-time 2 -o /dev/null "http://$ECHO_IP:$LAB_ECHO_PORT/api/echo" 2>/dev/null &&
        curl -fsS --max-time 2 --cacert "$CERTS/ca.pem" -o /dev/null \
            --resolve "a.test:$LAB_HTTPS_PORT:$LAB_IP" \
            "https://a.test:$LAB_HTTPS_PORT/api/echo" 2>/dev/null
}

PORT_KEYS=(LAB_HTTPS_PORT LAB_HTTP_PORT LAB_DOH_PORT LAB_DNS_PORT LAB_KRESD_PORT LAB_HTTPDNS_HTTP_PORT
    LAB_HTTPDNS_ALIYUN_TLS_PORT LAB_HTTPDNS_TLS_PORT LAB_HTTPDNS_FAIL_PORT LAB_HTTPDNS_ALIYUN_V2_TLS_PORT
    LAB_ECHO_PORT LAB_BLACKBOX_PORT LAB_PUSHGATEWAY_PORT LAB_PROXY_PORT LAB_PROXY_AUTH_PORT LAB_PROXY_TLS_PORT
    LAB_SOCKS_PORT LAB_SOCKS_AUTH_PORT)

load_env() {
    local key
    [[ -s $ENV_FILE ]] || return 1
    for key in "${PORT_KEYS[@]}"; do
        printf -v "$key" '%s' "$(sed -n "s/^$key=//p" "$ENV_FILE")"
        [[ -n ${!key} ]] || return 1
    done
}

healthy() { running && load_env && probe_nginx && probe_doh && probe_kresd && probe_fixture && probe_echo && probe_proxy && probe_socks && probe_prometheus; }

# a.test through the open proxy (CONNECT) and the TLS one, and a 407 from the one demanding credentials.
probe_proxy() {
    curl -fsS --max-time 2 --cacert "$CERTS/ca.pem" -o /dev/null -x "http://$PROXY_IP:$LAB_PROXY_PORT" \
        "https://a.test:$LAB_HTTPS_PORT/" 2>/dev/null &&
        curl -fsS --max-time 2 --cacert "$CERTS/ca.pem" --proxy-cacert "$CERTS/ca.pem" -o /dev/null \
            -x "https://$PROXY_IP:$LAB_PROXY_TLS_PORT" "https://a.test:$LAB_HTTPS_PORT/" 2>/dev/null &&
        [[ $(curl -sS --max-time 2 -o /dev/null -w '%{http_code}' "http://$PROXY_IP:$LAB_PROXY_AUTH_PORT/" 2>/dev/null) == 407 ]]
}

# a.test through the open SOCKS proxy (SOCKS5, the proxy resolving the name) and the one demanding credentials.
probe_socks() {
    local user
    user=$(<"$SECRETS/proxy.user")
    curl -fsS --max-time 2 --cacert "$CERTS/ca.pem" -o /dev/null -x "socks5h://$SOCKS_IP:$LAB_SOCKS_PORT" \
        "https://a.test:$LAB_HTTPS_PORT/" 2>/dev/null &&
        curl -fsS --max-time 2 --cacert "$CERTS/ca.pem" -o /dev/null -x "socks5h://$SOCKS_IP:$LAB_SOCKS_AUTH_PORT" \
            -U "$user" "https://a.test:$LAB_HTTPS_PORT/" 2>/dev/null
}

# start_kresd: runs kresd in the foreground of a background job (kresd 5 has
# no daemon mode; -n: no interactive prompt on stdin), in a session of its
# own, with an empty cache. The job is kresd itself (setsid and nohup exec it:
# a background job is not a process group leader, so setsid does not fork);
# its pid goes to $STATE/kresd.pid (and KRESD_BG).
start_kresd() {
    rm -rf "$STATE/kresd-cache" "$STATE/kresd/control" "$STATE/kresd.control"
    mkdir -p "$STATE/kresd" "$STATE/kresd-cache"
    : >"$STATE/kresd.log"
    setsid nohup kresd -n -c "$STATE/kresd.conf" "$STATE/kresd" \
        </dev/null >>"$STATE/kresd.log" 2>&1 &
    KRESD_BG=$!
    printf '%s\n' "$KRESD_BG" >"$STATE/kresd.pid"
}

# start_fixture: runs httpdns_fixture.py in the background (pid in FIXTURE_BG).
# It binds every listener before it writes its pid file, and leaves our
# session (setsid); it exits at once if a port is taken.
start_fixture() {
    : >"$STATE/httpdns-fixture.log"
    nohup python3 "$LAB_SRC/httpdns_fixture.py" --ip "$HTTPDNS_IP" --service-ip "$HTTPDNS_SERVICE_IP" \
        --http-port "$LAB_HTTPDNS_HTTP_PORT" --aliyun-tls-port "$LAB_HTTPDNS_ALIYUN_TLS_PORT" \
        --tls-port "$LAB_HTTPDNS_TLS_PORT" --fail-port "$LAB_HTTPDNS_FAIL_PORT" \
        --aliyun-v2-tls-port "$LAB_HTTPDNS_ALIYUN_V2_TLS_PORT" \
        --aliyun-cert "$CERTS/$ALIYUN_TLS_NAME.pem" --aliyun-key "$CERTS/$ALIYUN_TLS_NAME.key" \
        --aliyun-v2-cert "$CERTS/$ALIYUN_V2_TLS_NAME.pem" --aliyun-v2-key "$CERTS/$ALIYUN_V2_TLS_NAME.key" \
        --cert "$CERTS/httpdns.test.pem" --key "$CERTS/httpdns.test.key" \
        --secrets "$SECRETS" --pidfile "$STATE/$FIXTURE.pid" \
        </dev/null >>"$STATE/httpdns-fixture.log" 2>&1 &
    FIXTURE_BG=$!
}

# start_echo: runs echo_backend.py in the background (pid in ECHO_BG); like
# the fixture, it binds before it writes its pid file, and leaves our session.
start_echo() {
    : >"$STATE/echo-backend.log"
    nohup python3 "$LAB_SRC/echo_backend.py" --ip "$ECHO_IP" --port "$LAB_ECHO_PORT" \
        --pidfile "$STATE/$ECHO.pid" </dev/null >>"$STATE/echo-backend.log" 2>&1 &
    ECHO_BG=$!
}

# start_proxy: runs forward_proxy.py in the background (pid in PROXY_BG), as start_echo.
start_proxy() {
    : >"$STATE/forward-proxy.log"
    nohup python3 "$LAB_SRC/forward_proxy.py" --ip "$PROXY_IP" --port "$LAB_PROXY_PORT" \
        --auth-port "$LAB_PROXY_AUTH_PORT" --auth-file "$SECRETS/proxy.user" \
        --tls-port "$LAB_PROXY_TLS_PORT" --cert "$CERTS/proxy.test.pem" --key "$CERTS/proxy.test.key" \
        --client-ca "$CERTS/ca.pem" --pidfile "$STATE/$PROXY.pid" </dev/null >>"$STATE/forward-proxy.log" 2>&1 &
    PROXY_BG=$!
}

# start_socks: runs socks_proxy.py in the background (pid in SOCKS_BG), as start_proxy.
start_socks() {
    : >"$STATE/socks-proxy.log"
    nohup python3 "$LAB_SRC/socks_proxy.py" --ip "$SOCKS_IP" --port "$LAB_SOCKS_PORT" \
        --auth-port "$LAB_SOCKS_AUTH_PORT" --auth-file "$SECRETS/proxy.user" \
        --pidfile "$STATE/$SOCKS.pid" </dev/null >>"$STATE/socks-proxy.log" 2>&1 &
    SOCKS_BG=$!
}

# start_prometheus: blackbox_exporter (module https_lab trusts the lab CA and
# probes IPv4 only, as ipcurl check -4 does) and the pushgateway (metrics in
# memory only: Debian's default persistence file is a system path), both on
# 127.0.0.1 only, each in a session of its own, with IPCURL_LAB_STATE in their
# environment for is_ours. As root, blackbox_exporter runs in a private mount
# namespace whose resolv.conf names 127.0.0.1 (where no DNS server listens), so
# a target name it cannot find in /etc/hosts never becomes a lookup off loopback.
start_prometheus() {
    printf '%s\n' "modules:" "  https_lab:" "    prober: http" "    timeout: 5s" "    http:" \
        "      preferred_ip_protocol: ip4" "      ip_protocol_fallback: false" "      tls_config:" \
        "        ca_file: $CERTS/ca.pem" >"$STATE/blackbox.yml"
    printf 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n' >"$STATE/blackbox-resolv.conf"
    local confine=()
    if [[ $(id -u) == 0 ]] && unshare -m true 2>/dev/null; then
        confine=(unshare -m sh -c 'mount --bind "$0" /etc/resolv.conf && exec "$@"' "$STATE/blackbox-resolv.conf")
    fi
    : >"$STATE/blackbox-exporter.log"
    IPCURL_LAB_STATE="$STATE" setsid nohup "${confine[@]}" prometheus-blackbox-exporter \
        --config.file="$STATE/blackbox.yml" --web.listen-address="127.0.0.1:$LAB_BLACKBOX_PORT" \
        </dev/null >>"$STATE/blackbox-exporter.log" 2>&1 &
    BLACKBOX_BG=$!
    printf '%s\n' "$BLACKBOX_BG" >"$STATE/$BLACKBOX.pid"
    : >"$STATE/pushgateway.log"
    IPCURL_LAB_STATE="$STATE" setsid nohup prometheus-pushgateway --persistence.file= \
        --web.listen-address="127.0.0.1:$LAB_PUSHGATEWAY_PORT" </dev/null >>"$STATE/pushgateway.log" 2>&1 &
    PUSHGATEWAY_BG=$!
    printf '%s\n' "$PUSHGATEWAY_BG" >"$STATE/$PUSHGATEWAY.pid"
}

# ------------------------------------------------------------------- files

# make_www: the /files/ tree. Written once (atomically) and kept across
# down/up; a file is rewritten only if it is missing (big.bin: or not 64 MiB).
# big.bin is AES-128-CTR keystream under a fixed key: pseudo-random, and the
# same bytes on every machine.
make_www() {
    mkdir -p "$WWW"
    if [[ $(stat -c %s "$WWW/big.bin" 2>/dev/null) != "$BIG_SIZE" ]]; then
        log "generating $WWW/big.bin (64 MiB)"
        head -c "$BIG_SIZE" /dev/zero |
            openssl enc -aes-128-ctr -nosalt -K 69706375726c2d6c61622d6269672d31 \
                -iv 00000000000000000000000000000000 >"$WWW/big.bin.tmp"
        [[ $(stat -c %s "$WWW/big.bin.tmp") == "$BIG_SIZE" ]] || die "could not write $WWW/big.bin"
        mv "$WWW/big.bin.tmp" "$WWW/big.bin"
    fi
    if [[ ! -s $WWW/text.txt ]]; then
        python3 - "$WWW/text.txt.tmp" <<'EOF'
import random, sys
rng = random.Random(20240501)
words = ("ipcurl lab text line alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima "
         "mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu "
         "resolve connect handshake certificate redirect cookie header body chunk stream gzip").split()
with open(sys.argv[1], "w") as f:
    n = size = 0
    while size < 200 * 1024:
        n += 1
        words_here = " ".join(rng.choice(words) for _ in range(rng.randint(4, 14)))
        line = f"{n:05d} {words_here} [{rng.randint(0, 99999):05d}]\n"
        f.write(line)
        size += len(line)
EOF
        mv "$WWW/text.txt.tmp" "$WWW/text.txt"
    fi
    [[ -f $WWW/empty.txt && ! -s $WWW/empty.txt ]] || : >"$WWW/empty.txt"
}

tails() {
    local f
    for f in nginx-error.log unbound.log kresd.log httpdns-fixture.log echo-backend.log forward-proxy.log socks-proxy.log blackbox-exporter.log pushgateway.log; do
        [[ -f $STATE/$f ]] || continue
        log "---- tail $STATE/$f"
        tail -n 20 "$STATE/$f" >&2 || true
    done
}

# ---------------------------------------------------------------- commands

cmd_down() {
    stop nginx
    stop kresd
    stop unbound
    stop "$FIXTURE"
    stop "$ECHO"
    stop "$PROXY"
    stop "$SOCKS"
    stop "$BLACKBOX"
    stop "$PUSHGATEWAY"
    rm -f "$ENV_FILE" "$STATE/kresd.control"
}

cmd_up() {
    local key picked i=0
    local -A want=()
    for key in "${PORT_KEYS[@]}"; do want[$key]=${!key:-}; done
    if healthy; then
        log "already up ($ENV_FILE)"
        return 0
    fi
    cmd_down   # clear any half-started / stale state

    for tool in nginx unbound kresd openssl curl python3 prometheus-blackbox-exporter prometheus-pushgateway; do
        command -v "$tool" >/dev/null || die "$tool not found in PATH"
    done
    python3 -c 'import cryptography.hazmat.primitives.ciphers.aead' 2>/dev/null ||
        die "python3 lacks the cryptography package (the fixture's AES-GCM; make setup installs it)"
    # kresd's control socket is a Unix socket: sun_path has room for 107 bytes and a NUL.
    (( $(printf '%s' "$STATE/kresd.control" | wc -c) <= 107 )) ||
        die "state dir too long for kresd's control socket ($STATE/kresd.control): set a shorter IPCURL_LAB_DIR"
    mkdir -p "$STATE"/tmp/{client_body,proxy,fastcgi,uwsgi,scgi}
    make_certs
    make_secrets
    make_www

    read -r -a picked <<<"$(pick_ports "${#PORT_KEYS[@]}" "${want[@]}")"
    for key in "${PORT_KEYS[@]}"; do
        printf -v "$key" '%s' "${want[$key]:-${picked[i]}}"
        i=$((i + 1))
    done

    # The user directive only makes sense (and is only accepted) as root.
    local user_line=""
    [[ $(id -u) == 0 ]] && user_line="user root;"
    render "$LAB_SRC/nginx.conf.in" "$STATE/nginx.conf" \
        STATE="$STATE" HTTPS_PORT="$LAB_HTTPS_PORT" HTTP_PORT="$LAB_HTTP_PORT" USER_LINE="$user_line"
    render "$LAB_SRC/nginx-shared.conf.in" "$STATE/nginx-shared.conf" \
        STATE="$STATE" ECHO_IP="$ECHO_IP" ECHO_PORT="$LAB_ECHO_PORT"
    render "$LAB_SRC/unbound.conf.in" "$STATE/unbound.conf" \
        STATE="$STATE" DOH_PORT="$LAB_DOH_PORT" DNS_PORT="$LAB_DNS_PORT"
    render "$LAB_SRC/kresd.conf.in" "$STATE/kresd.conf" \
        STATE="$STATE" KRESD_IP="$DOH_IP" KRESD_PORT="$LAB_KRESD_PORT" DNS_PORT="$LAB_DNS_PORT"
    cp "$LAB_SRC/test.zone" "$STATE/test.zone"
    : >"$STATE/nginx-error.log"
    : >"$STATE/unbound.log"

    # Both daemonize themselves and write their pid files into $STATE.
    if ! nginx -p "$STATE" -c "$STATE/nginx.conf" -e "$STATE/nginx-error.log" 2>>"$STATE/nginx-error.log"; then
        tails; cmd_down; die "nginx failed to start"
    fi
    if ! unbound -c "$STATE/unbound.conf" 2>>"$STATE/unbound.log"; then
        tails; cmd_down; die "unbound failed to start"
    fi
    start_kresd
    start_fixture
    start_echo
    start_proxy
    start_socks
    start_prometheus

    # Wait (up to ~10 s) until all of them answer real requests.
    local ok=""
    for ((i = 0; i < 100; i++)); do
        if running && probe_nginx && probe_doh && probe_kresd && probe_fixture && probe_echo && probe_proxy && probe_socks && probe_prometheus; then
            ok=1; break
        fi
        if ! alive "$BLACKBOX_BG" || ! alive "$PUSHGATEWAY_BG"; then
            tails; cmd_down; die "blackbox_exporter or the pushgateway exited (see their logs in $STATE)"
        fi
        if ! alive "$KRESD_BG"; then
            tails; cmd_down; die "kresd exited (see $STATE/kresd.log)"
        fi
        if ! alive "$FIXTURE_BG"; then
            tails; cmd_down; die "the httpdns fixture exited (see $STATE/httpdns-fixture.log)"
        fi
        if ! alive "$PROXY_BG"; then
            tails; cmd_down; die "the forward proxy exited (see $STATE/forward-proxy.log)"
        fi
        if ! alive "$SOCKS_BG"; then
            tails; cmd_down; die "the SOCKS proxy exited (see $STATE/socks-proxy.log)"
        fi
        if ! alive "$ECHO_BG"; then
            tails; cmd_down; die "the echo backend exited (see $STATE/echo-backend.log)"
        fi
        sleep 0.1
    done
    if [[ -z $ok ]]; then
        tails; cmd_down; die "lab did not become healthy within 10 s"
    fi

    cat >"$ENV_FILE.tmp" <<EOF
LAB_DIR=$STATE
LAB_CA=$CERTS/ca.pem
LAB_IP=$LAB_IP
LAB_WRONG_IP=$LAB_WRONG_IP
LAB_IP6=$LAB_IP6
LAB_HTTPS_PORT=$LAB_HTTPS_PORT
LAB_HTTP_PORT=$LAB_HTTP_PORT
LAB_DOH_PORT=$LAB_DOH_PORT
LAB_DOH_URL=https://$DOH_IP:$LAB_DOH_PORT/dns-query
LAB_DNS_PORT=$LAB_DNS_PORT
LAB_KRESD_PORT=$LAB_KRESD_PORT
LAB_KRESD_DOH_URL=https://$DOH_IP:$LAB_KRESD_PORT/dns-query
LAB_KRESD_CONTROL=$STATE/kresd.control
LAB_HTTPDNS_IP=$HTTPDNS_IP
LAB_HTTPDNS_HTTP_PORT=$LAB_HTTPDNS_HTTP_PORT
LAB_HTTPDNS_ALIYUN_TLS_PORT=$LAB_HTTPDNS_ALIYUN_TLS_PORT
LAB_HTTPDNS_ALIYUN_TLS_NAME=$ALIYUN_TLS_NAME
LAB_HTTPDNS_TLS_PORT=$LAB_HTTPDNS_TLS_PORT
LAB_HTTPDNS_FAIL_PORT=$LAB_HTTPDNS_FAIL_PORT
LAB_HTTPDNS_ALIYUN_V2_TLS_PORT=$LAB_HTTPDNS_ALIYUN_V2_TLS_PORT
LAB_HTTPDNS_ALIYUN_V2_TLS_NAME=$ALIYUN_V2_TLS_NAME
LAB_HTTPDNS_SERVICE_IP=$HTTPDNS_SERVICE_IP
LAB_ALIYUN_ACCOUNT=139450
LAB_ALIYUN_SIGNED_ACCOUNT=139451
LAB_ALIYUN_DISABLED_ACCOUNT=139453
LAB_ALIYUN_UNKNOWN_ACCOUNT=139459
LAB_ALIYUN_SPARE_ACCOUNTS=139460-139469
LAB_ALIYUN_SECRET_FILE=$SECRETS/aliyun.secret
LAB_ALIYUN_AES_KEY_FILE=$SECRETS/aliyun-aes.key
LAB_DNSPOD_ID=1234
LAB_DNSPOD_AES_KEY_FILE=$SECRETS/dnspod-aes.key
LAB_DNSPOD_DES_KEY_FILE=$SECRETS/dnspod-des.key
LAB_DNSPOD_TOKEN_FILE=$SECRETS/dnspod.token
LAB_ECHO_IP=$ECHO_IP
LAB_ECHO_PORT=$LAB_ECHO_PORT
LAB_PROXY_URL=http://$PROXY_IP:$LAB_PROXY_PORT
LAB_PROXY_AUTH_URL=http://$PROXY_IP:$LAB_PROXY_AUTH_PORT
LAB_PROXY_USER_FILE=$SECRETS/proxy.user
LAB_PROXY_TLS_URL=https://$PROXY_IP:$LAB_PROXY_TLS_PORT
LAB_PROXY_TLS_PIN_FILE=$CERTS/proxy.test.pin
LAB_PROXY_TLS_PUBKEY=$CERTS/proxy.test.pub.pem
LAB_PROXY_LOG=$STATE/forward-proxy.log
LAB_SOCKS_ADDRESS=$SOCKS_IP:$LAB_SOCKS_PORT
LAB_SOCKS_AUTH_ADDRESS=$SOCKS_IP:$LAB_SOCKS_AUTH_PORT
LAB_SOCKS_LOG=$STATE/socks-proxy.log
LAB_CLIENT_CERT=$CERTS/client.pem
LAB_CLIENT_KEY=$CERTS/client.key
LAB_CLIENT_ENC_KEY=$CERTS/client-enc.key
LAB_CLIENT_P12=$CERTS/client.p12
LAB_CLIENT_DER=$CERTS/client.der
LAB_CLIENT_KEY_DER=$CERTS/client-key.der
LAB_CLIENT_PASS_FILE=$SECRETS/client.pass
LAB_A_PIN_FILE=$CERTS/a.test.pin
LAB_A_PUBKEY=$CERTS/a.test.pub.pem
LAB_WWW=$WWW
LAB_BLACKBOX_URL=http://127.0.0.1:$LAB_BLACKBOX_PORT
LAB_PUSHGATEWAY_URL=http://127.0.0.1:$LAB_PUSHGATEWAY_PORT
EOF
    mv "$ENV_FILE.tmp" "$ENV_FILE"

    cat <<EOF
ipcurl lab is up (state: $STATE)
  HTTPS  $LAB_IP:$LAB_HTTPS_PORT, [$LAB_IP6]:$LAB_HTTPS_PORT  (a.test b.test cname.test v6.test xn--bcher-kva.test *.any.test; default cert default.invalid)
  HTTPS  $LAB_WRONG_IP:$LAB_HTTPS_PORT  (serves other.test's cert only)
  HTTPS  127.0.0.1:$LAB_HTTPS_PORT  (localhost: what the system resolver finds, for the fallback)
  HTTP   $LAB_IP:$LAB_HTTP_PORT  (a.test b.test *.any.test), [$LAB_IP6]:$LAB_HTTP_PORT  (*.any.test)
  /api/   on a.test b.test *.any.test (HTTPS + HTTP) -> echo backend http://$ECHO_IP:$LAB_ECHO_PORT
          echo redirect loop status flaky hits set-cookie delay drip
  /files/ on the same vhosts -> $WWW  (big.bin 64 MiB, text.txt gzip-able, empty.txt)
  DoH    https://$DOH_IP:$LAB_DOH_PORT/dns-query  (unbound, HTTP/2 only)
  DoH    https://$DOH_IP:$LAB_KRESD_PORT/dns-query  (kresd, caching, forwards to unbound's plain DNS on TCP $DOH_IP:$LAB_DNS_PORT)
  HTTPDNS fixture on $HTTPDNS_IP: http :$LAB_HTTPDNS_HTTP_PORT, https :$LAB_HTTPDNS_ALIYUN_TLS_PORT ($ALIYUN_TLS_NAME),
         https :$LAB_HTTPDNS_TLS_PORT (IP + httpdns.test), 503 :$LAB_HTTPDNS_FAIL_PORT,
         https :$LAB_HTTPDNS_ALIYUN_V2_TLS_PORT ($ALIYUN_V2_TLS_NAME); Alibaba /ss service address $HTTPDNS_SERVICE_IP
         (http :$LAB_HTTPDNS_HTTP_PORT, https :$LAB_HTTPDNS_ALIYUN_V2_TLS_PORT)
  mixed.test  A $LAB_IP (its own certificate) and A $LAB_WRONG_IP (another name's): one good address, one bad
  proxies http://$PROXY_IP:$LAB_PROXY_PORT, http://$PROXY_IP:$LAB_PROXY_AUTH_PORT (Basic, Digest), https://$PROXY_IP:$LAB_PROXY_TLS_PORT;
          SOCKS4/4a/5 $SOCKS_IP:$LAB_SOCKS_PORT, $SOCKS_IP:$LAB_SOCKS_AUTH_PORT (user and password)
  blackbox_exporter http://127.0.0.1:$LAB_BLACKBOX_PORT (module https_lab), pushgateway http://127.0.0.1:$LAB_PUSHGATEWAY_PORT
  CA     $CERTS/ca.pem
  env    $ENV_FILE
EOF
}

cmd_status() {
    local n pid rc=0
    for n in nginx unbound kresd "$FIXTURE" "$ECHO" "$PROXY" "$SOCKS" "$BLACKBOX" "$PUSHGATEWAY"; do
        if pid=$(pid_of "$n"); then
            echo "$n: running (pid $pid)"
        else
            echo "$n: not running"; rc=1
        fi
    done
    return "$rc"
}

cmd_env() {
    running && [[ -s $ENV_FILE ]] || die "lab is not up (run: $0 up)"
    printf '%s\n' "$ENV_FILE"
}

case "${1:-}" in
    up) cmd_up ;;
    down) cmd_down ;;
    status) cmd_status ;;
    env) cmd_env ;;
    *) echo "usage: $0 {up|down|status|env}" >&2; exit 2 ;;
esac
