import Foundation

/// A small python3 HTTP server for the routing options, started by the test that needs it and killed with the
/// value: plain HTTP on a unix socket (a path, or an abstract name written `@name`), or HTTPS with the lab's
/// a.test certificate on `127.0.0.2:443` (the port an HSTS upgrade of a port-less `http://` URL connects to).
/// Every answer is one line naming where it was served and the `Host:` and path it got; `/redir` answers 302 to
/// `http://b.test/next`.
final class RoutingServer: @unchecked Sendable {
    private let process = Process()

    enum Listener {
        case unixSocket(String)
        case tls443(certificate: String, key: String)
    }

    init(_ listener: Listener) throws {
        let bind: String
        switch listener {
        case .unixSocket:
            bind = "name = sys.argv[1]\nname = '\\0' + name[1:] if name.startswith('@') else name\n"
                + "server = Server(name, Handler)\nwhere = 'unix'\n"
        case .tls443(let certificate, let key):
            bind = "socketserver.TCPServer.allow_reuse_address = True\n"
                + "class TCPServer(socketserver.ThreadingMixIn, socketserver.TCPServer): daemon_threads = True\n"
                + "server = TCPServer(('127.0.0.2', 443), Handler)\nwhere = 'tls443'\n"
                + "context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)\ncontext.load_cert_chain('\(certificate)', '\(key)')\n"
                + "server.socket = context.wrap_socket(server.socket, server_side=True)\n"
        }
        let script = """
            import socketserver, ssl, sys
            from http.server import BaseHTTPRequestHandler
            class Handler(BaseHTTPRequestHandler):
                protocol_version = 'HTTP/1.1'
                def log_message(self, *args): pass
                def address_string(self): return 'peer'
                def do_GET(self):
                    if self.path.startswith('/redir'):
                        body = b'moved\\n'
                        self.send_response(302)
                        self.send_header('Location', 'http://b.test/next')
                    else:
                        body = f"{where} host={self.headers.get('Host')} path={self.path}\\n".encode()
                        self.send_response(200)
                    self.send_header('Content-Length', str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
            class Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer): daemon_threads = True

            """ + bind + "print('ready', flush=True)\nserver.serve_forever()\n"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", "-c", script]
        if case .unixSocket(let path) = listener { arguments.append(path) }
        process.arguments = arguments
        let ready = Pipe()
        process.standardOutput = ready
        try process.run()
        let line = String(decoding: ready.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("ready") else {
            kill(process.processIdentifier, SIGKILL)
            throw LabError("the routing test server did not start: \(line)")
        }
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
