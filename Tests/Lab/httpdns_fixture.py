#!/usr/bin/env python3
"""Fake vendor HTTPDNS servers for the ipcurl lab (python3 stdlib, the openssl CLI, python `cryptography`).

One process serves the same APIs on several listeners, on the lab's HTTPDNS IP (--ip) and its service IP
(--service-ip, the address Alibaba's /ss names):

  http            --ip, plain HTTP
  aliyun-tls      --ip, HTTPS, certificate for resolvers-cn.httpdns.aliyuncs.com only (the v1 name)
  tls             --ip, HTTPS, certificate for IP:<ip> and httpdns.test
  fail            --ip, plain HTTP, 503 for every request (except the /_ control paths)
  aliyun-v2-tls   --ip, HTTPS, certificate for resolvers.httpdns.aliyuncs.com only (the v2 and /ss name)
  service-http    --service-ip, the http port; service-tls: --service-ip, the aliyun-v2-tls port and certificate.
                  Both answer 503 to an account's requests after /_v2/fail-services?id=ACCOUNT, until its next /ss

APIs (see Tests/Lab/README.md for every status and body):

  /{account}/d, /sign_d, /resolve, /sign_resolve   Alibaba Cloud HTTPDNS v1 (JSON)
  /v2/d?id=..&m=0|1|2                              Alibaba Cloud HTTPDNS v2: HMAC-SHA256, AES-128-CBC/GCM, batches
                                                   (request rules in aliyun_v2.py)
  /{account}/ss?region=..                          Alibaba service discovery: the service-ip listeners
  /d?dn=..                                         Tencent DNSPod HTTPDNS: plain, DES/AES (id=, alg=), token
  /resolve?name=.., /dns-query?name=..             DoH JSON (Google / Cloudflare style)
  POST /dns-query-wire                             DoH wire format (RFC 8484)
  /_stats, /_reset                                 request counters (global, all listeners)
  /_v2/log, /_v2/fail-services                     v2 and /ss requests as received; failing service addresses

Names in ZONE select malformed answers and misbehaving servers (hang, drip, huge, portal, redirect loop, ...).
DES and AES-CBC run in `openssl enc` subprocesses and AES-GCM in python `cryptography`, so the fixture shares no
crypto code with the client.
Started by lab.sh; logs go to stderr.
"""
import aliyun_v2 as v2
import argparse
import hashlib
import hmac
import ipaddress
import json
import labdaemon
import os
import re
import socket
import socketserver
import ssl
import subprocess
import sys
import threading
import time
from collections import Counter, deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

# ----------------------------------------------------------------- zone data
# v4/v6 hold raw strings: the malformed-answer hosts put bad "addresses" there on purpose.
# kind: special behaviour shared by all APIs (see special()) or one rendering tweak.
ZONE = {
    "a.test": {"v4": ["127.0.0.2"], "v6": ["::1"], "ttl": 60, "origin_ttl": 600},
    "xn--bcher-kva.test": {"v4": ["127.0.0.2"], "v6": ["::1"]},  # bücher.test (IDN A-label)
    "b.test": {"v4": ["127.0.0.2"], "ttl": 300},
    "nocert.test": {"v4": ["127.0.0.2"]},
    "wrong.test": {"v4": ["127.0.0.3"]},
    "multi.test": {"v4": ["127.0.0.2", "127.0.0.3"]},
    "failover.test": {"v4": ["127.0.0.9", "127.0.0.3", "127.0.0.2"]},  # refuses, wrong cert, good
    "v6.test": {"v6": ["::1"]},
    "doh.test": {"v4": ["127.0.0.1"]},
    "cname.test": {"cname": "a.test"},
    # The address hidden by a comma, colon or newline comes first and is TRAP: a client that splits the value and
    # uses a part connects there (the misbehaving-resolver tests listen on it and expect no connection).
    "bad-comma.test": {"v4": ["127.0.0.9,127.0.0.2"]},
    "bad-colon.test": {"v4": ["127.0.0.9:8443"]},
    "bad-newline.test": {"v4": ["127.0.0.9\nevil.test:443:127.0.0.2"]},
    "bad-space.test": {"v4": [" 127.0.0.2", "127.0.0.3 "]},
    "bad-hostname.test": {"v4": ["evil.test"]},
    "neg-ttl.test": {"v4": ["127.0.0.2"], "ttl": -5},
    "huge-ttl.test": {"v4": ["127.0.0.2"], "ttl": 9999999999},
    "big.test": {"v4": ["127.0.0.2"] * 11000},  # >100 KiB in every format
    "wrong-host.test": {"v4": ["127.0.0.2"], "kind": "wrong-host"},
    "bad-type.test": {"v4": ["127.0.0.2"], "kind": "bad-type"},
    "empty.test": {"kind": "empty"},
    "bad-json.test": {"kind": "bad-json"},
    "server-error.test": {"kind": "server-error"},
    "slow.test": {"v4": ["127.0.0.2"], "kind": "slow"},
    # Addresses a connection cannot use: only 127.0.0.2 and ::1 survive ipcurl's filter.
    "unusable.test": {"v4": ["0.0.0.0", "224.0.0.1", "255.255.255.255", "127.0.0.2"], "v6": ["::", "ff02::1", "::1"]},
    "only-unusable.test": {"v4": ["0.0.0.0", "239.1.2.3"], "v6": ["::"]},
    "mapped.test": {"v6": ["::ffff:127.0.0.2"]},
    "many.test": {"v4": [f"127.0.1.{i}" for i in range(1, 21)] + ["127.0.0.2"]},  # 21: five are over the limit
    "control.test": {"kind": "control"},
    "silent.test": {"v4": ["127.0.0.4"]},  # where tests run a listener that accepts and never answers
    # The misbehaving-HTTPDNS corpus (every API; see special() and Handler.send()).
    "hang.test": {"kind": "hang"},  # reads the request, never answers
    "drip.test": {"v4": ["127.0.0.2"], "v6": ["::1"], "kind": "drip"},  # the right answer, one byte per DRIP_SECONDS
    "huge.test": {"v4": ["127.0.0.2"], "v6": ["::1"], "kind": "huge"},  # the right answer padded to HUGE_BYTES
    "portal.test": {"kind": "portal"},  # 200 text/html captive-portal page
    "redirect-loop.test": {"kind": "redirect-loop"},  # 302 to the same URL
    "dup-key.test": {"v4": ["127.0.0.2"], "kind": "dup-key"},  # JSON: a second "ips"/"data" (escaped) holds TRAP
    "cname-loop.test": {"kind": "cname-loop"},  # DoH JSON and wire: cname-loop.test -> loop-b.test -> cname-loop.test
    "compression-loop.test": {"kind": "compression-loop"},  # DoH wire: an owner name that points at itself
}
TRAP = "127.0.0.9"
DRIP_SECONDS = 0.2
HUGE_BYTES = 50 * 1024 * 1024
PORTAL = ("<!DOCTYPE html>\n<html><head><title>Wi-Fi sign-in</title></head>\n"
          "<body><form action=\"/login\"><p>Accept the terms to continue.</p><button>Connect</button></form></body></html>\n")
