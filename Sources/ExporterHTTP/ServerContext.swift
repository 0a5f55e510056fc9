#if canImport(Glibc)
import Glibc
#endif
internal import CMicroHTTPD

/// What the daemon's callbacks share: the handler, the client-certificate policy, the authenticator, the gate that
/// `stop` closes, and the TLS text libmicrohttpd was given.
final class ServerContext: @unchecked Sendable {
    /// The most request body read (and dropped) before the connection is closed or answered 413.
    static let bodyLimit = 64 * 1024
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    /// The client-certificate policy of a TLS server; nil for plain HTTP.
    let clientAuth: HTTPServerSecurity.ClientAuth?
    /// Whether the policy is also applied in the TLS handshake (the per-request check always applies).
    let handshakePolicy: Bool
    let authenticator: BasicAuthenticator?
    let tlsText: [CString]
    let gate = RequestGate()

    init(handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse, clientAuth: HTTPServerSecurity.ClientAuth?,
         handshakePolicy: Bool, authenticator: BasicAuthenticator?, tlsText: [CString]) {
        self.handler = handler
        self.clientAuth = clientAuth
        self.handshakePolicy = handshakePolicy
        self.authenticator = authenticator
        self.tlsText = tlsText
    }

    static func from(_ pointer: UnsafeMutableRawPointer) -> ServerContext {
        Unmanaged<ServerContext>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// The first call, once the header is in: the client certificate, the credentials and the declared body size.
    func admit(_ connection: OpaquePointer, _ state: RequestState) -> MHD_Result {
        guard clientCertificateAccepted(connection) else { return queue(Self.unauthorized(challenge: false), connection) }
        if let authenticator {
            guard let user = basicAuthUser(connection, authenticator) else {
                return queue(Self.unauthorized(challenge: true), connection)
            }
            state.user = user
        }
        if let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length"),
           let declared = Int(String(cString: length)), declared > Self.bodyLimit {
            return queue(HTTPResponse(status: 413, body: "Request Entity Too Large\n"), connection, close: true)
        }
        return .YES
    }

    /// The last call, with the whole request read: the handler's answer, or 503 once `stop` has closed the gate.
    func respond(_ connection: OpaquePointer, _ state: RequestState, method: String, path: String) -> MHD_Result {
        let request = HTTPRequest(method: method, path: path, query: values(connection, .GET_ARGUMENT_KIND),
                                  headers: values(connection, .HEADER_KIND),
                                  remoteAddress: remoteAddress(connection), user: state.user)
        guard gate.enter() else {
            return queue(HTTPResponse(status: 503, body: "Service Unavailable\n"), connection, close: true)
        }
        state.entered = true
        // The idle timeout does not run out under a slow handler: queueing the response restarts its clock.
        return queue(handler(request), connection, close: gate.isStopping)
    }

    /// Whether the connection's client certificate satisfies the policy, checked through the GnuTLS session.
    func clientCertificateAccepted(_ connection: OpaquePointer) -> Bool {
        guard let policy = clientAuth, policy.requiresCertificate || policy.verifiesCertificate else { return true }
        guard let session = ipc_mhd_tls_session(connection) else { return false }
        let verdict = ipc_tls_peer_verified(session)  // 1 verified, 0 not, -1 none sent
        switch policy {
        case .noClientCert, .requestClientCert: return true
        case .requireAnyClientCert: return verdict != -1
        case .verifyClientCertIfGiven: return verdict != 0
        case .requireAndVerifyClientCert: return verdict == 1
        }
    }

    private func basicAuthUser(_ connection: OpaquePointer, _ authenticator: BasicAuthenticator) -> String? {
        guard let header = MHD_lookup_connection_value(connection, .HEADER_KIND, "Authorization") else { return nil }
        return authenticator.user(authorization: String(cString: header)) {
            var password: UnsafeMutablePointer<CChar>?
            guard let user = MHD_basic_auth_get_username_password(connection, &password) else { return nil }
            defer {
                MHD_free(user)
                if let password {
                    explicit_bzero(password, strlen(password))
                    MHD_free(password)
                }
            }
            return (String(cString: user), password.map { String(cString: $0) } ?? "")
        }
    }

    private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [(name: String, value: String)] {
        let list = ValueList()
        withExtendedLifetime(list) {
            _ = MHD_get_connection_values(connection, kind, { cls, _, key, value in
                guard let cls, let key else { return .YES }
                let list = Unmanaged<ValueList>.fromOpaque(cls).takeUnretainedValue()
                list.items.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
                return .YES
            }, Unmanaged.passUnretained(list).toOpaque())
        }
        return list.items
    }

    private func remoteAddress(_ connection: OpaquePointer) -> String {
        var text = [CChar](repeating: 0, count: 64)
        ipc_mhd_client_address(connection, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Go's `http.Error(w, "Unauthorized", 401)`, with `WWW-Authenticate: Basic` when credentials are what is missing.
    static func unauthorized(challenge: Bool) -> HTTPResponse {
        HTTPResponse(status: 401, body: "Unauthorized\n",
                     headers: [("X-Content-Type-Options", "nosniff")] + (challenge ? [("WWW-Authenticate", "Basic")] : []))
    }

    func queue(_ response: HTTPResponse, _ connection: OpaquePointer, close: Bool = false) -> MHD_Result {
        let made = response.body.withUnsafeBytes { body in
            MHD_create_response_from_buffer(body.count, UnsafeMutableRawPointer(mutating: body.baseAddress),
                                            .RESPMEM_MUST_COPY)
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        for (name, value) in response.headers { _ = MHD_add_response_header(made, name, value) }
        if close { _ = MHD_add_response_header(made, "Connection", "close") }
        let status = (100...999).contains(response.status) ? response.status : 500
        return MHD_queue_response(connection, UInt32(status), made)
    }
}

/// One request's state between libmicrohttpd's calls (its `request_context`), released when it completes.
final class RequestState {
    var bodyBytes = 0
    var user: String?
    /// Whether the request went through the gate, and so must leave it.
    var entered = false
}

private final class ValueList {
    var items: [(name: String, value: String)] = []
}

/// A NUL-terminated copy of text for C that outlives the call it is passed to, zeroed when freed (key material).
final class CString: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<CChar>
    private let count: Int

    init(_ bytes: [UInt8]) {
        count = bytes.count + 1
        pointer = .allocate(capacity: count)
        for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
        pointer[bytes.count] = 0
    }

    deinit {
        explicit_bzero(pointer, count)
        pointer.deallocate()
    }
}
