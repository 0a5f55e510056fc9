internal import CCurl

/// A TLS protocol version, for `--tlsv1.x` (the lowest allowed) and `--tls-max` (the highest).
/// - SeeAlso: `CURLOPT_SSLVERSION`, curl's `--tlsv1.2`, `--tls-max`.
public enum TLSVersion: String, Sendable, CaseIterable, Comparable {
    case v1_0 = "1.0", v1_1 = "1.1", v1_2 = "1.2", v1_3 = "1.3"

    /// The `CURL_SSLVERSION_TLSv1_x` value (the minimum); `<< 16` makes it the `CURL_SSLVERSION_MAX_` one.
    var minimumValue: Int {
        switch self {
        case .v1_0: Int(CURL_SSLVERSION_TLSv1_0)
        case .v1_1: Int(CURL_SSLVERSION_TLSv1_1)
        case .v1_2: Int(CURL_SSLVERSION_TLSv1_2)
        case .v1_3: Int(CURL_SSLVERSION_TLSv1_3)
        }
    }

    public static func < (lhs: TLSVersion, rhs: TLSVersion) -> Bool { lhs.minimumValue < rhs.minimumValue }
}

/// Named setters for the target's TLS: which CA store and versions, which ciphers, a client certificate, a
/// pinned public key and OCSP stapling.
extension EasyHandle {
    /// A directory of hashed CA certificates (`c_rehash`) to verify peers with, besides any CA file.
    /// - SeeAlso: `CURLOPT_CAPATH`, curl's `--capath`.
    public func set(caPath: String) throws(CurlError) { try set(CURLOPT_CAPATH, caPath) }

    /// Verifies peers with the CA file alone, without libcurl's built-in CA directory (`/etc/ssl/certs` on Debian):
    /// the trust of a TLS client whose roots are one file, as Go's `tls.Config.RootCAs`. libcurl then also caches
    /// the store it built from the file in the multi handle (`CURLOPT_CA_CACHE_TIMEOUT`), which a directory prevents.
    /// - SeeAlso: `CURLOPT_CAPATH` set to NULL.
    public func trustCAFileOnly() throws(CurlError) { try set(CURLOPT_CAPATH, nil) }

    /// The lowest and highest TLS versions the handshake may use; `nil` leaves libcurl's default.
    /// - SeeAlso: `CURLOPT_SSLVERSION`, curl's `--tlsv1.0` … `--tlsv1.3`, `--tls-max`.
    public func set(tlsMinimum: TLSVersion?, maximum: TLSVersion?) throws(CurlError) {
        let low = tlsMinimum?.minimumValue ?? Int(CURL_SSLVERSION_DEFAULT)
        let high = maximum.map { $0.minimumValue << 16 } ?? Int(CURL_SSLVERSION_MAX_DEFAULT)
        try set(CURLOPT_SSLVERSION, low | high)
    }

    /// The client certificate (a file, or a `pkcs11:` URI) and its type (`PEM`, `DER`, `P12`).
    /// - SeeAlso: `CURLOPT_SSLCERT`, `CURLOPT_SSLCERTTYPE`, curl's `-E/--cert`, `--cert-type`.
    public func set(clientCertificate: String, type: String?) throws(CurlError) {
        try set(CURLOPT_SSLCERT, clientCertificate)
        if let type { try set(CURLOPT_SSLCERTTYPE, type) }
    }

    /// The client certificate's private key (a file) and its type (`PEM`, `DER`, `ENG`); without it libcurl
    /// reads the key from the certificate file.
    /// - SeeAlso: `CURLOPT_SSLKEY`, `CURLOPT_SSLKEYTYPE`, curl's `--key`, `--key-type`.
    public func set(privateKey: String?, type: String?) throws(CurlError) {
        if let privateKey { try set(CURLOPT_SSLKEY, privateKey) }
        if let type { try set(CURLOPT_SSLKEYTYPE, type) }
    }

    /// The passphrase of the private key (or of a P12 file). A credential: callers never log it.
    /// - SeeAlso: `CURLOPT_KEYPASSWD`, curl's `--pass`.
    public func set(keyPassphrase: String) throws(CurlError) { try set(CURLOPT_KEYPASSWD, keyPassphrase) }

    /// The public key the server must present: `sha256//BASE64[;sha256//BASE64…]` or a PEM/DER key file;
    /// a mismatch ends the transfer with exit 90.
    /// - SeeAlso: `CURLOPT_PINNEDPUBLICKEY`, curl's `--pinnedpubkey`.
    public func set(pinnedPublicKey: String) throws(CurlError) { try set(CURLOPT_PINNEDPUBLICKEY, pinnedPublicKey) }

    /// TLS-SRP's password (`--tlspassword`). A credential: never logged.
    /// - SeeAlso: `CURLOPT_TLSAUTH_PASSWORD`.
    public func set(tlsAuthPassword: String) throws(CurlError) { try set(CURLOPT_TLSAUTH_PASSWORD, tlsAuthPassword) }

    /// OpenSSL cipher list for TLS 1.2 and below.
    /// - SeeAlso: `CURLOPT_SSL_CIPHER_LIST`, curl's `--ciphers`.
    public func set(cipherList: String) throws(CurlError) { try set(CURLOPT_SSL_CIPHER_LIST, cipherList) }

    /// TLS 1.3 cipher suites.
    /// - SeeAlso: `CURLOPT_TLS13_CIPHERS`, curl's `--tls13-ciphers`.
    public func set(tls13Ciphers: String) throws(CurlError) { try set(CURLOPT_TLS13_CIPHERS, tls13Ciphers) }

    /// Require a stapled, good OCSP response for the server's certificate (exit 91 otherwise).
    /// - SeeAlso: `CURLOPT_SSL_VERIFYSTATUS`, curl's `--cert-status`.
    public func set(verifiesCertificateStatus: Bool) throws(CurlError) {
        try set(CURLOPT_SSL_VERIFYSTATUS, verifiesCertificateStatus ? 1 : 0)
    }
}
