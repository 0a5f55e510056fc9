internal import CCurl

/// The TLS settings of the requested URL's own transfers and never of the HTTPDNS queries (curl's `doh.c` does
/// not pass them to DoH either): protocol versions, ciphers, OCSP stapling, a client certificate and its key,
/// and a pinned public key. The key's passphrase is a credential and travels apart from these values.
/// - SeeAlso: `CURLOPT_SSLVERSION`, `CURLOPT_SSL_CIPHER_LIST`, `CURLOPT_TLS13_CIPHERS`, `CURLOPT_SSL_VERIFYSTATUS`,
///   `CURLOPT_SSLCERT`, `CURLOPT_SSLKEY`, `CURLOPT_PINNEDPUBLICKEY`, `CURLOPT_SSL_EC_CURVES`, `CURLOPT_CRLFILE`,
///   `CURLOPT_SSL_OPTIONS` (`CURLSSLOPT_ALLOW_BEAST`), `CURLOPT_SSLENGINE`, `CURLOPT_TLSAUTH_USERNAME`,
///   `CURLOPT_TLSAUTH_TYPE`.
public struct TargetTLSOptions: Sendable, Equatable {
    /// `--tlsv1.0` … `--tlsv1.3`: the lowest version allowed.
    public var minimumVersion: TLSVersion?
    /// `--tls-max`: the highest version allowed (`default` is `nil`).
    public var maximumVersion: TLSVersion?
    /// `--ciphers` (TLS 1.2 and below) and `--tls13-ciphers`.
    public var ciphers: String?, tls13Ciphers: String?
    /// `--cert-status`: require a good stapled OCSP response.
    public var verifiesCertificateStatus = false
    /// `-E/--cert` (without its `:PASSWORD`) and `--cert-type`.
    public var certificate: String?, certificateType: String?
    /// `--key` and `--key-type`.
    public var privateKey: String?, privateKeyType: String?
    /// `--pinnedpubkey`: `sha256//…` hashes or a key file.
    public var pinnedPublicKey: String?

    /// `--curves`: the key-exchange groups offered (`X25519:P-256`).
    public var curves: String?
    /// `--crlfile`: a PEM file of revoked certificates the peer's chain is checked against.
    public var crlFile: String?
    /// `--ssl-allow-beast`: keep OpenSSL's workaround for the BEAST attack off, for old servers.
    public var allowsBEAST = false
    /// `--engine`: the OpenSSL engine that holds the client key.
    public var engine: String?
    /// `--tlsuser` and `--tlsauthtype`: TLS-SRP's user name and method (`SRP`); the password is a credential
    /// and travels apart (``EasyHandle/set(tlsAuthPassword:)``).
    public var tlsAuthUser: String?, tlsAuthType: String?

    /// Everything at libcurl's defaults.
    public init() {}

    /// Applies the settings that are set to `handle`.
    public func apply(to handle: EasyHandle) throws(CurlError) {
        if minimumVersion != nil || maximumVersion != nil {
            try handle.set(tlsMinimum: minimumVersion, maximum: maximumVersion)
        }
        if let ciphers { try handle.set(cipherList: ciphers) }
        if let tls13Ciphers { try handle.set(tls13Ciphers: tls13Ciphers) }
        if verifiesCertificateStatus { try handle.set(verifiesCertificateStatus: true) }
        if let certificate { try handle.set(clientCertificate: certificate, type: certificateType) }
        if privateKey != nil || privateKeyType != nil { try handle.set(privateKey: privateKey, type: privateKeyType) }
        if let pinnedPublicKey { try handle.set(pinnedPublicKey: pinnedPublicKey) }
        if let curves { try handle.set(CURLOPT_SSL_EC_CURVES, curves) }
        if let crlFile { try handle.set(CURLOPT_CRLFILE, crlFile) }
        if allowsBEAST { try handle.set(CURLOPT_SSL_OPTIONS, ccurl_sslopt_allow_beast) }
        if let tlsAuthUser { try handle.set(CURLOPT_TLSAUTH_USERNAME, tlsAuthUser) }
        if let tlsAuthType { try handle.set(CURLOPT_TLSAUTH_TYPE, tlsAuthType) }
        if let engine {
            do throws(CurlError) { try handle.set(CURLOPT_SSLENGINE, engine) } catch {
                throw error.with(message: "SSL Engine '\(engine)' not found")
            }
            try handle.set(CURLOPT_SSLENGINE_DEFAULT, 1)
        }
    }
}
