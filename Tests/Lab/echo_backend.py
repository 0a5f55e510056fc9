#!/usr/bin/env python3
"""HTTP/1.1 echo backend for the ipcurl lab (python3 stdlib only).

nginx proxies /api/ of the a.test, b.test and *.any.test vhosts here; it can
also be reached directly on its own loopback address. Every method is
accepted (GET HEAD POST PUT PATCH DELETE OPTIONS). Request bodies of any size
are streamed into SHA-256 in 64 KiB pieces (Content-Length or chunked), never
held in memory. Every answer carries Content-Length, so keep-alive works.

Routes (see Tests/Lab/README.md):

  /api/echo*                               JSON: method path query headers body_sha256 body_length content_type
  /api/form                                JSON: the multipart/form-data parts (a nested multipart part's own parts)
  /api/redirect?code=N&to=URL              status N, Location: URL (verbatim)
  /api/loop                                302, Location: /api/loop
  /api/status?code=N[&retry_after=S]       status N, body "status N\\n"
  /api/flaky?key=K&fails=N&code=C[&retry_after=S]
                                           the first N hits of key K get C, then 200
  /api/hits?key=K                          flaky hits of key K so far: "N\\n"
  /api/conn?key=K                          200; counts the request and its client connection under key K
  /api/conns?key=K                         key K's /api/conn requests and distinct client connections: "R C\\n"
  /api/set-cookie?name=value[&...]         Set-Cookie: name=value; Path=/ for each pair
  /api/delay?ms=N                          sleeps N ms, then 200
  /api/drip?bytes=N&chunk=C&ms=M           Content-Length N, C bytes of 'x' every M ms
  /api/together?key=K&n=N                  200 once N requests of key K are in flight at once, 504 after 5 s
  /api/auth/basic?user=U&pass=P            the echo once Basic credentials U:P come, else 401 (Basic challenge)
  /api/auth/digest?user=U&pass=P[&algorithm=MD5|SHA-256]
                                           the echo once a valid RFC 7616 Digest (qop=auth) comes, else 401
  /api/auth/any?user=U&pass=P              401 offering Digest (MD5) and Basic; the echo for either
  /api/auth/ntlm                           NTLM's handshake shape: 401 NTLM, type 1 -> 401 with a type 2
                                           challenge, type 3 -> the echo with the user it names
  /api/auth/negotiate                      401 WWW-Authenticate: Negotiate (no KDC: nobody passes)

Started by lab.sh; logs go to stderr.
"""
import argparse
import base64
import binascii
import email.parser
import email.policy
import hashlib
import hmac
import json
import os
import re
import labdaemon
import socket
import socketserver
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, parse_qsl, urlsplit

PIECE = 64 * 1024
MAX_DELAY_MS = 3_600_000
NO_BODY = {204, 304}

FLAKY_LOCK = threading.Lock()
FLAKY_HITS = {}  # key -> hits so far
CONNS = {}  # key -> [requests, set of nginx client connection numbers]


class BadRequest(Exception):
    pass


def log(msg):
    sys.stderr.write(time.strftime("%Y-%m-%dT%H:%M:%S ") + msg.replace("\n", "\\n") + "\n")
    sys.stderr.flush()


def arg(q, key, default=None):
    v = q.get(key)
    return v[0] if v else default


def int_arg(q, key, default, lo, hi):
    raw = arg(q, key)
    if raw is None or raw == "":
        if default is None:
            raise BadRequest(f"missing {key}")
        return default
    try:
        v = int(raw)
    except ValueError:
        raise BadRequest(f"{key} is not an integer") from None
    if not lo <= v <= hi:
        raise BadRequest(f"{key} must be in {lo}..{hi}")
    return v


def header_value(q, key):
    """A query value that goes into a response header: no CR, LF or NUL."""
    v = arg(q, key)
    if v is not None and any(c in v for c in "\r\n\0"):
        raise BadRequest(f"{key} holds a control character")
    return v


def text(status, body, headers=()):
    return status, list(headers), body.encode(), "text/plain; charset=utf-8"


# ------------------------------------------------------------------ routes
def echo(h, url, body_hash, body_len):
    headers = {}
    for name, value in h.headers.items():
        k = name.lower()
        headers[k] = headers[k] + ", " + value if k in headers else value
    obj = {"method": h.command, "path": url.path, "query": url.query, "headers": headers,
           "body_sha256": body_hash, "body_length": body_len,
           "content_type": h.headers.get("Content-Type")}
    return 200, [], json.dumps(obj, separators=(",", ":")).encode(), "application/json"


