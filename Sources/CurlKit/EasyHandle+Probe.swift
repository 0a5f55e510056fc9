internal import CCurl

/// What a connectivity probe asks of a transfer beyond a plain request: a connection of its own, and the TLS
/// facts of that connection.
extension EasyHandle {
    /// Opens a new connection for this transfer and closes it afterwards, so the transfer tests the address it
    /// pins rather than a connection another transfer left open; no TLS session is resumed either, so the
    /// handshake (and the certificate chain) is the address's own.
    /// - SeeAlso: `CURLOPT_FRESH_CONNECT`, `CURLOPT_FORBID_REUSE`, `CURLOPT_SSL_SESSIONID_CACHE`.
    public func set(freshConnection: Bool) throws(CurlError) {
        try set(CURLOPT_FRESH_CONNECT, freshConnection ? 1 : 0)
        try set(CURLOPT_FORBID_REUSE, freshConnection ? 1 : 0)
        try set(CURLOPT_SSL_SESSIONID_CACHE, freshConnection ? 0 : 1)
    }

    /// Connects directly, whatever `http_proxy`/`https_proxy`/`ALL_PROXY` say: through a proxy, the proxy
    /// resolves the name and the pinned address is never used.
    /// - SeeAlso: `CURLOPT_NOPROXY`.
    public func bypassProxies() throws(CurlError) { try set(CURLOPT_NOPROXY, "*") }

    /// Makes libcurl keep the peer's certificate chain for ``certificateChain()``.
    /// - SeeAlso: `CURLOPT_CERTINFO`.
    public func set(collectsCertificates: Bool) throws(CurlError) {
        try set(CURLOPT_CERTINFO, collectsCertificates ? 1 : 0)
    }

    /// The peer's certificate chain as libcurl's OpenSSL backend describes it: per certificate (leaf first) its
    /// fields (`Subject`, `Issuer`, `Expire date`, `X509v3 Subject Alternative Name`, ...). Empty without TLS or
    /// without ``set(collectsCertificates:)``.
    /// - SeeAlso: `CURLINFO_CERTINFO`.
    public func certificateChain() -> [[String: String]] {
        certificateEntries().map { entries in
            var fields: [String: String] = [:]
            for text in entries {
                if let colon = text.firstIndex(of: ":") { fields[String(text[..<colon])] = String(text[text.index(after: colon)...]) }
            }
            return fields
        }
    }

    /// Per certificate (leaf first), libcurl's `name:value` entries in its order, as curl's `%{certs}` prints them.
    /// - SeeAlso: `CURLINFO_CERTINFO`.
    public func certificateEntries() -> [[String]] {
        var info: UnsafeMutablePointer<curl_certinfo>?
        guard ccurl_easy_getinfo_certinfo(raw, &info) == CURLE_OK, let info, let lists = info.pointee.certinfo else {
            return []
        }
        return (0..<Int(info.pointee.num_of_certs)).map { StringList.strings(of: lists[$0]) }
    }

    /// The TLS version of the live connection as OpenSSL names it (`TLSv1.3`); `nil` over plain HTTP, with
    /// another TLS backend, or once the connection closed: read it from a header or body callback.
    /// - SeeAlso: `CURLINFO_TLS_SSL_PTR`, OpenSSL's `SSL_get_version`.
    public func liveTLSVersion() -> String? {
        ccurl_easy_tls_version(raw).map { String(cString: $0) }
    }

    /// The certificates the peer of the live connection sent, leaf first, as OpenSSL's `STACK_OF(X509) *` (owned by
    /// the connection: valid only inside a header or body callback); `nil` over plain HTTP or with another TLS
    /// backend. For readers that read certificates with libcrypto without libcurl's `CURLOPT_CERTINFO` text.
    /// - SeeAlso: `CURLINFO_TLS_SSL_PTR`, OpenSSL's `SSL_get_peer_cert_chain` (the leaf included on a client).
    public func livePeerCertificateChain() -> UnsafeMutableRawPointer? {
        ccurl_ssl_pointer(ccurl_easy_tls_ssl(raw), "SSL_get_peer_cert_chain")
    }

    /// The chain OpenSSL verified for the live connection, leaf to trust anchor (the anchor from the trust store, not
    /// sent by the peer), under the same terms as ``livePeerCertificateChain()``; `nil` when none was verified
    /// (verification off).
    /// - SeeAlso: OpenSSL's `SSL_get0_verified_chain`.
    public func liveVerifiedCertificateChain() -> UnsafeMutableRawPointer? {
        ccurl_ssl_pointer(ccurl_easy_tls_ssl(raw), "SSL_get0_verified_chain")
    }
}
