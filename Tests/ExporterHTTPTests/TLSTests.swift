@testable import ExporterHTTP
import Foundation
import Testing

/// HTTPS from PEM text, and each client_auth_type with the real curl (OpenSSL) as the client.
@Suite struct TLSTests {
    private func server(_ clientAuth: HTTPServerSecurity.ClientAuth = .noClientCert, clientCA: String? = nil,
                        handshakePolicy: Bool = true, echo: Echo) throws -> HTTPServer {
        let pki = try TestPKI.shared.get()
        let tls = HTTPServerSecurity.TLS(certificatePEM: try pki.bytes("server.pem"), keyPEM: try pki.bytes("server.key"),
                                         clientCAPEM: try clientCA.map { try pki.bytes($0) }, clientAuth: clientAuth)
        return try HTTPServer(listenAddress: "127.0.0.1:0", security: .init(tls: tls), idleTimeoutSeconds: 90,
                              handshakePolicy: handshakePolicy, handler: echo.handle)
    }

    /// curl over HTTPS to `server`, trusting the test CA, with the named client certificate if any.
    private func get(_ server: HTTPServer, certificate: String? = nil) throws -> CurlResult {
        let pki = try TestPKI.shared.get()
        var arguments = ["--cacert", pki.path("ca.pem")]
        if let certificate { arguments += ["--cert", pki.path("\(certificate).pem"), "--key", pki.path("\(certificate).key")] }
        return try curl(arguments + ["https://127.0.0.1:\(server.port)/metrics"])
    }

    @Test func httpsServesAndPlainHTTPToTheTLSPortGetsNoResponse() throws {
        let echo = Echo()
        let tlsServer = try server(echo: echo)
        defer { tlsServer.stop(graceMilliseconds: 0) }
        let secure = try get(tlsServer)
        #expect(secure.status == 200 && secure.body.contains("path /metrics"))
        let plain = try curl(["http://127.0.0.1:\(tlsServer.port)/metrics"])
        #expect(plain.exit != 0 && plain.status == 0)
        #expect(echo.calls == 1)
    }

    @Test func requireAndVerifyClientCertAcceptsOnlyAVerifiedClientCertificate() throws {
        let echo = Echo()
        let tlsServer = try server(.requireAndVerifyClientCert, clientCA: "ca.pem", echo: echo)
        defer { tlsServer.stop(graceMilliseconds: 0) }
        // Refused in the handshake, as Go's tls.RequireAndVerifyClientCert refuses: no HTTP response at all.
        for refused in [nil, "other-client", "server-purpose"] {
            let result = try get(tlsServer, certificate: refused)
            #expect(result.exit != 0 && result.status == 0, "client certificate \(refused ?? "none")")
        }
        #expect(echo.calls == 0)
        let accepted = try get(tlsServer, certificate: "client")
        #expect(accepted.status == 200)
        #expect(echo.calls == 1)
    }

    @Test func thePerRequestCheckRefusesWithoutTheHandshakePolicy() throws {
        let echo = Echo()
        let tlsServer = try server(.requireAndVerifyClientCert, clientCA: "ca.pem", handshakePolicy: false, echo: echo)
        defer { tlsServer.stop(graceMilliseconds: 0) }
        for refused in [nil, "other-client", "server-purpose"] {
            #expect(try get(tlsServer, certificate: refused).status == 401, "client certificate \(refused ?? "none")")
        }
        #expect(echo.calls == 0)
        #expect(try get(tlsServer, certificate: "client").status == 200)
    }

    @Test func verifyClientCertIfGivenAcceptsNoneButRefusesAnUnverifiedOne() throws {
        let echo = Echo()
        let tlsServer = try server(.verifyClientCertIfGiven, clientCA: "ca.pem", echo: echo)
        defer { tlsServer.stop(graceMilliseconds: 0) }
        #expect(try get(tlsServer).status == 200)
        #expect(try get(tlsServer, certificate: "client").status == 200)
        #expect(try get(tlsServer, certificate: "other-client").status == 0)
        #expect(echo.calls == 2)
    }

    @Test func requireAnyClientCertWantsACertificateButDoesNotVerifyIt() throws {
        let echo = Echo()
        let tlsServer = try server(.requireAnyClientCert, echo: echo)
        defer { tlsServer.stop(graceMilliseconds: 0) }
        #expect(try get(tlsServer).status == 0)
        #expect(try get(tlsServer, certificate: "other-client").status == 200)
        #expect(echo.calls == 1)
    }

    @Test func requestClientCertServesWithOrWithoutOne() throws {
        let echo = Echo()
        let tlsServer = try server(.requestClientCert, echo: echo)
        defer { tlsServer.stop(graceMilliseconds: 0) }
        #expect(try get(tlsServer).status == 200)
        #expect(try get(tlsServer, certificate: "other-client").status == 200)
    }

    @Test func unusableTLSMaterialIsRefusedAtStart() throws {
        let pki = try TestPKI.shared.get()
        func start(_ tls: HTTPServerSecurity.TLS) -> String {
            do {
                let server = try HTTPServer(listenAddress: "127.0.0.1:0", security: .init(tls: tls)) { _ in
                    HTTPResponse(status: 200, body: "")
                }
                server.stop(graceMilliseconds: 0)
                return "started"
            } catch { return error.description }
        }
        let cert = try pki.bytes("server.pem"), key = try pki.bytes("server.key")
        #expect(start(.init(certificatePEM: Array("not a certificate".utf8), keyPEM: key))
            .hasPrefix("TLS: the server certificate and key: "))
        #expect(start(.init(certificatePEM: cert, keyPEM: try pki.bytes("client.key")))
            .hasPrefix("TLS: the server certificate and key: "))
        #expect(start(.init(certificatePEM: cert, keyPEM: key, clientCAPEM: Array("junk".utf8),
                            clientAuth: .requireAndVerifyClientCert)).hasPrefix("TLS: the client CAs: "))
        #expect(start(.init(certificatePEM: cert, keyPEM: key, clientAuth: .verifyClientCertIfGiven))
            == "TLS: client_auth_type VerifyClientCertIfGiven needs client CAs")
        #expect(start(.init(certificatePEM: cert, keyPEM: key, clientCAPEM: try pki.bytes("ca.pem")))
            == "TLS: client CAs are given without a client_auth_type that asks for certificates")
        #expect(start(.init(certificatePEM: cert, keyPEM: key)) == "started")
    }
}
