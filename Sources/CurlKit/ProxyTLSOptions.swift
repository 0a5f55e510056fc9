internal import CCurl

/// The TLS of the connection to an `https://` proxy, apart from the target's (``TargetTLSOptions``) and the
/// HTTPDNS queries' trust (``TransportOptions``), as curl keeps its `--proxy-*` TLS options apart: the CA store and
/// revocation list the proxy is verified with, whether it is verified at all, a client certificate and its key,
/// ciphers, a pinned public key, the lowest version and a TLS-SRP user. Unset, each is libcurl's default (the
/// proxy verified against libcurl's built-in CA bundle and directory). The key's passphrase and the SRP password
/// are credentials and travel apart from these values.
/// - SeeAlso: `CURLOPT_PROXY_CAINFO`, `CURLOPT_PROXY_CAPATH`, `CURLOPT_PROXY_CRLFILE`,
///   `CURLOPT_PROXY_SSL_VERIFYPEER`, `CURLOPT_PROXY_SSL_VERIFYHOST`, `CURLOPT_PROXY_SSLCERT`,
///   `CURLOPT_PROXY_SSLCERTTYPE`, `CURLOPT_PROXY_SSLKEY`, `CURLOPT_PROXY_SSLKEYTYPE`,
///   `CURLOPT_PROXY_SSL_CIPHER_LIST`, `CURLOPT_PROXY_TLS13_CIPHERS`, `CURLOPT_PROXY_PINNEDPUBLICKEY`,
///   `CURLOPT_PROXY_SSL_OPTIONS`, `CURLOPT_PROXY_SSLVERSION`, `CURLOPT_PROXY_TLSAUTH_TYPE`,
///   `CURLOPT_PROXY_TLSAUTH_USERNAME`.
public struct ProxyTLSOptions: Sendable, Equatable {
    /// `--proxy-cacert` and `--proxy-capath`.
    public var caFile: String?, caPath: String?
    /// `--proxy-crlfile`: certificates the proxy may not present.
    public var crlFile: String?
    /// `--proxy-insecure`: skip the proxy's certificate and host-name verification. Only ever set explicitly.
    public var insecure = false
    /// `--proxy-cert` (without its `:PASSWORD`) and `--proxy-cert-type`.
    public var certificate: String?, certificateType: String?
    /// `--proxy-key` and `--proxy-key-type`.
    public var privateKey: String?, privateKeyType: String?
    /// `--proxy-ciphers` (TLS 1.2 and below) and `--proxy-tls13-ciphers`.
    public var ciphers: String?, tls13Ciphers: String?
    /// `--proxy-pinnedpubkey`: `sha256//…` hashes or a key file.
    public var pinnedPublicKey: String?
    /// `--proxy-ssl-allow-beast`: keep OpenSSL's empty-fragment workaround for the BEAST attack off.
    public var allowsBeast = false
    /// `--proxy-tlsv1`: TLS 1.0 or later (libcurl's `CURL_SSLVERSION_TLSv1`).
    public var tlsv1 = false
    /// `--proxy-tlsauthtype` (`SRP`, the only one) and `--proxy-tlsuser`.
    public var authType: String?, srpUser: String?

    /// Everything at libcurl's defaults.
    public init() {}

    /// Applies the settings that are set to `handle`; `caPathFallback`, used when ``caPath`` is unset, is the
    /// directory curl passes on from `--capath` (or `SSL_CERT_DIR`); `crlFileFallback`, used when ``crlFile`` is
    /// unset, is `--crlfile`'s, which curl passes on too.
    public func apply(to handle: EasyHandle, caPathFallback: String?, crlFileFallback: String? = nil) throws(CurlError) {
        if let caFile { try handle.set(CURLOPT_PROXY_CAINFO, caFile) }
        if let path = caPath ?? caPathFallback { try handle.set(CURLOPT_PROXY_CAPATH, path) }
        if let crlFile = crlFile ?? crlFileFallback { try handle.set(CURLOPT_PROXY_CRLFILE, crlFile) }
        if insecure {
            try handle.set(CURLOPT_PROXY_SSL_VERIFYPEER, 0)
            try handle.set(CURLOPT_PROXY_SSL_VERIFYHOST, 0)
        }
        if let certificate { try handle.set(CURLOPT_PROXY_SSLCERT, certificate) }
        if let certificateType { try handle.set(CURLOPT_PROXY_SSLCERTTYPE, certificateType) }
        if let privateKey { try handle.set(CURLOPT_PROXY_SSLKEY, privateKey) }
        if let privateKeyType { try handle.set(CURLOPT_PROXY_SSLKEYTYPE, privateKeyType) }
        if let ciphers { try handle.set(CURLOPT_PROXY_SSL_CIPHER_LIST, ciphers) }
        if let tls13Ciphers { try handle.set(CURLOPT_PROXY_TLS13_CIPHERS, tls13Ciphers) }
        if let pinnedPublicKey { try handle.set(CURLOPT_PROXY_PINNEDPUBLICKEY, pinnedPublicKey) }
        if allowsBeast { try handle.set(CURLOPT_PROXY_SSL_OPTIONS, ccurl_sslopt_allow_beast) }
        if tlsv1 { try handle.set(CURLOPT_PROXY_SSLVERSION, Int(CURL_SSLVERSION_TLSv1)) }
        if let srpUser { try handle.set(CURLOPT_PROXY_TLSAUTH_USERNAME, srpUser) }
        if let authType { try handle.set(CURLOPT_PROXY_TLSAUTH_TYPE, authType) }
    }
}