FORM_LIMIT = 4 << 20  # /api/form keeps at most this much of a body to parse


def form(h, kept):
    """The parts of a multipart/form-data body, boundary-free, so two clients' bodies compare equal."""
    ctype = h.headers.get("Content-Type") or ""
    if not ctype.startswith("multipart/form-data") or kept is None:
        raise BadRequest("not a multipart/form-data body (or over 4 MiB)")
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + bytes(kept))
    parts = [form_part(part) for part in message.iter_parts()]
    return 200, [], json.dumps({"parts": parts}, separators=(",", ":")).encode(), "application/json"


def form_part(part):
    """One part: its name, filename, type and other headers, and its content's digest and length; a nested
    multipart part (curl's `-F 'f=@a,b'` file list, multipart/mixed) lists its own parts the same way instead."""
    entry = {"disposition": str(part.get("Content-Disposition", "")),
             "name": part.get_param("name", header="content-disposition"),
             "filename": part.get_filename(), "content_type": part.get("Content-Type"),
             "headers": sorted(f"{k.lower()}: {v}" for k, v in part.items()
                               if k.lower() not in ("content-disposition", "content-type"))}
    if part.is_multipart():
        entry["parts"] = [form_part(sub) for sub in part.iter_parts()]
    else:
        data = part.get_payload(decode=True) or b""
        entry.update(sha256=hashlib.sha256(data).hexdigest(), length=len(data))
    return entry


def redirect(q):
    code = int_arg(q, "code", 302, 200, 599)
    to = header_value(q, "to")
    if to is None:
        raise BadRequest("missing to")
    time.sleep(int_arg(q, "ms", 0, 0, MAX_DELAY_MS) / 1000)  # a hop that answers late
    return text(code, f"redirect {code} to {to}\n", [("Location", to)])


def status(q):
    code = int_arg(q, "code", None, 200, 599)
    ra = header_value(q, "retry_after")
    return text(code, f"status {code}\n", [("Retry-After", ra)] if ra is not None else [])


def flaky(q):
    key = arg(q, "key")
    if not key:
        raise BadRequest("missing key")
    fails = int_arg(q, "fails", 1, 0, 1_000_000)
    code = int_arg(q, "code", 503, 200, 599)
    ra = header_value(q, "retry_after")
    with FLAKY_LOCK:
        hit = FLAKY_HITS[key] = FLAKY_HITS.get(key, 0) + 1
    if hit <= fails:
        return text(code, f"failure {hit}\n", [("Retry-After", ra)] if ra is not None else [])
    return text(200, f"ok after {fails} failures\n")


def hits(q):
    key = arg(q, "key")
    if not key:
        raise BadRequest("missing key")
    with FLAKY_LOCK:
        n = FLAKY_HITS.get(key, 0)
    return text(200, f"{n}\n")


def conn(h, q):
    key = arg(q, "key")
    if not key:
        raise BadRequest("missing key")
    with FLAKY_LOCK:
        seen = CONNS.setdefault(key, [0, set()])
        seen[0] += 1
        seen[1].add(h.headers.get("X-Lab-Connection", ""))
    return text(200, "counted\n")


def conns(q):
    key = arg(q, "key")
    if not key:
        raise BadRequest("missing key")
    with FLAKY_LOCK:
        requests, connections = CONNS.get(key, [0, set()])
        return text(200, f"{requests} {len(connections)}\n")


def set_cookie(url):
    pairs = parse_qsl(url.query, keep_blank_values=True)
    for name, value in pairs:
        if not name or "=" in name or any(c in name + value for c in "\r\n\0;"):
            raise BadRequest("bad cookie name or value")
    cookies = [("Set-Cookie", f"{n}={v}; Path=/") for n, v in pairs]
    return text(200, "".join(f"set {n}={v}\n" for n, v in pairs) or "no cookies\n", cookies)


def attachment(q):
    """A body with Content-Disposition naming `name` (quoted unless raw=1), for -J."""
    name = header_value(q, "name") or ""
    value = f"attachment; filename={name}" if arg(q, "raw") == "1" else f'attachment; filename="{name}"'
    return text(200, f"attachment {name}\n", [("Content-Disposition", value)])


def delay(q):
    ms = int_arg(q, "ms", None, 0, MAX_DELAY_MS)
    time.sleep(ms / 1000)
    return text(200, f"slept {ms} ms\n")


