#!/usr/bin/env python3
"""SOCKS proxy for the ipcurl lab (python3 stdlib only), for --socks4, --socks4a, --socks5, --socks5-hostname,
--preproxy and socks*:// proxies.

Speaks SOCKS4, SOCKS4a (RFC-less, the NEC extension: a name after the user id), SOCKS5 (RFC 1928: IPv4, IPv6 and
domain-name CONNECT) and SOCKS5's username/password authentication (RFC 1929). Names are resolved from a fixed
table, forward_proxy.py's (its target_address): every name ending in ".test" is 127.0.0.2 (the lab's nginx); an IP address is
used only when it is loopback. Anything else is refused, so the proxy never reaches past loopback.

The open listener (--port) asks for no authentication. With --auth-port, a second listener demands the
user:password held in --auth-file: SOCKS5's username/password method (a client offering only GSS-API gets method
1, after which the proxy closes: there is no KDC in the lab), and for SOCKS4 the user id. Each CONNECT is logged to
stderr, with what the client gave, a name or an address, so a test can tell who resolved the name:

    socks PORT: socks5 name a.test:443 user labuser -> 127.0.0.2
    socks PORT: socks4 address 127.0.0.2:443 -> 127.0.0.2
    socks PORT: socks5 address 10.0.0.1:443 refused

Started by lab.sh; logs go to stderr.
"""
import labdaemon
import socket
import socketserver
import struct

from forward_proxy import listener_arguments, log, open_and_authenticated, pump, target_address


class Closed(Exception):
    pass


class Handler(socketserver.BaseRequestHandler):
    def read(self, count):
        data = b""
        while len(data) < count:
            chunk = self.request.recv(count - len(data))
            if not chunk:
                raise Closed()
            data += chunk
        return data

    def read_until_nul(self, limit=255):
        data = b""
        while True:
            byte = self.read(1)
            if byte == b"\0":
                return data.decode("latin-1")
            data += byte
            if len(data) > limit:
                raise Closed()

    def handle(self):
        try:
            version = self.read(1)[0]
            if version == 4:
                self.socks4()
            elif version == 5:
                self.socks5()
        except (Closed, OSError):
            pass

    def connect(self, kind, given, host, port, user):
        """Logs the request and connects to host's loopback address, or returns None."""
        address = target_address(host)
        who = f" user {user}" if user else ""
        outcome = f"-> {address}" if address else "refused"
        log(f"socks {self.server.server_address[1]}: {kind} {given} {host}:{port}{who} {outcome}")
        if address is None:
            return None
        try:
            return socket.create_connection((address, port), timeout=10)
        except OSError:
            return None

    def socks4(self):
        command, port = struct.unpack("!BH", self.read(3))
        ip = self.read(4)
        user = self.read_until_nul()
        # SOCKS4a: 0.0.0.x (x not 0) says a name follows the user id.
        socks4a = ip[:3] == b"\0\0\0" and ip[3] != 0
        host = self.read_until_nul() if socks4a else socket.inet_ntoa(ip)
        credentials = self.server.credentials
        granted = command == 1 and (credentials is None or user == credentials.split(":", 1)[0])
        upstream = None
        if granted:
            upstream = self.connect("socks4a" if socks4a else "socks4", "name" if socks4a else "address", host, port, user)
        elif command == 1:
            log(f"socks {self.server.server_address[1]}: socks4 user {user!r} refused")
        self.request.sendall(struct.pack("!BBH4s", 0, 0x5A if upstream else 0x5B, 0, b"\0\0\0\0"))
        if upstream:
            with upstream:
                pump(self.request, upstream)

    def socks5(self):
        methods = self.read(self.read(1)[0])
        credentials = self.server.credentials
        if credentials is None:
            chosen = 0 if 0 in methods else 0xFF
        else:
            chosen = 2 if 2 in methods else 1 if 1 in methods else 0xFF
        self.request.sendall(bytes([5, chosen]))
        if chosen == 0xFF:
            log(f"socks {self.server.server_address[1]}: socks5 methods {list(methods)} refused")
            return
        if chosen == 1:
            log(f"socks {self.server.server_address[1]}: socks5 gssapi chosen, no KDC: closing")
            return
        user = ""
        if chosen == 2:
            self.read(1)  # subnegotiation version 1
            user = self.read(self.read(1)[0]).decode("latin-1")
            password = self.read(self.read(1)[0]).decode("latin-1")
            if f"{user}:{password}" != credentials:
                log(f"socks {self.server.server_address[1]}: socks5 user {user} wrong password")
                self.request.sendall(b"\x01\x01")
                return
            self.request.sendall(b"\x01\x00")
        _, command, _, kind = self.read(4)
        if kind == 1:
            host, given = socket.inet_ntoa(self.read(4)), "address"
        elif kind == 4:
            host, given = socket.inet_ntop(socket.AF_INET6, self.read(16)), "address"
        elif kind == 3:
            host, given = self.read(self.read(1)[0]).decode("latin-1"), "name"
        else:
            self.request.sendall(bytes([5, 8, 0, 1, 0, 0, 0, 0, 0, 0]))
            return
        port = struct.unpack("!H", self.read(2))[0]
        upstream = self.connect("socks5", given, host, port, user) if command == 1 else None
        self.request.sendall(bytes([5, 0 if upstream else 2 if command == 1 else 7, 0, 1, 0, 0, 0, 0, 0, 0]))
        if upstream:
            with upstream:
                pump(self.request, upstream)


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address, credentials):
        super().__init__(address, Handler)
        self.credentials = credentials


def main():
    a = listener_arguments().parse_args()
    servers = open_and_authenticated(Server, a)
    listening = " ".join(f"{a.ip}:{s.server_address[1]}" for s in servers)
    labdaemon.serve(servers, a.pidfile, log, listening)


if __name__ == "__main__":
    main()
