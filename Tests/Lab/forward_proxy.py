#!/usr/bin/env python3
"""Forward HTTP proxy for the ipcurl lab (python3 stdlib only), for -x/--proxy tests.

CONNECT host:port tunnels, and absolute-form requests (GET http://host:port/path) are relayed with
"Connection: close". The proxy resolves names itself from a fixed table: every name ending in ".test" is
127.0.0.2 (the lab's nginx); IP literals are used only when they are loopback. Anything else gets 502, so the
proxy never reaches past loopback. With --auth-port, a second listener demands "Proxy-Authorization" with the
user:password held in --auth-file, Basic or Digest (RFC 7616, MD5, qop=auth, a nonce it issued), and offers both
in its 407. With --tls-port, a third listener speaks the same over TLS (an https:// proxy) with --cert and --key,
and asks for a client certificate signed by --client-ca without demanding one.
Every request line is logged to stderr as "proxy PORT: METHOD TARGET VERSION", a client certificate as
"proxy PORT: client CN", and each credential checked as "proxy PORT: auth basic|digest [USER] ok|failed" (any
other scheme as "proxy PORT: auth SCHEME refused"). A
CONNECT's 200 tells what the proxy was sent, for -i and -D to show: "X-Proxy-Version: HTTP/1.x" and one
"X-Proxy-Got: NAME" per header (NAME=VALUE for an X- header; never Proxy-Authorization).

Started by lab.sh; logs go to stderr.
"""
import argparse
import base64
import hashlib
import ipaddress
import labdaemon
import secrets
import select
import socket
import socketserver
import ssl
import sys

NGINX_IP = "127.0.0.2"


def log(text):
    print(text, file=sys.stderr, flush=True)


def target_address(host):
    """The loopback address for host, or None."""
    host = host.strip("[]").lower().rstrip(".")
    if host.endswith(".test"):
        return NGINX_IP
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    return str(address) if address.is_loopback else None


def split_host_port(text, default_port):
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port = text.rpartition(":") if ":" in text else (text, "", "")
    return host, int(port) if port.isdigit() else default_port


def pump(a, b):
    sockets = [a, b]
    while True:
        readable, _, _ = select.select(sockets, [], [], 30)
        if not readable:
            return
        for s in readable:
            data = s.recv(65536)
            if not data:
                return
            # A TLS socket may hold decrypted bytes select() cannot see.
            while isinstance(s, ssl.SSLSocket) and s.pending():
                data += s.recv(s.pending())
            (b if s is a else a).sendall(data)


def digest_fields(value):
    """The parameters of a Digest credential: name=value or name="value", comma-separated."""
    fields, rest = {}, value
    while rest:
        name, _, rest = rest.strip().partition("=")
        if rest.startswith('"'):
            text, _, rest = rest[1:].partition('"')
        else:
            text, _, rest = rest.partition(",")
        fields[name.strip().lower()] = text
        rest = rest.lstrip().removeprefix(",")
    return fields


def md5(text):
    return hashlib.md5(text.encode("latin-1")).hexdigest()