TOGETHER_LOCK = threading.Lock()
TOGETHER = {}  # key -> threading.Barrier
TOGETHER_WAIT_S = 5


def together(q):
    """A barrier: answers 200 only when `n` requests of `key` wait here at the same time (proof of parallelism that
    does not depend on timing); a request left waiting alone gets 504 after TOGETHER_WAIT_S."""
    key = arg(q, "key")
    if not key:
        raise BadRequest("missing key")
    n = int_arg(q, "n", None, 1, 64)
    with TOGETHER_LOCK:
        barrier = TOGETHER.setdefault((key, n), threading.Barrier(n))
    try:
        barrier.wait(TOGETHER_WAIT_S)
    except threading.BrokenBarrierError:
        return text(504, "alone\n")
    return text(200, f"together {n}\n")


# -------------------------------------------------------------- auth routes
REALM = "lab"
NONCES_LOCK = threading.Lock()
NONCES = {}  # nonce -> last nonce count seen; the oldest dropped past NONCE_LIMIT
NONCE_LIMIT = 10_000
DIGESTS = {"MD5": hashlib.md5, "SHA-256": hashlib.sha256}


def authed(h, url, body_hash, body_len, user, scheme):
    """The echo of the request, with the user and scheme that passed."""
    status, headers, body, ctype = echo(h, url, body_hash, body_len)
    obj = json.loads(body)
    obj["authenticated"] = {"user": user, "scheme": scheme}
    return status, headers, json.dumps(obj, separators=(",", ":")).encode(), ctype


def credentials(q):
    user, password = arg(q, "user"), arg(q, "pass")
    if not user or password is None:
        raise BadRequest("missing user or pass")
    return user, password


def authorization(h, scheme):
    """The Authorization value after `scheme `, or None."""
    value = h.headers.get("Authorization") or ""
    word, _, rest = value.partition(" ")
    return rest.strip() if word.lower() == scheme.lower() else None


def basic_ok(h, user, password):
    given = authorization(h, "Basic")
    try:
        return given is not None and hmac.compare_digest(base64.b64decode(given, validate=True),
                                                         f"{user}:{password}".encode())
    except binascii.Error:
        return False


def digest_challenge(algorithm, stale=False):
    nonce = os.urandom(16).hex()
    with NONCES_LOCK:
        NONCES[nonce] = 0
        while len(NONCES) > NONCE_LIMIT:
            NONCES.pop(next(iter(NONCES)))
    return (f'Digest realm="{REALM}", qop="auth", algorithm={algorithm}, nonce="{nonce}", '
            f'opaque="{os.urandom(8).hex()}"' + (", stale=true" if stale else ""))


DIGEST_PARAM = re.compile(r'\s*([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))\s*,?')


def digest_params(text):
    params, pos = {}, 0
    while pos < len(text):
        m = DIGEST_PARAM.match(text, pos)
        if not m or m.end() == pos:
            raise BadRequest("malformed Digest parameters")
        params[m.group(1).lower()] = m.group(2) if m.group(2) is not None else m.group(3)
        pos = m.end()
    return params


def digest_ok(h, user, password, algorithm):
    """RFC 7616 with qop=auth: the response checks out for a nonce this backend issued, with a count that grows."""
    given = authorization(h, "Digest")
    if given is None:
        return False
    p = digest_params(given)
    if p.get("algorithm", "MD5").upper() != algorithm.upper() or p.get("username") != user or p.get("realm") != REALM:
        return False
    if p.get("uri") != h.path or p.get("qop") != "auth" or not p.get("cnonce"):
        return False
    try:
        count = int(p.get("nc", ""), 16)
    except ValueError:
        return False
    with NONCES_LOCK:
        if p.get("nonce") not in NONCES or count <= NONCES[p["nonce"]]:
            return False
        NONCES[p["nonce"]] = count
    hash_ = lambda text: DIGESTS[algorithm](text.encode()).hexdigest()
    ha1 = hash_(f"{user}:{REALM}:{password}")
    ha2 = hash_(f"{h.command}:{p['uri']}")
    expected = hash_(f"{ha1}:{p['nonce']}:{p['nc']}:{p['cnonce']}:auth:{ha2}")
    return hmac.compare_digest(expected, p.get("response", ""))


def unauthorized(challenges):
    return text(401, "authentication required\n", [("WWW-Authenticate", c) for c in challenges])


