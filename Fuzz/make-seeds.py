#!/usr/bin/env python3
"""Writes the seed corpora in Corpus/<Target>/: answers in the shapes the vendors document and the lab fixture
(Tests/Lab/httpdns_fixture.py) serves. Deterministic except the AES IVs. Run from anywhere: python3 make-seeds.py"""
import base64
import json, os, pathlib, shutil, struct, subprocess

ROOT = pathlib.Path(__file__).resolve().parent / "Corpus"

def write(target, seeds):
    folder = ROOT / target
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for index, seed in enumerate(seeds):
        (folder / f"seed-{index:02d}").write_bytes(seed if isinstance(seed, bytes) else seed.encode())

def js(obj):
    return json.dumps(obj, separators=(",", ":"))

# ------------------------------------------------------------------ DNS wire (RFC 1035)
def name(text):
    return b"".join(bytes([len(label)]) + label.encode() for label in text.rstrip(".").split(".")) + b"\0"

def rr(owner, rtype, ttl, rdata):
    return owner + struct.pack(">HHIH", rtype, 1, ttl, len(rdata)) + rdata

def message(qname, qtype, answers=(), authority=(), rcode=0, flags=0x8180, ident=0x1234):
    header = struct.pack(">HHHHHH", ident, flags | rcode, 1, len(answers), len(authority), 0)
    return header + name(qname) + struct.pack(">HH", qtype, 1) + b"".join(answers) + b"".join(authority)

PTR = b"\xc0\x0c"  # the question's name
def soa(owner, ttl=300, minimum=60):
    return rr(owner, 6, ttl, name("ns.example.com") + name("hostmaster.example.com") + struct.pack(">IIIII", 1, 7200, 3600, 1209600, minimum))

dns = [
    message("example.com", 1, [rr(PTR, 1, 300, bytes([93, 184, 216, 34]))]),
    message("example.com", 1, [rr(PTR, 1, 60, bytes([192, 0, 2, 1])), rr(PTR, 1, 60, bytes([192, 0, 2, 2]))]),
    message("example.com", 28, [rr(PTR, 28, 300, bytes.fromhex("20010db8000000000000000000000001"))]),
    message("www.example.com", 1, [rr(PTR, 5, 120, name("cdn.example.net")),
                                   rr(name("cdn.example.net"), 1, 30, bytes([198, 51, 100, 7]))]),
    message("www.example.com", 28, [rr(PTR, 5, 120, b"\x03cdn\xc0\x10"),
                                    rr(b"\x03cdn\xc0\x10", 28, 30, bytes.fromhex("20010db8000000000000000000000002"))]),
    message("a.test", 1, [], [soa(b"\xc0\x0e")]),  # NODATA with the zone's SOA
    message("nx.example.com", 1, [], [soa(name("example.com"))], rcode=3),
    message("example.com", 1, [rr(PTR, 1, 0x80000000, bytes([127, 0, 0, 2]))]),
    message("example.com", 1, [rr(PTR, 16, 60, b"\x05hello"), rr(PTR, 1, 60, bytes([10, 0, 0, 1]))]),
]
write("FuzzDNSMessage", dns)

# ------------------------------------------------------------------ DoH JSON (Google / Cloudflare); first byte: 0 A, 1 AAAA
def doh(qname, qtype, answer=None, status=0):
    obj = {"Status": status, "TC": False, "RD": True, "RA": True, "AD": False, "CD": False,
           "Question": [{"name": qname + ".", "type": qtype}]}
    if answer is not None:
        obj["Answer"] = answer
    return js(obj)

write("FuzzDoHJSON", [
    "0" + doh("example.com", 1, [{"name": "example.com.", "type": 1, "TTL": 300, "data": "93.184.216.34"}]),
    "1" + doh("example.com", 28, [{"name": "example.com.", "type": 28, "TTL": 300, "data": "2001:db8::1"}]),
    "0" + doh("example.com", 1, [{"name": "example.com.", "type": 5, "TTL": 60, "data": "cdn.example.net."},
                                 {"name": "cdn.example.net.", "type": 1, "TTL": 20, "data": "198.51.100.7"},
                                 {"name": "cdn.example.net.", "type": 1, "TTL": 20, "data": "198.51.100.8"}]),
    "0" + doh("example.com", 1, status=3),
    "0" + doh("example.com", 1),
    "0" + doh("example.com", 1, {}),
    "0" + doh("example.com", 1, [{"name": "evil.example.", "type": 1, "TTL": 60, "data": "127.0.0.2"}]),
])

