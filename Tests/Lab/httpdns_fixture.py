#!/usr/bin/env python3
"""Fake vendor HTTPDNS servers for the ipcurl lab (python3 stdlib + the openssl CLI).

One process serves the same APIs on several listeners, all on one loopback IP:

  http          plain HTTP
  aliyun-tls    HTTPS, certificate for resolvers-cn.httpdns.aliyuncs.com only
  tls           HTTPS, certificate for IP:<ip> and httpdns.test
  fail          plain HTTP, 503 for every request (except /_stats and /_reset)

APIs (see Tests/Lab/README.md for every status and body):

  /{account}/d, /sign_d, /resolve, /sign_resolve   Alibaba Cloud HTTPDNS (JSON)
  /d?dn=..                                         Tencent DNSPod HTTPDNS: plain, DES/AES (id=, alg=), token
  /resolve?name=.., /dns-query?name=..             DoH JSON (Google / Cloudflare style)
  POST /dns-query-wire                             DoH wire format (RFC 8484)
  /_stats, /_reset                                 request counters (global, all listeners)

Names in ZONE select malformed answers and misbehaving servers (hang, drip, huge, portal, redirect loop, ...).
DES/AES run in `openssl enc` subprocesses, so the fixture shares no crypto code with the client.
Started by lab.sh; logs go to stderr.
"""
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
from collections import Counter
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

ALIYUN_ACCOUNTS = {"139450": False, "139451": True}  # account -> signing enforced
DNSPOD_ID = "1234"
SECRETS = {}  # aliyun, dnspod-aes, dnspod-des, dnspod-token; filled by main()

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
class Stats:
    """Global counters (all listeners together). count(): one API request (/_stats and /_reset are not
    counted); name(): one queried name, after decryption, once per host of a batch."""

    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        with self.lock:
            self.data = {"requests": 0, "by_path": Counter(), "by_listener": Counter(), "by_name": Counter()}

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
            return {k: dict(v) if isinstance(v, Counter) else v for k, v in self.data.items()}

STATS = Stats()

# ------------------------------------------------------------------- crypto
DES_PROVIDER_ARGS = ["-provider", "legacy", "-provider", "default"]  # OpenSSL 3: DES lives in "legacy"

def openssl_enc(args, data):
    p = subprocess.run(["openssl", "enc", *args], input=data, capture_output=True, timeout=10)
    if p.returncode != 0:
        raise ValueError(p.stderr.decode(errors="replace").strip() or "openssl enc failed")
    return p.stdout

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
    if account not in ALIYUN_ACCOUNTS:
        return aliyun_err(403, "InvalidAccount")
    if api not in ("d", "sign_d", "resolve", "sign_resolve"):
        return aliyun_err(404, "NotFound")
    signed, batch = api.startswith("sign_"), api.endswith("resolve")
    if ALIYUN_ACCOUNTS[account] and not signed:
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

def route(h, path, q):
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
        if url.path == "/_stats":
            return self.send(*jreply(200, STATS.snapshot()))
        if url.path == "/_reset":
            STATS.reset()
            return self.send(*jreply(200, {"ok": True}))
        STATS.count(self.server.label, url.path)
        if self.server.fail:
            # Count the names asked here as "fail:NAME", so a test can tell its own requests from others'.
            for key, values in parse_qs(url.query).items():
                if key in ("host", "dn", "name"):
                    for value in values:
                        for name in value.split(","):
                            STATS.name("fail:" + norm(name))
            return self.send(*reply(503, "service unavailable\n"))
        try:
            self.send(*route(self, url.path, parse_qs(url.query, keep_blank_values=True)))
        except Exception as e:  # a fixture bug must still answer
            log(f"{self.server.label}: error handling {self.path!r}: {e!r}")
            self.send(*reply(500, "fixture error\n"))

    def not_allowed(self):
        STATS.count(self.server.label, urlsplit(self.path).path)
        self.send(*jreply(405, {"code": "MethodNotAllowed"}))

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
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    ctx.set_alpn_protocols(["http/1.1"])
    return ctx

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ip", default="127.0.0.5")
    for name in ("http", "aliyun-tls", "tls", "fail"):
        ap.add_argument(f"--{name}-port", type=int, required=True)
    ap.add_argument("--aliyun-cert", required=True)
    ap.add_argument("--aliyun-key", required=True)
    ap.add_argument("--cert", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--secrets", required=True, help="dir with aliyun.secret dnspod-aes.key dnspod-des.key dnspod.token")
    ap.add_argument("--pidfile")
    a = ap.parse_args()
    for key, file in (("aliyun", "aliyun.secret"), ("dnspod-aes", "dnspod-aes.key"),
                      ("dnspod-des", "dnspod-des.key"), ("dnspod-token", "dnspod.token")):
        with open(os.path.join(a.secrets, file)) as f:
            SECRETS[key] = f.read().strip()
    check_des()
    listeners = [("http", a.http_port, None, False),
                 ("aliyun-tls", a.aliyun_tls_port, tls_context(a.aliyun_cert, a.aliyun_key), False),
                 ("tls", a.tls_port, tls_context(a.cert, a.key), False),
                 ("fail", a.fail_port, None, True)]
    servers = []
    for label, port, ctx, fail in listeners:
        try:
            srv = Server((a.ip, port), Handler)
        except OSError as e:
            sys.exit(f"httpdns_fixture: cannot listen on {a.ip}:{port} ({label}): {e.strerror}")
        srv.label, srv.fail = label, fail
        if ctx:  # handshake lazily in the handler thread, not in accept()
            srv.socket = ctx.wrap_socket(srv.socket, server_side=True, do_handshake_on_connect=False)
        servers.append(srv)
    labdaemon.serve(servers, a.pidfile, log, ", ".join(f"{s.label}={a.ip}:{s.server_port}" for s in servers))


if __name__ == "__main__":
    main()