class Handler(socketserver.StreamRequestHandler):
    def setup(self):
        # A TLS listener's handshake, here rather than in accept(): a client that fails it ends only its thread.
        self.handshaken = True
        if isinstance(self.request, ssl.SSLSocket):
            try:
                self.request.do_handshake()
            except (ssl.SSLError, OSError) as error:
                log(f"proxy {self.server.server_address[1]}: handshake failed: {error}")
                self.handshaken = False
            else:
                subject = dict(item[0] for item in (self.request.getpeercert() or {}).get("subject", ()))
                if "commonName" in subject:
                    log(f"proxy {self.server.server_address[1]}: client {subject['commonName']}")
        super().setup()

    def authenticated(self, method, headers):
        """Whether the request carries the listener's credentials, Basic or Digest (a nonce this proxy issued)."""
        given = [h.split(":", 1)[1].strip() for h in headers if h.lower().startswith("proxy-authorization:")]
        if len(given) != 1:
            return False
        scheme, _, value = given[0].partition(" ")
        user, _, password = self.server.credentials.partition(":")
        port = self.server.server_address[1]
        if scheme.lower() == "basic":
            ok = value.strip() == base64.b64encode(self.server.credentials.encode()).decode()
            log(f"proxy {port}: auth basic {'ok' if ok else 'failed'}")
            return ok
        if scheme.lower() != "digest":
            log(f"proxy {port}: auth {scheme.lower()} refused")
            return False
        fields = digest_fields(value)
        ha1 = md5(f"{user}:lab:{password}")
        ha2 = md5(f"{method}:{fields.get('uri', '')}")
        expected = md5(f"{ha1}:{fields.get('nonce')}:{fields.get('nc')}:{fields.get('cnonce')}:auth:{ha2}")
        ok = (fields.get("username") == user and fields.get("realm") == "lab" and fields.get("qop") == "auth"
              and fields.get("nonce") in self.server.nonces and fields.get("response") == expected)
        log(f"proxy {port}: auth digest {fields.get('username')} {'ok' if ok else 'failed'}")
        return ok

    def challenge(self):
        nonce = secrets.token_hex(16)
        self.server.nonces.add(nonce)
        return ('Proxy-Authenticate: Basic realm="lab"\r\n'
                f'Proxy-Authenticate: Digest realm="lab", nonce="{nonce}", qop="auth", algorithm=MD5\r\n')

    def reply(self, status, reason, extra=""):
        body = f"{status} {reason}\n".encode()
        self.wfile.write(f"HTTP/1.1 {status} {reason}\r\nContent-Length: {len(body)}\r\n{extra}"
                         f"Connection: close\r\n\r\n".encode() + body)

    def handle(self):
        if not self.handshaken:
            return
        line = self.rfile.readline(8192).decode("latin-1").rstrip("\r\n")
        headers = []
        while True:
            header = self.rfile.readline(8192).decode("latin-1")
            if header in ("\r\n", "\n", ""):
                break
            headers.append(header.rstrip("\r\n"))
        log(f"proxy {self.server.server_address[1]}: {line}")
        parts = line.split(" ")
        if len(parts) != 3:
            return self.reply(400, "Bad Request")
        method, target, version = parts
        if self.server.credentials is not None and not self.authenticated(method, headers):
            return self.reply(407, "Proxy Authentication Required", self.challenge())
        if method == "CONNECT":
            host, port = split_host_port(target, 443)
            address = target_address(host)
            if address is None:
                return self.reply(502, "Bad Gateway")
            # What the CONNECT carried, for -i and -D to show: each header's name (an X- header's value too).
            seen = "".join(f"X-Proxy-Got: {h.split(':', 1)[0].strip().lower()}"
                           + (f"={h.split(':', 1)[1].strip()}" if h.lower().startswith("x-") else "") + "\r\n"
                           for h in headers if not h.lower().startswith("proxy-authorization:"))
            with socket.create_connection((address, port), timeout=10) as upstream:
                self.wfile.write(f"HTTP/1.1 200 Connection established\r\nX-Proxy-Version: {version}\r\n{seen}\r\n"
                                 .encode("latin-1"))
                self.wfile.flush()
                pump(self.connection, upstream)
            return
        if not target.startswith("http://"):
            return self.reply(400, "Bad Request")
        authority, _, path = target[len("http://"):].partition("/")
        host, port = split_host_port(authority, 80)
        address = target_address(host)
        if address is None:
            return self.reply(502, "Bad Gateway")
        kept = [h for h in headers if not h.lower().startswith(("proxy-", "connection:"))]
        request = f"{method} /{path} HTTP/1.1\r\n" + "".join(h + "\r\n" for h in kept) + "Connection: close\r\n\r\n"
        with socket.create_connection((address, port), timeout=10) as upstream:
            upstream.sendall(request.encode("latin-1"))
            pump(self.connection, upstream)


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address, credentials, context=None):
        super().__init__(address, Handler)
        self.credentials = credentials
        self.nonces = set()
        self.context = context

    def get_request(self):
        connection, address = super().get_request()
        if self.context:
            connection = self.context.wrap_socket(connection, server_side=True, do_handshake_on_connect=False)
        return connection, address


def listener_arguments():
    """The arguments both lab proxies take: --ip, --port, --auth-port, --auth-file and --pidfile."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--ip", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--auth-port", type=int)
    ap.add_argument("--auth-file")
    ap.add_argument("--pidfile")
    return ap


def open_and_authenticated(server, a):
    """The open listener on --port and, with --auth-port, one demanding the user:password of --auth-file."""
    servers = [server((a.ip, a.port), None)]
    if a.auth_port:
        with open(a.auth_file) as f:
            servers.append(server((a.ip, a.auth_port), f.read().strip()))
    return servers


def main():
    ap = listener_arguments()
    ap.add_argument("--tls-port", type=int)
    ap.add_argument("--cert")
    ap.add_argument("--key")
    ap.add_argument("--client-ca")
    a = ap.parse_args()
    servers = open_and_authenticated(Server, a)
    if a.tls_port:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(a.cert, a.key)
        if a.client_ca:
            context.load_verify_locations(a.client_ca)
            context.verify_mode = ssl.CERT_OPTIONAL
        servers.append(Server((a.ip, a.tls_port), None, context))
    listening = " ".join(f"{a.ip}:{s.server_address[1]}" for s in servers)
    labdaemon.serve(servers, a.pidfile, log, listening)


if __name__ == "__main__":
    main()
