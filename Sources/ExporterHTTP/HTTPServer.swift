#if canImport(Glibc)
import Glibc
#endif
internal import CMicroHTTPD
import Locking

/// An HTTP(S) server on libmicrohttpd: one thread per connection, so a handler may block (a probe runs up to its
/// timeout) while other requests are served; TLS through GnuTLS; basic auth checked by libcrypt's bcrypt before the
/// handler is called. Listening starts in `init`; `stop` ends it (call it from a thread, not a signal handler).
/// libmicrohttpd's default bound holds: 1,020 connections at once, further ones closed on arrival.
/// - SeeAlso: `MHD_start_daemon` (`MHD_USE_THREAD_PER_CONNECTION`, `MHD_OPTION_LISTEN_SOCKET`),
///   `MHD_quiesce_daemon`, `MHD_stop_daemon`.
public final class HTTPServer: @unchecked Sendable {
    /// GnuTLS priorities: exporter-toolkit's default `min_version` (TLS 1.2) and up.
    static let tlsPriorities = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"
    /// One connection's buffer, and so the largest request header (libmicrohttpd answers 431 past it).
    static let connectionMemory = 32 * 1024

    /// The bound port (the free one chosen for port 0).
    public let port: Int
    private let daemon: DaemonHandle
    private let authenticator: BasicAuthenticator?
    private let stopLock = Lock()
    private var stopped = false

    /// Starts listening on `listenAddress` (as Go's `net.Listen`: `HOST:PORT`, `:PORT` for every address,
    /// `[IPv6]:PORT`); `idleTimeoutSeconds` closes a connection that sends nothing for that long (a handler's own
    /// time never counts; 0 never closes one).
    public convenience init(listenAddress: String, security: HTTPServerSecurity = .init(), idleTimeoutSeconds: Int = 90,
                            handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws(HTTPServerError) {
        try self.init(listenAddress: listenAddress, security: security, idleTimeoutSeconds: idleTimeoutSeconds,
                      handshakePolicy: true, handler: handler)
    }

    /// `handshakePolicy` false leaves client certificates to the per-request check alone (for tests of that check).
    init(listenAddress: String, security: HTTPServerSecurity, idleTimeoutSeconds: Int, handshakePolicy: Bool,
         handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws(HTTPServerError) {
        let address = try ListenAddress(listenAddress)
        let tlsText = try security.tls.map { tls throws(HTTPServerError) in try Self.tlsText(tls) } ?? []
        let authenticator = try BasicAuthenticator(users: security.basicAuthUsers)
        let socket = try Self.listen(address, listenAddress)
        let context = ServerContext(handler: handler, clientAuth: security.tls?.clientAuth,
                                    handshakePolicy: handshakePolicy, authenticator: authenticator, tlsText: tlsText)
        let retained = Unmanaged.passRetained(context)
        let text = tlsText.map { $0.pointer }
        guard let started = ipc_mhd_start(socket, text.count > 0 ? text[0] : nil, text.count > 1 ? text[1] : nil,
                                          text.count > 2 ? text[2] : nil, Self.tlsPriorities, UInt32(clamping: idleTimeoutSeconds),
                                          Self.connectionMemory, accessCallback, completedCallback, connectionCallback,
                                          retained.toOpaque()) else {
            close(socket)
            retained.release()
            throw HTTPServerError("listen \(listenAddress): libmicrohttpd could not start the server")
        }
        port = Int(ipc_socket_port(socket))
        daemon = DaemonHandle(daemon: started, socket: socket, context: retained)
        self.authenticator = authenticator
    }

    deinit { stop(graceMilliseconds: 0) }

    /// Test hook: how many times bcrypt ran.
    var bcryptCount: Int { authenticator?.bcryptCount ?? 0 }

    /// Stops accepting (the port is closed when this returns), gives the requests in flight up to
    /// `graceMilliseconds` to send their responses, then closes every connection. A handler still running after the
    /// grace keeps its thread until it returns, its response dropped; `stop` does not wait for it. Later calls do
    /// nothing.
    public func stop(graceMilliseconds: Int) {
        guard stopLock.locked({ () -> Bool in defer { stopped = true }; return !stopped }) else { return }
        daemon.quiesce()
        let context = daemon.context.takeUnretainedValue()
        if context.gate.drain(graceMilliseconds: graceMilliseconds) == 0 {
            daemon.close()
        } else {
            detach { [daemon] in daemon.close() }
        }
    }

    private static func listen(_ address: ListenAddress, _ text: String) throws(HTTPServerError) -> Int32 {
        var errorNumber: Int32 = 0, gaiError: Int32 = 0
        let socket = ipc_listen(address.host, String(address.port), &errorNumber, &gaiError)
        guard socket < 0 else { return socket }
        let reason: UnsafePointer<CChar>? = gaiError != 0 && gaiError != EAI_SYSTEM
            ? gai_strerror(gaiError) : UnsafePointer(strerror(errorNumber))
        throw HTTPServerError("listen \(text): \(reason.map { String(cString: $0) } ?? "error")")
    }

    /// Certificate, key and client CAs as NUL-terminated text, after GnuTLS has read them once to say what is wrong.
    private static func tlsText(_ tls: HTTPServerSecurity.TLS) throws(HTTPServerError) -> [CString] {
        if tls.clientAuth.verifiesCertificate && tls.clientCAPEM == nil {
            throw HTTPServerError("TLS: client_auth_type \(tls.clientAuth.rawValue) needs client CAs")
        }
        if tls.clientAuth == .noClientCert && tls.clientCAPEM != nil {
            throw HTTPServerError("TLS: client CAs are given without a client_auth_type that asks for certificates")
        }
        let text = [CString(tls.certificatePEM), CString(tls.keyPEM)] + (tls.clientCAPEM.map { [CString($0)] } ?? [])
        var part: Int32 = 0
        let rc = ipc_tls_check(text[0].pointer, text[1].pointer, text.count > 2 ? text[2].pointer : nil, &part)
        guard rc != 0 else { return text }
        let what = part == 1 ? "the server certificate and key" : "the client CAs"
        throw HTTPServerError("TLS: \(what): \(String(cString: gnutls_strerror(rc)))")
    }
}

/// The running daemon, its listening socket and the retained context its callbacks use.
private final class DaemonHandle: @unchecked Sendable {
    let daemon: OpaquePointer
    let socket: Int32
    let context: Unmanaged<ServerContext>

    init(daemon: OpaquePointer, socket: Int32, context: Unmanaged<ServerContext>) {
        self.daemon = daemon
        self.socket = socket
        self.context = context
    }

    /// No more connections: libmicrohttpd stops polling the socket, and shutting it down closes the port at once
    /// (the socket itself may be closed only after `MHD_stop_daemon`).
    func quiesce() {
        _ = MHD_quiesce_daemon(daemon)
        _ = shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Closes every connection, waits for their threads, then frees what the callbacks used.
    func close() {
        MHD_stop_daemon(daemon)
        _ = Glibc.close(socket)
        context.release()
    }
}

/// Runs `body` on a detached thread of its own.
private func detach(_ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let rc = pthread_create(&thread, nil, { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
    }, box)
    if rc == 0 { pthread_detach(thread) } else { Unmanaged<Box>.fromOpaque(box).takeRetainedValue().body() }
}

private final class Box: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