# ------------------------------------------------------------------ Alibaba Cloud HTTPDNS; first byte: 0 HTTP 200, 1 HTTP 403
single = [
    {"host": "www.example.com", "ips": ["192.0.2.1", "192.0.2.2"], "ttl": 60, "origin_ttl": 600, "client_ip": "198.51.100.1"},
    {"host": "www.example.com", "ips": ["192.0.2.1"], "ipsv6": ["2001:db8::1"], "ttl": 300, "origin_ttl": 300},
    {"host": "www.example.com", "ips": [], "ipsv6": [], "ttl": 60, "client_ip": "198.51.100.1"},
    {"host": "www.example.com", "ips": "127.0.0.2", "ttl": "60"},
    {"host": "www.example.com", "ips": ["127.0.0.2"], "ttl": -5},
    {"host": "evil.example", "ips": ["127.0.0.2"], "ttl": 60},
]
write("FuzzAliyunSingle", ["0" + js(d) for d in single] + ["1" + js({"code": "InvalidAccount"}), "1" + js({"code": "SignatureExpired"})])

def batch_entry(host, v4, v6, ttl=60, typed=True):
    if not typed:
        return [{"host": host, "ips": v4, "ipsv6": v6, "ttl": ttl, "origin_ttl": ttl}]
    return [{"host": host, "ips": v4, "type": 1, "ttl": ttl, "origin_ttl": ttl}, {"host": host, "ips": v6, "type": 28, "ttl": ttl}]

write("FuzzAliyunBatch", [
    js({"dns": batch_entry("a.example.com", ["192.0.2.1"], ["2001:db8::1"]) + batch_entry("b.example.com", ["192.0.2.2"], [])
               + batch_entry("www.example.com", [], ["2001:db8::3"], ttl=300)}),
    js({"dns": batch_entry("a.example.com", ["192.0.2.1", "192.0.2.9"], [], typed=False)
               + batch_entry("www.example.com", ["192.0.2.3"], [], typed=False)}),
    js({"dns": []}),
    js({"dns": [{"host": "a.example.com", "ips": ["192.0.2.1"], "type": 5, "ttl": 60}]}),
])

# ------------------------------------------------------------------ DNSPod: v4s,ttl-v6s,ttl
plain = ["192.0.2.1;192.0.2.2,60-2001:db8::1,60", "192.0.2.1,120", "0-2001:db8::1;2001:db8::2,300", "192.0.2.1,-5-0",
         "0", "", "192.0.2.1,60-0\n", "192.0.2.1,sixty", "192.0.2.1;bad,60"]
write("FuzzDNSPodPlain", plain)

def openssl(args, data):
    return subprocess.run(["openssl", "enc", *args], input=data, capture_output=True, check=True).stdout

def aes(text):
    iv = os.urandom(16)
    key = b"0123456789abcdef"
    return (iv + openssl(["-aes-128-cbc", "-K", key.hex(), "-iv", iv.hex(), "-nosalt"], text.encode())).hex()

def des(text):
    return openssl(["-des-ecb", "-provider", "legacy", "-provider", "default", "-K", b"01234567".hex(), "-nosalt"],
                   text.encode()).hex().upper()

write("FuzzDNSPodAES", [aes(text) for text in plain if text] + ["", "00ff"])
write("FuzzDNSPodDES", [des(text) for text in plain if text] + ["", "0011223344556677\n"])

# ------------------------------------------------------------------ Alibaba Cloud HTTPDNS v2 (/v2/d), key 000102…0f
# Byte 0: bit 0 HTTP 200 or 403; bits 1-2 the query's mode (0 plain, 1 CBC, 2 GCM); bits 3-4 the families (0 both,
# 1 IPv4, 2 IPv6). GCM is built from the openssl command's CTR and ECB modes and GHASH here (`openssl enc` has no GCM).
V2_KEY = bytes(range(16))

def v2_selector(mode=0, families=0, status=200):
    return bytes([(1 if status != 200 else 0) | mode << 1 | families << 3])

def ecb(block):
    return openssl(["-aes-128-ecb", "-K", V2_KEY.hex(), "-nopad"], block)