MODE = threading.local()  # the current request's stream kind (hang/drip/huge), set by special()
SLOW_SECONDS = 5
EVIL = "evil.test"
NAME_RE = re.compile(r"^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$")

# Alibaba accounts (v1 and v2) -> signing "optional" (checked when sent), "enforced" (unsigned refused with
# UnsignedInterfaceDisabled) or "disabled" (AccountNotExists). 139460-139469 are spares like 139450, so a test can
# have /ss requests and failing service addresses of its own.
ALIYUN_ACCOUNTS = {"139450": "optional", "139451": "enforced", "139453": "disabled",
                   **{str(n): "optional" for n in range(139460, 139470)}}
DNSPOD_ID = "1234"
SECRETS = {}  # aliyun, aliyun-aes, dnspod-aes, dnspod-des, dnspod-token; filled by main()
SERVICE = {}  # ip, http, tls: where the service-ip listeners are; filled by main()

def lookup(name):
    """(owner, record) for a name, following cname.test to a.test; (name, None) when absent."""
    rec = ZONE.get(name)
    if rec is None and name.endswith(".any.test"):  # tests that count their own queries use fresh names
        ttl = 1 if name.startswith("ttl1-") else 60
        rec = {"v4": ["127.0.0.2"], "v6": ["::1"], "ttl": ttl}
    if rec and "cname" in rec:
        return rec["cname"], ZONE[rec["cname"]]
    return name, rec

def fields(rec):
    return rec.get("v4", []), rec.get("v6", []), rec.get("ttl", 60), rec.get("origin_ttl", rec.get("ttl", 60))

def norm(name):
    name = (name or "").lower()
    return name[:-1] if name.endswith(".") else name


# -------------------------------------------------------------------- stats
V2_LOG_SIZE = 2000  # /_v2/log keeps the newest this many /v2/d and /ss requests