NTLM_SIGNATURE = b"NTLMSSP\0"


def ntlm_message(h):
    given = authorization(h, "NTLM")
    if not given:
        return None, None
    try:
        raw = base64.b64decode(given, validate=True)
    except binascii.Error:
        raise BadRequest("NTLM message is not base64") from None
    if len(raw) < 12 or raw[:8] != NTLM_SIGNATURE:
        raise BadRequest("not an NTLMSSP message")
    return int.from_bytes(raw[8:12], "little"), raw


def ntlm_challenge():
    """A type 2 message: no target name, Unicode + NTLM + always-sign flags, a random server challenge."""
    flags = 0x00000001 | 0x00000200 | 0x00008000
    message = (NTLM_SIGNATURE + (2).to_bytes(4, "little") + (0).to_bytes(2, "little") * 2 + (48).to_bytes(4, "little")
               + flags.to_bytes(4, "little") + os.urandom(8) + bytes(8) + (0).to_bytes(2, "little") * 2
               + (48).to_bytes(4, "little"))
    return base64.b64encode(message).decode()


def ntlm_user(raw):
    """The user name of a type 3 message (its security buffer at offset 36), UTF-16LE under the Unicode flag."""
    if len(raw) < 64:
        raise BadRequest("short NTLM type 3 message")
    length, offset = int.from_bytes(raw[36:38], "little"), int.from_bytes(raw[40:44], "little")
    flags = int.from_bytes(raw[60:64], "little")
    name = raw[offset:offset + length]
    return name.decode("utf-16-le" if flags & 1 else "latin-1")


def auth_route(h, url, q, body_hash, body_len):
    kind = url.path[len("/api/auth/"):]
    if kind == "basic":
        user, password = credentials(q)
        if basic_ok(h, user, password):
            return authed(h, url, body_hash, body_len, user, "Basic")
        return unauthorized([f'Basic realm="{REALM}"'])
    if kind == "digest":
        user, password = credentials(q)
        algorithm = arg(q, "algorithm", "MD5")
        if algorithm not in DIGESTS:
            raise BadRequest("algorithm must be MD5 or SHA-256")
        if digest_ok(h, user, password, algorithm):
            return authed(h, url, body_hash, body_len, user, "Digest")
        return unauthorized([digest_challenge(algorithm)])
    if kind == "any":
        user, password = credentials(q)
        if digest_ok(h, user, password, "MD5"):
            return authed(h, url, body_hash, body_len, user, "Digest")
        if basic_ok(h, user, password):
            return authed(h, url, body_hash, body_len, user, "Basic")
        return unauthorized([digest_challenge("MD5"), f'Basic realm="{REALM}"'])
    if kind == "ntlm":
        kind_, raw = ntlm_message(h)
        if kind_ == 1:
            return unauthorized(["NTLM " + ntlm_challenge()])
        if kind_ == 3:
            return authed(h, url, body_hash, body_len, ntlm_user(raw), "NTLM")
        return unauthorized(["NTLM"])
    if kind == "negotiate":
        return unauthorized(["Negotiate"])
    return text(404, "not found\n")


def route(h, url, body_hash, body_len):
    path, q = url.path, parse_qs(url.query, keep_blank_values=True)
    if path == "/api/form":
        return form(h, getattr(h, "kept", None))
    if path.startswith("/api/echo"):
        return echo(h, url, body_hash, body_len)
    if path == "/api/redirect":
        return redirect(q)
    if path == "/api/loop":
        return text(302, "loop\n", [("Location", "/api/loop")])
    if path == "/api/status":
        return status(q)
    if path == "/api/flaky":
        return flaky(q)
    if path == "/api/hits":
        return hits(q)
    if path == "/api/conn":
        return conn(h, q)
    if path == "/api/conns":
        return conns(q)
    if path == "/api/set-cookie":
        return set_cookie(url)
    if path == "/api/delay":
        return delay(q)
    if path == "/api/attachment":
        return attachment(q)
    if path == "/api/together":
        return together(q)
    if path.startswith("/api/auth/"):
        return auth_route(h, url, q, body_hash, body_len)
    return text(404, "not found\n")