def ghash(h, data):
    def mul(x, y):  # GF(2^128) with GCM's bit order (NIST SP 800-38D, algorithm 1)
        z, v = 0, y
        for i in range(127, -1, -1):
            if x >> i & 1:
                z ^= v
            v = v >> 1 ^ (0xE1 << 120) if v & 1 else v >> 1
        return z
    x, h = 0, int.from_bytes(h, "big")
    padded = data + bytes(-len(data) % 16) + struct.pack(">QQ", 0, len(data) * 8)
    for start in range(0, len(padded), 16):
        x = mul(x ^ int.from_bytes(padded[start:start + 16], "big"), h)
    return x.to_bytes(16, "big")

def v2_seal(text, mode, iv):
    if mode == 1:
        return iv + openssl(["-aes-128-cbc", "-K", V2_KEY.hex(), "-iv", iv.hex(), "-nosalt"], text.encode())
    ct = openssl(["-aes-128-ctr", "-K", V2_KEY.hex(), "-iv", (iv + b"\0\0\0\2").hex()], text.encode())
    tag = bytes(a ^ b for a, b in zip(ghash(ecb(bytes(16)), ct), ecb(iv + b"\0\0\0\1")))
    return iv + ct + tag

# The GCM above against the known answer, so a broken helper cannot write seeds that never open.
assert v2_seal('{"dn":"www.aliyun.com","q":"4"}', 2, bytes(range(12))).hex() == (
    "000102030405060708090a0be84ec3a04421d5233ca54feb5aca097ddd0879893ecfd1d49703cb0f2066df51cf84b0f41cdfc190ff201b9ce3b9e3")

def v2_answer(dn, v4=None, v6=None, ttl=60, v4_code=None, v6_code=None):
    entry = {"dn": dn}
    for key, ips, code in (("v4", v4, v4_code), ("v6", v6, v6_code)):
        if ips is not None or code is not None:
            entry[key] = {"ips": ips or [], "ttl": ttl, "extra": ""}
            if code:
                entry[key]["no_ip_code"] = code
    return entry

v2_data = [
    {"cip": "198.51.100.1", "answers": [v2_answer("www.example.com", ["192.0.2.1", "192.0.2.2"], ["2001:db8::1"], 300),
                                        v2_answer("a.example.com", ["192.0.2.3"], [], v6_code="RRNotExist"),
                                        v2_answer("b.example.com", [], [], v4_code="DomainNotExist", v6_code="DomainNotExist")]},
    {"answers": [v2_answer("www.example.com", ["192.0.2.1"], None, ttl=0)]},
    {"cip": "2001:db8::99", "answers": [v2_answer("b.example.com", None, ["2001:db8::2", "::ffff:192.0.2.9"], -5)]},
    {"answers": []},
]
v2_seeds = []
for index, data in enumerate(v2_data):
    for families in range(3):
        v2_seeds.append(v2_selector(0, families) + js({"code": "success", "mode": 0, "data": data}).encode())
    for mode in (1, 2):
        sealed = v2_seal(js(data), mode, bytes([index * 16 + n for n in range(16 if mode == 1 else 12)]))
        shown = mode if index % 2 == 0 else str(mode)  # a number or a numeric string, as the SDKs accept
        v2_seeds.append(v2_selector(mode) + js({"code": "success", "mode": shown, "data": base64.b64encode(sealed).decode()}).encode())
        v2_seeds.append(v2_selector(mode) + base64.b64encode(sealed))  # the data value alone: the decryption check
v2_seeds += [v2_selector(0, status=403) + js({"code": code}).encode()
             for code in ("InvalidSignature", "UnsignedInterfaceDisabled", "ServiceLevelDeny", "InvalidHost")]
v2_seeds += [v2_selector(0) + js({"code": "success", "cip": "192.0.2.77", "data": {"answers": [v2_answer("evil.example", ["127.0.0.9"])]}}).encode(),
             v2_selector(2) + js({"code": "success", "mode": 1, "data": base64.b64encode(v2_seal("{}", 1, bytes(16))).decode()}).encode()]
# Service discovery answers and stored service lists (the same target reads the rest as both).
v2_seeds += [v2_selector(0) + js(ss).encode() for ss in (
    {"service_ip": ["203.107.1.65", "203.107.1.34"], "service_ipv6": ["2401:b180:2000:30::1c"], "service_ip_port": [443, 8443],
     "service_ipv6_port": []},
    {"service_ip": ["192.0.2.1"], "service_status": "disable"},
    {"service_ip": ["0.0.0.0"], "service_ipv6": ["::ffff:192.0.2.1"]},
)]
def fnv1a128(text):
    """The cache's key digest (Sources/HTTPDNS/Policy/CacheKeyHash.swift): FNV-1a, 128-bit, as 32 hex digits."""
    value = 0x6c62272e07bb014262b821756295c58d
    for byte in text.encode():
        value = ((value ^ byte) * 0x0000000001000000000000000000013B) % (1 << 128)
    return "%032x" % value