class Stats:
    """Global counters (all listeners together). count(): one API request (the /_ control paths are not
    counted); name(): one queried name, after decryption, once per host of a batch; v2(): one /v2/d or /ss request
    (its /_v2/log entry). Also the accounts whose service addresses fail (/_v2/fail-services)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        with self.lock:
            self.data = {"requests": 0, "by_path": Counter(), "by_listener": Counter(), "by_name": Counter(),
                         "v2": {"d": 0, "ss": 0, "names_in_clear": 0, "by_code": Counter()}}
            self.log = deque(maxlen=V2_LOG_SIZE)
            self.failing = set()

    def v2(self, entry):
        with self.lock:
            counters = self.data["v2"]
            counters["d" if entry["path"] == "/v2/d" else "ss"] += 1
            counters["names_in_clear"] += entry["names_in_clear"]
            counters["by_code"][entry["code"] or f"HTTP {entry['status']}"] += 1
            self.log.append(entry)

    def v2_log(self, name=None, account=None, path=None):
        with self.lock:
            return [e for e in self.log if (name is None or name in e["names"]) and
                    (account is None or e["account"] == account) and (path is None or e["path"] == path)]

    def fail_services(self, account, on):
        with self.lock:
            (self.failing.add if on else self.failing.discard)(account)

    def services_fail(self, account):
        with self.lock:
            return account in self.failing

    def count(self, listener, path):
        with self.lock:
            self.data["requests"] += 1
            self.data["by_path"][path] += 1
            self.data["by_listener"][listener] += 1

    def name(self, name):
        with self.lock:
            self.data["by_name"][name] += 1

    def snapshot(self):
        with self.lock:
            out = {k: dict(v) if isinstance(v, Counter) else v for k, v in self.data.items()}
            out["v2"] = {**out["v2"], "by_code": dict(out["v2"]["by_code"])}
            return out

STATS = Stats()

# ------------------------------------------------------------------- crypto
DES_PROVIDER_ARGS = ["-provider", "legacy", "-provider", "default"]  # OpenSSL 3: DES lives in "legacy"

openssl_enc = v2.openssl_enc

def des(key, data, decrypt=False):
    """DES-ECB, PKCS5 padding, key = first 8 bytes of the key string (DNSPod's DES mode)."""
    args = ["-des-ecb", *DES_PROVIDER_ARGS, "-K", key.encode()[:8].hex(), "-nosalt"]
    return openssl_enc(args + (["-d"] if decrypt else []), data)

def aes(key, data, decrypt=False):
    """AES-128-CBC, PKCS7 padding; wire form IV(16) || ciphertext. Short keys are padded with '0' like the SDK."""
    k = key.ljust(16, "0").encode()
    if len(k) != 16:
        raise ValueError("AES key must be 16 bytes")
    if decrypt:
        if len(data) < 32 or len(data) % 16:
            raise ValueError("AES ciphertext too short")
        iv, data = data[:16], data[16:]
    else:
        iv = os.urandom(16)
    out = openssl_enc(["-aes-128-cbc", "-K", k.hex(), "-iv", iv.hex(), "-nosalt"] + (["-d"] if decrypt else []), data)
    return out if decrypt else iv + out

def dnspod_crypt(alg, text, decrypt=False):
    key = SECRETS["dnspod-" + alg]
    if decrypt:
        return (des if alg == "des" else aes)(key, bytes.fromhex(text), decrypt=True).decode("utf-8")
    return (des if alg == "des" else aes)(key, text.encode()).hex()

def check_des():
    """Use the doc vector (key dnspodpass, www.dnspod.cn) to find DES flags that work here."""
    global DES_PROVIDER_ARGS
    for extra in (DES_PROVIDER_ARGS, []):
        DES_PROVIDER_ARGS = extra
        try:
            if des("dnspodpass", b"www.dnspod.cn").hex() == "87ae992c1321f299da3c0210a9900ae7":
                return True
        except (ValueError, OSError, subprocess.SubprocessError):
            pass
    log("WARNING: openssl cannot do DES-ECB; DNSPod DES requests will get empty answers")
    return False


# ---------------------------------------------------------------- responses
def reply(status, body, ctype="text/plain; charset=utf-8"):
    return status, body if isinstance(body, bytes) else body.encode(), ctype

def jreply(status, obj, ctype="application/json"):
    return reply(status, render_dupkeys(obj), ctype)

class DupKey:
    """An object rendered with `key` twice: its own value, then `extra` under the key spelled with a JSON escape
    (`"ip\\u0073"`), so a parser that keeps the last member takes `extra`."""

    def __init__(self, obj, key, extra):
        self.obj, self.key, self.extra = obj, key, extra

def render_dupkeys(obj):
    """JSON text for obj, expanding DupKey objects anywhere inside it."""
    if isinstance(obj, DupKey):
        inner = render_dupkeys(obj.obj)
        escaped = obj.key[:-1] + "\\u%04x" % ord(obj.key[-1])
        return inner[:-1] + f',"{escaped}":' + json.dumps(obj.extra, separators=(",", ":")) + "}"
    if isinstance(obj, dict):
        return "{" + ",".join(json.dumps(k) + ":" + render_dupkeys(v) for k, v in obj.items()) + "}"
    if isinstance(obj, list):
        return "[" + ",".join(render_dupkeys(v) for v in obj) + "]"
    return json.dumps(obj, separators=(",", ":"))

def special(names, api):
    """Whole-response behaviours of server-error/bad-json/slow and the corpus kinds, for any API; None otherwise.
    hang, drip and huge are only noted in MODE: Handler.send() applies them to the reply it is given."""
    kinds = {ZONE.get(n, {}).get("kind") for n in names}
    MODE.kind = next((k for k in ("hang", "drip", "huge") if k in kinds), None)
    if "portal" in kinds:
        return reply(200, PORTAL, "text/html; charset=utf-8")
    if "redirect-loop" in kinds:
        return 302, b"", "redirect"
    if "server-error" in kinds:
        return jreply(500, {"code": "InternalError"}) if api == "aliyun" else reply(500, "internal server error\n")
    if "bad-json" in kinds:
        return reply(200, "<html>not json</html>", "text/html")
    if "slow" in kinds:
        time.sleep(SLOW_SECONDS)
    if "control" in kinds:
        if api == "aliyun":
            return jreply(403, {"code": "Evil\u001b[31mRED\u202eCODE\u0007"})
        return reply(200, "\u001b[2J", "text/\x1b[31mevil\x07")
    return None


# --------------------------------------------------------- Alibaba HTTPDNS
def aliyun_err(status, code):
    return jreply(status, {"code": code})

def aliyun_single(name, want4, want6, client_ip):
    _, rec = lookup(name)
    kind = (rec or {}).get("kind")
    d = {"host": EVIL if kind == "wrong-host" else name}
    v4, v6, ttl, origin = fields(rec or {})
    if kind == "empty" or not (want4 and v4 or want6 and v6):  # no answer: empty lists, no origin_ttl
        d.update({"ips": []} if want4 or kind == "empty" else {})
        d.update({"ipsv6": []} if want6 or kind == "empty" else {})
        return {**d, "ttl": 60, "client_ip": client_ip}
    if want4:
        d["ips"] = v4
    if want6:
        d["ipsv6"] = v6
    d.update({"ttl": ttl, "origin_ttl": origin, "client_ip": client_ip})
    if kind == "bad-type":
        d.update({"ips": "127.0.0.2", "ttl": "60"})
    if kind == "dup-key":
        d = DupKey(d, "ips", [TRAP])
    return d

def aliyun_batch(names, want4, want6, client_ip):
    """Query 4: one entry per host (doc sample). With 6: one entry per host and type, v6 in "ips" with
    "type":28 -- the shape the real service returns (alibabacloud-httpdns-c-sdk http_api_result_demo.md)."""
    out = []
    for name in names:
        d = aliyun_single(name, want4, want6, client_ip)
        if not want6 or isinstance(d, DupKey):
            out.append(d)
            continue
        base = {k: v for k, v in d.items() if k not in ("ips", "ipsv6")}
        for key, rtype in (("ips", 1), ("ipsv6", 28)):
            if key in d:
                e = {**base, "ips": d[key], "type": rtype}
                if not d[key]:
                    e.pop("origin_ttl", None)
                out.append(e)
    return {"dns": out}

def aliyun(h, account, api, q):
    policy = ALIYUN_ACCOUNTS.get(account)
    if policy is None:
        return aliyun_err(403, "InvalidAccount")
    if policy == "disabled":
        return aliyun_err(403, "AccountNotExists")
    if api == "ss":
        return aliyun_ss(h, account, q)
    if api not in ("d", "sign_d", "resolve", "sign_resolve"):
        return aliyun_err(404, "NotFound")
    signed, batch = api.startswith("sign_"), api.endswith("resolve")
    if policy == "enforced" and not signed:
        return aliyun_err(403, "UnsignedInterfaceDisabled")
    host = arg(q, "host")
    if not host:
        return aliyun_err(400, "MissingArgument")
    names = [norm(n) for n in host.split(",")]
    if len(names) > (5 if batch else 1):
        return aliyun_err(400, "TooManyHosts")
    if not all(NAME_RE.match(n) for n in names):
        return aliyun_err(400, "InvalidHost")
    query = set((arg(q, "query") or "4").split(","))
    if not query <= {"4", "6"}:
        return aliyun_err(400, "InvalidQuery")
    ip = arg(q, "ip")
    if ip is not None and not ips_ok(ip, 5 if batch else 1):  # batch: up to 5 comma-separated IPs
        return aliyun_err(400, "InvalidIP")
    if signed:
        t, s = arg(q, "t"), arg(q, "s")
        if not t or not s:
            return aliyun_err(400, "MissingArgument")
        want = hashlib.md5(f"{host}-{SECRETS['aliyun']}-{t}".encode()).hexdigest()
        if not t.isdigit() or not hmac.compare_digest(s.encode(), want.encode()):
            return aliyun_err(403, "InvalidSignature")
        if int(t) < time.time():
            return aliyun_err(403, "SignatureExpired")
        if int(t) > time.time() + 86400:
            return aliyun_err(403, "InvalidDuration")
    for n in names:
        STATS.name(n)
    sp = special(names, "aliyun")
    if sp:
        return sp
    client_ip = ip or h.client_address[0]
    want4, want6 = "4" in query, "6" in query
    if batch:
        return jreply(200, aliyun_batch(names, want4, want6, client_ip))
    return jreply(200, aliyun_single(names[0], want4, want6, client_ip))


def ips_ok(value, limit):
    try:
        return len(value.split(",")) <= limit and all(ipaddress.ip_address(p) for p in value.split(","))
    except ValueError:
        return False


# ------------------------------------------------------ Alibaba HTTPDNS v2
def v2_block(ips, ttl, no_ip_code=None):
    """One family of a v2 answer (AND resolve/ResolveHostResponse.java fromResponse L143-194 reads ips, ttl,
    extra, no_ip_code; NODE src/types.ts L129-147)."""
    return {"ips": ips, "ttl": ttl, **({"no_ip_code": no_ip_code} if no_ip_code else {})}

def v2_answer(name, families):
    """The `answers` entry for one name: `dn` echoes the name asked (AND ResolveHostResponse.getHostItem L28-35
    matches by it), then a `v4`/`v6` block for each family asked. A family without addresses has empty `ips` and
    `no_ip_code` RRNotExist, and a name the zone does not know DomainNotExist in each (NODE src/types.ts L143; iOS
    HttpdnsRemoteResolver.m processIPv4Info L257-263 reads either as "no record"); ttl 60 there, as in v1's empty
    answer. Corpus kinds as in v1: wrong-host echoes evil.test, bad-type puts a string in `ips` and `ttl`, dup-key
    adds an escaped second `ips` holding TRAP, empty gives both families empty `ips` with no `no_ip_code`."""
    _, rec = lookup(name)
    kind = (rec or {}).get("kind")
    entry = {"dn": EVIL if kind == "wrong-host" else name}
    if rec is None:
        return {**entry, **{"v" + f: v2_block([], 60, "DomainNotExist") for f in ("4", "6") if f in families}}
    if kind == "empty":
        return {**entry, "v4": v2_block([], 60), "v6": v2_block([], 60)}
    v4, v6, ttl, _ = fields(rec)
    for family, ips in (("4", v4), ("6", v6)):
        if family not in families:
            continue
        block = v2_block(ips, ttl) if ips else v2_block([], 60, "RRNotExist")
        if ips and kind == "bad-type":
            block = {"ips": ips[0], "ttl": str(ttl)}
        if ips and kind == "dup-key":
            block = DupKey(block, "ips", [TRAP])
        entry["v" + family] = block
    return entry

def aliyun_v2(h, query):
    """GET /v2/d: the request checked by aliyun_v2.parse, then `{"code":"success","mode":N,"data":…}` with `mode` a
    number, in the mode of the request (AND resolve/ResolveHostResponseParser.java L24-40 and iOS
    HttpdnsRemoteResolver.m extractDataContent L126-145 decrypt by the response's `mode`). `data` is
    `{"cip":…,"answers":[…]}` (the product document's response table; iOS reads `data.cip`), in m=1|2 Base64 of
    IV ‖ ciphertext [‖ tag] of its JSON text under a fresh random IV (AND impl/AESEncryptService.java decrypt
    L92-138). A batch holding a special name behaves as in v1 (special())."""
    try:
        req = v2.parse(query, ALIYUN_ACCOUNTS, SECRETS["aliyun"], SECRETS["aliyun-aes"], NAME_RE.match,
                       lambda ip: ips_ok(ip, 1))
    except v2.V2Error as e:
        return aliyun_err(e.status, e.code)
    for n in req.names:
        STATS.name(n)
    sp = special(req.names, "aliyun")
    if sp:
        return sp
    data = {"cip": req.cip or h.client_address[0], "answers": [v2_answer(n, req.families) for n in req.names]}
    if req.mode == v2.PLAIN:
        return jreply(200, {"code": "success", "mode": 0, "data": data})
    iv = os.urandom(v2.IV_LENGTH[req.mode])
    blob = v2.encrypt_data(req.mode, SECRETS["aliyun-aes"], render_dupkeys(data), iv)
    return jreply(200, {"code": "success", "mode": int(req.mode), "data": blob})

SS_REGIONS = ("cn", "hk", "sg", "us", "de", "global")  # the service-discovery document's `region` values

def aliyun_ss(h, account, q):
    """GET /{account}/ss: the service addresses (AND serverip/UpdateRegionServerTask.java L26-29 sends platform,
    sdk_version, region=global, sid; iOS Scheduler/HttpdnsScheduleExecutor.m L54-73; none signs it, so `n`/`t`/`s`
    are ignored here). The answer names the service-ip listener of the asking listener's scheme, with its port in
    `service_ip_port` (AND serverip/UpdateRegionServerResponse.java fromResponse L81-130 reads service_ip,
    service_ipv6, service_ip_port, service_ipv6_port; config/ServerConfig.java getPort L59-65 connects to port i
    of address i, the scheme's default port when none is given). A /ss answered here ends the account's
    /_v2/fail-services."""
    region = arg(q, "region") or "cn"
    if region not in SS_REGIONS:
        return aliyun_err(400, "InvalidRegion")  # fixture
    STATS.fail_services(account, False)
    port = SERVICE["tls"] if h.server.tls else SERVICE["http"]
    return jreply(200, {"service_ip": [SERVICE["ip"]], "service_ipv6": [], "service_ip_port": [port],
                        "service_ipv6_port": []})

def v2_account(path, query):
    """The account of a /v2/d ("" when it names none) or /{account}/ss request; None for any other path."""
    if path == "/v2/d":
        try:
            return v2.raw_params(query).get("id") or ""
        except v2.V2Error:
            return ""
    m = re.fullmatch(r"/([^/]+)/ss", path)
    return m.group(1) if m else None

def v2_entry(h, url, account, response):
    """The /_v2/log entry of one /v2/d or /ss request: where and how it arrived and what it got."""
    status, body, ctype = response
    code = None
    if ctype.startswith("application/json"):
        try:
            obj = json.loads(body)
            code = obj.get("code") if isinstance(obj, dict) and isinstance(obj.get("code"), str) else None
        except ValueError:
            pass
    names = v2.quiet_names(url.query, SECRETS["aliyun-aes"]) if url.path == "/v2/d" else []
    mode = None
    if url.path == "/v2/d":
        try:
            mode = v2.raw_params(url.query).get("m")
        except v2.V2Error:
            pass
    return {"path": url.path, "listener": h.server.label, "method": h.command, "account": account, "mode": mode,
            "query": url.query, "host": h.headers.get("Host"), "sni": getattr(h.connection, "lab_sni", None),
            "status": status, "code": code, "names": names,
            "names_in_clear": mode in (v2.CBC, v2.GCM) and v2.names_in_clear(url.query, names)}

def control(url):
    """The /_ paths: counters and the v2 controls. None for any other path."""
    q = parse_qs(url.query)
    if url.path == "/_stats":
        return jreply(200, STATS.snapshot())
    if url.path == "/_reset":
        STATS.reset()
        return jreply(200, {"ok": True})
    if url.path == "/_v2/log":
        return jreply(200, {"requests": STATS.v2_log(arg(q, "name"), arg(q, "id"), arg(q, "path"))})
    if url.path == "/_v2/fail-services":
        account = arg(q, "id")
        if account not in ALIYUN_ACCOUNTS:
            return jreply(400, {"error": "id must name a lab account"})
        STATS.fail_services(account, True)
        return jreply(200, {"ok": True})
    return None


# ---------------------------------------------------------- DNSPod HTTPDNS
def dnspod_text(name, qtype, want_ttl, q, client_ip):
    _, rec = lookup(name)
    if not rec or rec.get("kind") == "empty":
        return ""
    v4, v6, ttl, _ = fields(rec)
    ttl = "sixty" if rec.get("kind") == "bad-type" else ttl

    def part(ips):
        return ";".join(ips) + (f",{ttl}" if want_ttl else "") if ips else "0"

    if qtype == "addrs":
        body = part(v4) + "-" + part(v6) if v4 or v6 else ""
    else:
        ips = v6 if qtype == "aaaa" else v4
        body = part(ips) if ips else ""
    if body and arg(q, "query") == "1":
        body = (EVIL if rec.get("kind") == "wrong-host" else name) + ".:" + body
    if body and arg(q, "clientip") == "1":
        body += "|" + client_ip
    return body

def dnspod(h, q):
    """Errors (bad token, unknown id, undecryptable dn, bad type) answer 200 with an empty body."""
    dn, token, ident, alg = arg(q, "dn"), arg(q, "token"), arg(q, "id"), None
    ip = arg(q, "ip")
    if not dn:
        return reply(200, "")
    if token is not None:
        if not hmac.compare_digest(token.encode(), SECRETS["dnspod-token"].encode()):
            return reply(200, "")
    elif ident is not None:
        alg = (arg(q, "alg") or "des").lower()
        if ident != DNSPOD_ID or alg not in ("des", "aes"):
            return reply(200, "")
        try:
            dn = dnspod_crypt(alg, dn, decrypt=True)
            ip = dnspod_crypt(alg, ip, decrypt=True) if ip else None
        except (ValueError, UnicodeDecodeError, OSError, subprocess.SubprocessError):
            return reply(200, "")
    name = norm(dn)
    qtype = (arg(q, "type") or "a").lower()
    if not NAME_RE.match(name) or qtype not in ("a", "aaaa", "addrs"):
        return reply(200, "")
    STATS.name(name)
    sp = special([name], "dnspod")
    if sp:
        return sp
    text = dnspod_text(name, qtype, arg(q, "ttl") == "1", q, ip or h.client_address[0])
    if alg and text:
        text = dnspod_crypt(alg, text)
    return reply(200, text)


# ------------------------------------------------------------------ DoH JSON
TYPES = {"A": 1, "NS": 2, "CNAME": 5, "SOA": 6, "PTR": 12, "MX": 15, "TXT": 16, "AAAA": 28, "SRV": 33,
         "HTTPS": 65, "ANY": 255}

def doh_type(value):
    v = value.upper()
    if v.isdigit():
        return int(v) if 1 <= int(v) <= 65535 else None
    return TYPES.get(v)

def doh(path, q):
    ctype = "application/dns-json" if path == "/dns-query" else "application/json"
    name, qtype = arg(q, "name"), doh_type(arg(q, "type") or "A")
    if not name:
        return jreply(400, {"error": "missing name parameter"}, ctype)
    name = norm(name)
    if qtype is None or not NAME_RE.match(name):
        return jreply(400, {"error": "invalid name or type"}, ctype)
    STATS.name(name)
    sp = special([name], "doh")
    if sp:
        return sp
    ans = {"Status": 0, "TC": False, "RD": True, "RA": True, "AD": False, "CD": False,
           "Question": [{"name": name + ".", "type": qtype}]}
    rec = lookup(name)[1] if name.endswith(".any.test") else ZONE.get(name)
    if rec is None:
        ans["Status"] = 3
        return jreply(200, ans, ctype)
    records, owner = [], name
    if rec.get("kind") == "cname-loop":  # name -> loop-b.test -> name
        b = "loop-b.test."
        ans["Answer"] = [{"name": name + ".", "type": 5, "TTL": 60, "data": b},
                         {"name": b, "type": 5, "TTL": 60, "data": name + "."}]
        return jreply(200, ans, ctype)
    if "cname" in rec:
        records.append({"name": name + ".", "type": 5, "TTL": rec.get("ttl", 60), "data": rec["cname"] + "."})
        owner, rec = lookup(name)
        if qtype == 5:
            rec = {}
    v4, v6, ttl, _ = fields(rec)
    owner = EVIL if rec.get("kind") == "wrong-host" else owner
    for rtype, ips in ((1, v4), (28, v6)):
        if qtype == rtype:
            records += [{"name": owner + ".", "type": rtype, "TTL": ttl, "data": ip} for ip in ips]
    if rec.get("kind") == "bad-type":
        ans["Answer"] = {}
    elif rec.get("kind") == "dup-key" and records:
        ans["Answer"] = [DupKey(r, "data", TRAP) for r in records]
    elif records:
        ans["Answer"] = records
    return jreply(200, ans, ctype)


# ------------------------------------------------------------------ DoH wire
WIRE_CTYPE = "application/dns-message"

def wire_name(name):
    return b"".join(bytes([len(label)]) + label.encode() for label in name.split(".") if label) + b"\0"

def wire_question(body):
    """(id, name, qtype, question bytes) of a one-question query; ValueError if it is not one."""
    if len(body) < 12 or int.from_bytes(body[4:6], "big") != 1:
        raise ValueError("not a one-question query")
    pos, labels = 12, []
    while body[pos]:
        n = body[pos]
        if n & 0xC0 or pos + 1 + n > len(body):
            raise ValueError("bad question name")
        labels.append(body[pos + 1:pos + 1 + n].decode("ascii"))
        pos += 1 + n
    end = pos + 5
    if end > len(body):
        raise ValueError("short question")
    return int.from_bytes(body[:2], "big"), norm(".".join(labels)), int.from_bytes(body[pos + 1:pos + 3], "big"), body[12:end]

def wire_rr(owner, rtype, rdata, ttl=60):
    return owner + rtype.to_bytes(2, "big") + b"\0\1" + ttl.to_bytes(4, "big") + len(rdata).to_bytes(2, "big") + rdata

def wire(body):
    """An RFC 8484 answer (POST body in, application/dns-message out) for zone names and the wire corpus kinds:
    cname-loop (two CNAMEs in a loop), compression-loop (the answer's owner is a pointer to itself),
    bad-hostname (an A record whose rdata is a name). Unknown names get NXDOMAIN."""
    try:
        qid, name, qtype, question = wire_question(body)
    except (ValueError, IndexError, UnicodeDecodeError):
        return reply(400, "bad query\n")
    STATS.name(name)
    sp = special([name], "wire")
    if sp:
        return sp
    _, rec = lookup(name)
    kind = (rec or {}).get("kind")
    rcode, answers = (3 if rec is None else 0), []
    qptr = b"\xc0\x0c"  # the question's name
    if kind == "cname-loop":
        b = wire_name("loop-b.test")
        answers = [wire_rr(qptr, 5, b), wire_rr(b, 5, qptr)]
    elif kind == "compression-loop":
        at = 12 + len(question)
        answers = [wire_rr((0xC000 | at).to_bytes(2, "big"), qtype, b"\x7f\0\0\2")]
    elif name == "bad-hostname.test" and qtype == 1:
        answers = [wire_rr(qptr, 1, wire_name(EVIL))]
    elif rec and kind not in ("empty", "wrong-host"):
        v4, v6, ttl, _ = fields(rec)
        family = {1: (v4, socket.AF_INET), 28: (v6, socket.AF_INET6)}.get(qtype, ([], None))
        for ip in family[0]:
            answers.append(wire_rr(qptr, qtype, socket.inet_pton(family[1], ip), max(0, min(ttl, 2**31 - 1))))
    flags = 0x8180 | rcode
    head = qid.to_bytes(2, "big") + flags.to_bytes(2, "big") + b"\0\1" + len(answers).to_bytes(2, "big") + b"\0\0\0\0"
    return reply(200, head + question + b"".join(answers), WIRE_CTYPE)


# ------------------------------------------------------------------ serving
def arg(q, key):
    v = q.get(key)
    return v[0] if v else None

def route(h, path, query):
    if path == "/v2/d":
        return aliyun_v2(h, query)
    q = parse_qs(query, keep_blank_values=True)
    if path == "/d":
        return dnspod(h, q)
    if path in ("/resolve", "/dns-query"):
        return doh(path, q)
    m = re.fullmatch(r"/([^/]+)/([^/]+)", path)
    if m:
        return aliyun(h, m.group(1), m.group(2), q)
    return reply(404, "not found\n")

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes: without TCP_NODELAY a reused
    # keep-alive connection waits ~40 ms for the delayed ACK on every answer.
    disable_nagle_algorithm = True
    server_version = "httpdns-fixture"
    timeout = 30

    def do_GET(self):
        MODE.kind = None
        url = urlsplit(self.path)
        response = control(url)
        if response:
            return self.send(*response)
        STATS.count(self.server.label, url.path)
        account = v2_account(url.path, url.query)
        if self.server.fail or (self.server.service and account and STATS.services_fail(account)):
            # Count the names asked here as "fail:NAME", so a test can tell its own requests from others'.
            q = parse_qs(url.query)
            names = [norm(name) for key, values in q.items() if key in ("host", "dn", "name")
                     for value in values for name in value.split(",")]
            if url.path == "/v2/d" and "enc" in q:  # v2 encrypted: the names inside enc
                names += v2.quiet_names(url.query, SECRETS["aliyun-aes"])
            for name in names:
                STATS.name("fail:" + name)
            response = reply(503, "service unavailable\n")
        else:
            try:
                response = route(self, url.path, url.query)
            except Exception as e:  # a fixture bug must still answer
                log(f"{self.server.label}: error handling {self.path!r}: {e!r}")
                response = reply(500, "fixture error\n")
        if account is not None:
            STATS.v2(v2_entry(self, url, account, response))
        self.send(*response)

    def not_allowed(self):
        url = urlsplit(self.path)
        STATS.count(self.server.label, url.path)
        response = jreply(405, {"code": "MethodNotAllowed"})
        account = v2_account(url.path, url.query)
        if account is not None:
            STATS.v2(v2_entry(self, url, account, response))
        self.send(*response)

    do_PUT = do_DELETE = do_PATCH = not_allowed

    def do_POST(self):
        """DoH wire format (RFC 8484) at /dns-query-wire; every other POST is not allowed."""
        MODE.kind = None
        if urlsplit(self.path).path != "/dns-query-wire" or self.server.fail:
            return self.not_allowed()
        STATS.count(self.server.label, "/dns-query-wire")
        length = int(self.headers.get("Content-Length") or 0)
        if not 0 < length <= 65535:
            return self.send(*reply(400, "bad length\n"))
        try:
            self.send(*wire(self.rfile.read(length)))
        except Exception as e:  # a fixture bug must still answer
            log(f"{self.server.label}: error handling POST {self.path!r}: {e!r}")
            self.send(*reply(500, "fixture error\n"))

    def send(self, status, body, ctype):
        """Sends one response, as the request's MODE says: hang never answers, drip sends the whole response
        (status line included) one byte every DRIP_SECONDS, huge pads the body with spaces to HUGE_BYTES, streamed."""
        kind, MODE.kind = getattr(MODE, "kind", None), None
        if kind == "hang":
            self.close_connection = True
            self.connection.settimeout(120)
            try:
                while self.connection.recv(4096):  # until the client goes away
                    pass
            except OSError:
                pass
            return
        if ctype == "redirect":
            self.send_response(status)
            self.send_header("Location", self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if kind is None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        size = HUGE_BYTES if kind == "huge" else len(body)
        head = (f"HTTP/1.1 {status} {self.responses.get(status, ('',))[0]}\r\nServer: {self.server_version}\r\n"
                f"Content-Type: {ctype}\r\nContent-Length: {size}\r\n\r\n").encode()
        self.log_request(status, size)
        try:
            if kind == "drip":
                self.close_connection = True
                for i in range(len(head + body)):
                    self.wfile.write((head + body)[i:i + 1])
                    self.wfile.flush()
                    time.sleep(DRIP_SECONDS)
                return
            self.close_connection = True
            self.wfile.write(head + body)
            if kind == "huge":
                chunk, left = b" " * 65536, size - len(body)
                while left > 0:
                    self.wfile.write(chunk[:left])
                    left -= min(left, len(chunk))
        except OSError as e:  # the client stopped reading: what the corpus expects of it
            log(f"{self.server.label} {self.client_address[0]}: {kind or 'reply'} cut by the client: {e!r}")
            self.close_connection = True

    def log_message(self, fmt, *args):
        log(f"{self.server.label} {self.client_address[0]} " + fmt % args)

class Server(ThreadingHTTPServer):
    daemon_threads = True

    def server_bind(self):  # skip HTTPServer's reverse DNS lookup of the address
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]

    def handle_error(self, request, client_address):
        log(f"{self.label} {client_address[0]}: connection error: {sys.exc_info()[1]!r}")

def log(msg):
    sys.stderr.write(time.strftime("%Y-%m-%dT%H:%M:%S ") + msg.replace("\n", "\\n") + "\n")
    sys.stderr.flush()

def tls_context(cert, key):
    """A server context that notes the client's SNI on the connection (`lab_sni`, for /_v2/log)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    ctx.set_alpn_protocols(["http/1.1"])
    ctx.sni_callback = lambda sock, name, _: setattr(sock, "lab_sni", name)
    return ctx

def read_secrets(directory):
    """The secret files; the Alibaba signing secret and AES key must be hex (the v2 API hex-decodes both)."""
    for key, file in (("aliyun", "aliyun.secret"), ("aliyun-aes", "aliyun-aes.key"), ("dnspod-aes", "dnspod-aes.key"),
                      ("dnspod-des", "dnspod-des.key"), ("dnspod-token", "dnspod.token")):
        with open(os.path.join(directory, file)) as f:
            SECRETS[key] = f.read().strip()
    if not v2.is_hex_key(SECRETS["aliyun"]):
        sys.exit("httpdns_fixture: aliyun.secret must be hex (the v2 API signs with its hex-decoded bytes)")
    if not v2.is_hex_key(SECRETS["aliyun-aes"], 16):
        sys.exit("httpdns_fixture: aliyun-aes.key must be 32 hex digits (an AES-128 key)")
    SECRETS["aliyun-aes"] = bytes.fromhex(SECRETS["aliyun-aes"])

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ip", default="127.0.0.5")
    ap.add_argument("--service-ip", default="127.0.0.10", help="the address /ss names (service-http, service-tls)")
    for name in ("http", "aliyun-tls", "tls", "fail", "aliyun-v2-tls"):
        ap.add_argument(f"--{name}-port", type=int, required=True)
    for name in ("aliyun-cert", "aliyun-key", "aliyun-v2-cert", "aliyun-v2-key", "cert", "key"):
        ap.add_argument(f"--{name}", required=True)
    ap.add_argument("--secrets", required=True,
                    help="dir with aliyun.secret aliyun-aes.key dnspod-aes.key dnspod-des.key dnspod.token")
    ap.add_argument("--pidfile")
    a = ap.parse_args()
    read_secrets(a.secrets)
    check_des()
    wrong = v2.check_known_answers()
    if wrong:
        sys.exit(f"httpdns_fixture: {', '.join(wrong)} disagree with the known-answer vectors (openssl, cryptography)")
    SERVICE.update(ip=a.service_ip, http=a.http_port, tls=a.aliyun_v2_tls_port)
    v2_ctx = tls_context(a.aliyun_v2_cert, a.aliyun_v2_key)
    # label, address, port, TLS context, fail (503 to everything), service (a /ss service address)
    listeners = [("http", a.ip, a.http_port, None, False, False),
                 ("aliyun-tls", a.ip, a.aliyun_tls_port, tls_context(a.aliyun_cert, a.aliyun_key), False, False),
                 ("tls", a.ip, a.tls_port, tls_context(a.cert, a.key), False, False),
                 ("fail", a.ip, a.fail_port, None, True, False),
                 ("aliyun-v2-tls", a.ip, a.aliyun_v2_tls_port, v2_ctx, False, False),
                 ("service-http", a.service_ip, a.http_port, None, False, True),
                 ("service-tls", a.service_ip, a.aliyun_v2_tls_port, v2_ctx, False, True)]
    servers = []
    for label, ip, port, ctx, fail, service in listeners:
        try:
            srv = Server((ip, port), Handler)
        except OSError as e:
            sys.exit(f"httpdns_fixture: cannot listen on {ip}:{port} ({label}): {e.strerror}")
        srv.label, srv.fail, srv.service, srv.tls = label, fail, service, ctx is not None
        if ctx:  # handshake lazily in the handler thread, not in accept()
            srv.socket = ctx.wrap_socket(srv.socket, server_side=True, do_handshake_on_connect=False)
        servers.append(srv)
    labdaemon.serve(servers, a.pidfile, log, ", ".join(f"{s.label}={s.server_address[0]}:{s.server_port}" for s in servers))


if __name__ == "__main__":
    main()
