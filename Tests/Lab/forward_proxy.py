#!/usr/bin/env python3
"""Forward HTTP proxy for the ipcurl lab (python3 stdlib only), for -x/--proxy tests.

CONNECT host:port tunnels, and absolute-form requests (GET http://host:port/path) are relayed with
"Connection: close". The proxy resolves names itself from a fixed table: every name ending in ".test" is
127.0.0.2 (the lab's nginx); IP literals are used only when they are loopback. Anything else gets 502, so the
proxy never reaches past loopback. With --auth-port, a second listener demands
"Proxy-Authorization: Basic" with the user:password held in --auth-file (407 otherwise).
Every request line is logged to stderr as "proxy PORT: METHOD TARGET".

Started by lab.sh; logs go to stderr.
"""
import argparse
import base64
import ipaddress
import labdaemon
import select
import socket
import socketserver
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
            (b if s is a else a).sendall(data)


class Handler(socketserver.StreamRequestHandler):
    def reply(self, status, reason, extra=""):
        body = f"{status} {reason}\n".encode()
        self.wfile.write(f"HTTP/1.1 {status} {reason}\r\nContent-Length: {len(body)}\r\n{extra}"
                         f"Connection: close\r\n\r\n".encode() + body)

    def handle(self):
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
        method, target, _ = parts
        if self.server.credentials is not None:
            given = [h.split(":", 1)[1].strip() for h in headers if h.lower().startswith("proxy-authorization:")]
            expected = "Basic " + base64.b64encode(self.server.credentials.encode()).decode()
            if given != [expected]:
                return self.reply(407, "Proxy Authentication Required", 'Proxy-Authenticate: Basic realm="lab"\r\n')
        if method == "CONNECT":
            host, port = split_host_port(target, 443)
            address = target_address(host)
            if address is None:
                return self.reply(502, "Bad Gateway")
            with socket.create_connection((address, port), timeout=10) as upstream:
                self.wfile.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
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

    def __init__(self, address, credentials):
        super().__init__(address, Handler)
        self.credentials = credentials


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ip", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--auth-port", type=int)
    ap.add_argument("--auth-file")
    ap.add_argument("--pidfile")
    a = ap.parse_args()
    servers = [Server((a.ip, a.port), None)]
    if a.auth_port:
        with open(a.auth_file) as f:
            servers.append(Server((a.ip, a.auth_port), f.read().strip()))
    listening = " ".join(f"{a.ip}:{s.server_address[1]}" for s in servers)
    labdaemon.serve(servers, a.pidfile, log, listening)


if __name__ == "__main__":
    main()