v2_seeds += [v2_selector(0) + ("ipcurl-aliyun-services 1\nkey " + fnv1a128("k") + "\nscheme https\n"
                               "boot https://203.107.1.1:443 as resolvers.httpdns.aliyuncs.com\ndiscovered 1764000000\n"
                               "addresses 203.107.1.65:443 [2401:b180:2000:30::1c]:8443\n").encode()]
write("FuzzAliyunV2", v2_seeds)

# ------------------------------------------------------------------ --resolve and resolver command lines
write("FuzzResolveEntry", ["www.example.com:443:192.0.2.1", "+a.test:8443:127.0.0.2,[::1]", "example.com:80:2001:db8::1,192.0.2.1",
                           "Host.Example.:443:[2001:db8::1]", "x:0:1.2.3.4", "a.test:443:", "a_b.test:65535:10.0.0.1,10.0.0.1"])
write("FuzzResolverCommandLine", ["www.example.com:443:192.0.2.1\n", "www.example.com:443:192.0.2.1,[2001:db8::1]\r\n\n+WWW.example.com.:443:192.0.2.2",
                                  "-www.example.com:443\n", "www.example.com:80:192.0.2.1\n", "www.example.com:443:192.0.2.1 \n", ""])

# ------------------------------------------------------------------ cache files
def cache(host, family, addresses, ttl=60, stored=1764000000, source="aliyun", origin="aliyun (https://203.107.1.1)",
          insecure="no", unverified="no", version=2):
    marks = [f"insecure {insecure}", f"unverified {unverified}"] if version > 1 else []
    return "\n".join([f"ipcurl-dns-cache {version}", f"host {host}", f"family {family}", "provider 0123456789abcdef0123456789abcdef",
                      f"source {source}", f"origin {origin}"] + marks + [f"ttl {ttl}", f"stored {stored}", "addresses " + " ".join(addresses)]) + "\n"
write("FuzzCacheRecord", [cache("www.example.com", "v4", ["192.0.2.1", "192.0.2.2"]), cache("a.test", "v6", ["2001:db8::1"], source="doh", origin="doh https://127.0.0.1:8443/dns-query"),
                          cache("b.test", "v4", [], ttl=0), cache("b.test", "v4", ["2001:db8::1"]), cache("c.test", "v6", ["::1"], stored=1 << 41),
                          cache("d.test", "v4", ["192.0.2.3"], insecure="yes", unverified="yes"), cache("e.test", "v4", ["192.0.2.4"], unverified="maybe"),
                          cache("f.test", "v4", ["192.0.2.5"], version=1)])

# ------------------------------------------------------------------ -w formats; first byte: 0 success, 1 failed transfer
write("FuzzWriteOut", ["0%{http_code}\\n", "0%{remote_ip}:%{remote_port} %{time_total}s %{size_download}\\n", "0%{json}",
                       "1%{onerror}%{errormsg} (%{exitcode})\\n", "0%header{content-type}|%header{X-TEST}|%header{missing}",
                       "0%{stderr}to stderr%{stdout}to stdout %% 100%", "0%{certs}%{num_certs}%{url_effective}%{urlnum}",
                       "0%{DNS_SOURCE} %{dns_time} %{unknown_var} %{scheme} %{http_version}\\t\\r\\\\", "0plain text, no variables"])

# ------------------------------------------------------------------ the exporter's configuration (blackbox_exporter's)
fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "blackbox")
write("FuzzExporterConfig", [open(os.path.join(fixtures, name)).read() for name in ("example.yml", "debian-blackbox.yml")] + [
    """modules:
  http_2xx:
    prober: http
    timeout: 5s
    http:
      valid_status_codes: [200, 204]
      preferred_ip_protocol: ip4
      fail_if_body_not_matches_regexp: ['ok\\b']
      fail_if_header_matches: [{ header: Server, regexp: 'nginx/1\\.1', allow_missing: true }]
      httpdns: { doh: https://dns.example/dns-query, all_ips: true, compare_system: true }
  ping: { prober: icmp }
""",
    "modules: {}\n",
])

