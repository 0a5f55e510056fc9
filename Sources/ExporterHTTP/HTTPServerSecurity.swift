/// TLS and basic authentication for a server, in the terms of exporter-toolkit's web configuration file
/// (`tls_server_config`, `basic_auth_users`); the caller reads the files.
/// - SeeAlso: libmicrohttpd's `MHD_OPTION_HTTPS_MEM_CERT`, `MHD_OPTION_HTTPS_MEM_KEY`, `MHD_OPTION_HTTPS_MEM_TRUST`;
///   GnuTLS's `gnutls_certificate_server_set_request` and `gnutls_certificate_verify_peers`; libcrypt's `crypt_r`.
public struct HTTPServerSecurity: Sendable {
    /// exporter-toolkit's `client_auth_type` values (Go's `tls.ClientAuthType`): whether a client certificate is
    /// asked for, required, and verified against the client CAs.
    /// - SeeAlso: `gnutls_certificate_server_set_request` (GNUTLS_CERT_REQUEST, GNUTLS_CERT_REQUIRE),
    ///   `gnutls_session_set_verify_function`, `gnutls_certificate_verify_peers`.
    public enum ClientAuth: String, Sendable, CaseIterable {
        case noClientCert = "NoClientCert"
        case requestClientCert = "RequestClientCert"
        case requireAnyClientCert = "RequireAnyClientCert"
        case verifyClientCertIfGiven = "VerifyClientCertIfGiven"
        case requireAndVerifyClientCert = "RequireAndVerifyClientCert"

        var requiresCertificate: Bool { self == .requireAnyClientCert || self == .requireAndVerifyClientCert }
        var verifiesCertificate: Bool { self == .verifyClientCertIfGiven || self == .requireAndVerifyClientCert }
    }

    /// The server's certificate chain and key (PEM) and the client-certificate policy.
    /// - SeeAlso: `MHD_OPTION_HTTPS_MEM_CERT`, `MHD_OPTION_HTTPS_MEM_KEY`, `MHD_OPTION_HTTPS_MEM_TRUST`.
    public struct TLS: Sendable {
        public var certificatePEM: [UInt8]
        public var keyPEM: [UInt8]
        /// The CAs a client certificate must chain to; required by the two verifying policies, refused with
        /// `noClientCert` (as exporter-toolkit refuses it).
        public var clientCAPEM: [UInt8]?
        public var clientAuth: ClientAuth

        public init(certificatePEM: [UInt8], keyPEM: [UInt8], clientCAPEM: [UInt8]? = nil,
                    clientAuth: ClientAuth = .noClientCert) {
            self.certificatePEM = certificatePEM
            self.keyPEM = keyPEM
            self.clientCAPEM = clientCAPEM
            self.clientAuth = clientAuth
        }
    }

    /// HTTPS when set; plain HTTP otherwise.
    public var tls: TLS?
    /// User name → bcrypt hash (`$2a$`, `$2b$`, `$2y$`); when not empty every request needs one of them.
    public var basicAuthUsers: [String: String]

    public init(tls: TLS? = nil, basicAuthUsers: [String: String] = [:]) {
        self.tls = tls
        self.basicAuthUsers = basicAuthUsers
    }
}