# ----------------------------------------------------------------- serving
class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are separate writes
    server_version = "ipcurl-lab-echo"
    timeout = 60

    def handle_one_request(self):
        try:
            super().handle_one_request()
        except (ConnectionError, socket.timeout, TimeoutError):
            self.close_connection = True

    def read_exact(self, n, digest):
        while n > 0:
            piece = self.rfile.read(min(n, PIECE))
            if not piece:
                raise BadRequest("body ended early")
            digest.update(piece)
            kept = getattr(self, "kept", None)
            if kept is not None:
                if len(kept) + len(piece) > FORM_LIMIT:
                    self.kept = None
                else:
                    kept.extend(piece)
            n -= len(piece)

    def read_line(self):
        line = self.rfile.readline(65537)
        if not line.endswith(b"\n"):
            raise BadRequest("truncated or overlong chunk line")
        return line

    def read_body(self):
        """(sha256 hex, length) of the request body, streamed."""
        digest, total = hashlib.sha256(), 0
        te = self.headers.get_all("Transfer-Encoding") or []
        codings = [c.strip().lower() for v in te for c in v.split(",") if c.strip()]
        if codings:
            if codings != ["chunked"]:
                raise BadRequest("unsupported Transfer-Encoding")
            while True:
                size_field = self.read_line().split(b";", 1)[0].strip()
                try:
                    size = int(size_field, 16)
                except ValueError:
                    raise BadRequest("bad chunk size") from None
                if size < 0:
                    raise BadRequest("bad chunk size")
                if size == 0:
                    while self.read_line() not in (b"\r\n", b"\n"):  # trailers
                        pass
                    break
                self.read_exact(size, digest)
                total += size
                if self.read_line() not in (b"\r\n", b"\n"):
                    raise BadRequest("chunk not followed by CRLF")
        else:
            cl = self.headers.get_all("Content-Length") or []
            if cl:
                if len(set(v.strip() for v in cl)) != 1 or not cl[0].strip().isdigit():
                    raise BadRequest("bad Content-Length")
                total = int(cl[0])
                self.read_exact(total, digest)
        return digest.hexdigest(), total

    def handle_any(self):
        try:
            self.kept = bytearray() if urlsplit(self.path).path == "/api/form" else None
            body_hash, body_len = self.read_body()
        except BadRequest as e:
            self.close_connection = True
            return self.send(*text(400, f"bad request: {e}\n", [("Connection", "close")]))
        url = urlsplit(self.path)
        if url.path == "/api/drip":
            return self.drip(parse_qs(url.query, keep_blank_values=True))
        try:
            self.send(*route(self, url, body_hash, body_len))
        except BadRequest as e:
            self.send(*text(400, f"bad request: {e}\n"))
        except Exception as e:  # a backend bug must still answer
            log(f"error handling {self.command} {self.path!r}: {e!r}")
            self.send(*text(500, "echo backend error\n"))

    do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = handle_any

    def send(self, status, headers, body, ctype):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        if status not in NO_BODY:
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and status not in NO_BODY:
            self.wfile.write(body)
        self.wfile.flush()

    def drip(self, q):
        try:
            n = int_arg(q, "bytes", 1024, 0, 1 << 40)
            chunk = int_arg(q, "chunk", 1024, 1, 16 << 20)
            ms = int_arg(q, "ms", 100, 0, MAX_DELAY_MS)
        except BadRequest as e:
            return self.send(*text(400, f"bad request: {e}\n"))
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(n))
        self.end_headers()
        self.wfile.flush()
        if self.command == "HEAD":
            return
        block, sent = b"x" * min(chunk, n), 0
        try:
            while sent < n:
                part = block[:min(chunk, n - sent)]
                self.wfile.write(part)
                self.wfile.flush()
                sent += len(part)
                if sent < n and ms:
                    time.sleep(ms / 1000)
        except (ConnectionError, socket.timeout, TimeoutError):
            log(f"drip: client left after {sent} of {n} bytes")
            self.close_connection = True

    def log_message(self, fmt, *args):
        log(f"{self.client_address[0]} " + fmt % args)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def server_bind(self):  # skip HTTPServer's reverse DNS lookup of the address
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]

    def handle_error(self, request, client_address):
        log(f"{client_address[0]}: connection error: {sys.exc_info()[1]!r}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ip", default="127.0.0.6")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--pidfile")
    a = ap.parse_args()
    try:
        srv = Server((a.ip, a.port), Handler)
    except OSError as e:
        sys.exit(f"echo_backend: cannot listen on {a.ip}:{a.port}: {e.strerror}")
    labdaemon.serve([srv], a.pidfile, log, f"{a.ip}:{srv.server_port}")


if __name__ == "__main__":
    main()