# ------------------------------------------------------------------ targets files (YAML and JSON)
write("FuzzTargetsFile", [
    """defaults: { all_ips: true, method: GET, headers: {X-Probe: ci}, expect: { status: 200, min_cert_days: 14 } }
resolver: { doh: https://dns.example/dns-query }
labels: { vantage: ci-shanghai }
targets:
  - name: api
    url: https://api.example.com/health
    expect: { status: [200, 204], body_contains: ok, max_time_ms: 800 }
""",
    """targets:
  - https://www.example.com/
  - name: second
    url: https://b.example.com/
    method: HEAD
    headers: { Accept: text/html }
resolver:
  resolve: [ "b.example.com:443:192.0.2.1", "www.example.com:443:192.0.2.2" ]
  no-fallback: true
  dns-timeout: 2
""",
    js({"targets": [{"name": "json", "url": "https://json.example/", "expect": {"status": 204, "header": {"server": "nginx"}}}],
        "resolver": {"aliyun-account": "139450", "fallback": False}}),
    "{\n\t\"targets\": [\"https://tabs.example/\"]\n}\n",
    "targets: [\n",
    "targets: &a [*a]\n",
])

# ------------------------------------------------------------------ -K config files and command lines (NUL-separated)
write("FuzzConfigFile", ["# comment\nurl = \"https://www.example.com/\"\n-s\n--max-time 5\nheader: \"X-A: \\\"b\\\"\\t\"\n",
                         "resolve www.example.com:443:192.0.2.1\ndoh = https://dns.example/dns-query\nwrite-out = \"%{http_code}\\n\"\n",
                         "verbose\noutput=/dev/null\nretry 3\nconfig other.conf\n", "user-agent \"unterminated\n", "aliyun-account 139450\r\ndnspod\r\n",
                         "# CRLF\r\nurl = \"https://www.example.com/\"\r\n-s\r\nheader: \"X-A: b\"\r\nmax-time 5\r\n\r\n",
                         "write-out = %{http_code}\rsilent\r\n/ comment\r\n* comment\r\n--output=/dev/null\r\nuser-agent \"open\r\n",
                         "data = a b\r\n-d :x\r\nretry == 3\r\nverbose\r",
                         # "-" and "=" followed by a combining mark: one Character each, two bytes to the parser
                         bytes.fromhex("0020380d730acc8b8ddd0a2d280a2d3120790d0a2d642078d10d0a2f227500202"
                                       "80a2dcc8b3d2e74610a")])
write("FuzzOptionParser", ["\0".join(words) for words in [
    ["-s", "-o", "/dev/null", "-w", "%{http_code}", "https://www.example.com/"],
    ["--resolve", "www.example.com:443:192.0.2.1", "-H", "X-A: b", "-d", "x=1", "https://www.example.com/", "--next", "-I", "https://b.example/"],
    ["resolve", "--doh", "https://dns.example/dns-query", "--json", "a.example", "b.example"],
    ["check", "--targets", "t.yaml", "--format", "junit", "--label", "a=b"],
    ["cache", "list", "--json"], ["-vZ", "--parallel-max", "5", "--retry=3", "--no-fallback", "https://x/[1-3]"],
    ["--aliyun-account", "139450", "--aliyun-secret", "s3cret", "--dnspod-key", "0123456789abcdef", "-K", "f", "https://x/"],
    ["--help", "all"], ["-:", "--", "-not-an-option"],
    ["--connect-to", "a.example::b.example:8443", "--resolve", "*:443:192.0.2.1", "--resolve", "-a.example:443",
     "--socks5-hostname", "s.example:1080", "--preproxy", "socks5://p:1", "-p", "--proxy-header", "X: 1", "https://a.example/"],
    ["--proto", "-all,+https", "--proto-redir", "=https", "--netrc-optional", "--digest", "-u", "a:b", "--oauth2-bearer", "",
     "--aws-sigv4", "aws:amz:r:s", "-z", "-Sun, 06 Nov 1994 08:49:37 GMT", "--url-query", "+a=b", "--rate", "3/m", "https://x/"],
    ["--ftp-pasv", "-P", "-", "--tftp-blksize", "512", "-Y", "1", "-y", "5", "--keepalive-time", "9", "--no-clobber", "-R",
     "--etag-save", "e", "--etag-compare", "e", "--curves", "X25519", "--help", "HTTP", "-#", "-V", "https://x/"],
]])
