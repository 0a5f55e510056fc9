#if canImport(Glibc)
import Glibc
#endif
internal import CCurl

/// What kind of proxy a proxy string without a scheme (or with `http://`) names; a scheme libcurl knows
/// (`https`, `socks4`, `socks4a`, `socks5`, `socks5h`) decides instead.
/// - SeeAlso: `CURLOPT_PROXYTYPE`, curl's `-x`, `--proxy1.0`, `--socks4`, `--socks4a`, `--socks5`, `--socks5-hostname`.
public enum ProxyType: Sendable, Equatable {
    case http, http1_0, https, socks4, socks4a, socks5, socks5Hostname

    /// Whether the proxy, not libcurl, looks up the target's name: every HTTP(S) proxy, SOCKS4a and SOCKS5h.
    public var resolvesTargetNames: Bool { self != .socks4 && self != .socks5 }
    /// Whether libcurl speaks SOCKS to it (it is then the `--preproxy` slot's kind).
    public var isSOCKS: Bool { [.socks4, .socks4a, .socks5, .socks5Hostname].contains(self) }

    /// The type libcurl gives `proxy`: its scheme's, or `given` for no scheme or `http://` (libcurl guesses `http`
    /// for a proxy without one); `nil` for a scheme libcurl refuses.
    /// - SeeAlso: libcurl 7.88.1's `parse_proxy` in `lib/url.c`.
    public static func of(_ proxy: String, given: ProxyType) -> ProxyType? {
        guard let separator = proxy.firstRange(of: "://") else { return given }
        switch proxy[..<separator.lowerBound].lowercased() {
        case "http": return given
        case "https": return .https
        case "socks5h": return .socks5Hostname
        case "socks5": return .socks5
        case "socks4a": return .socks4a
        case "socks4", "socks": return .socks4
        default: return nil
        }
    }

    var value: Int {
        switch self {
        case .http: Int(CURLPROXY_HTTP.rawValue)
        case .http1_0: Int(CURLPROXY_HTTP_1_0.rawValue)
        case .https: Int(CURLPROXY_HTTPS.rawValue)
        case .socks4: Int(CURLPROXY_SOCKS4.rawValue)
        case .socks4a: Int(CURLPROXY_SOCKS4A.rawValue)
        case .socks5: Int(CURLPROXY_SOCKS5.rawValue)
        case .socks5Hostname: Int(CURLPROXY_SOCKS5_HOSTNAME.rawValue)
        }
    }
}

/// Named setters for the proxy given on the command line (`-x` and its SOCKS forms, `--preproxy`, `--noproxy`,
/// `--proxy-user`) and how libcurl speaks to it.
extension EasyHandle {
    /// The proxy every request of this handle goes through (`[scheme://][user:password@]host[:port]`, http by
    /// default); an empty string turns off the proxies libcurl would take from the environment.
    /// - SeeAlso: `CURLOPT_PROXY`, curl's `-x/--proxy`.
    public func set(proxy: String) throws(CurlError) {
        try set(CURLOPT_PROXY, proxy)
        self.proxy = proxy
    }

    /// The type of a proxy given without a scheme (or with `http://`).
    /// - SeeAlso: `CURLOPT_PROXYTYPE`, curl's `--socks5`, `--proxy1.0`.
    public func set(proxyType: ProxyType) throws(CurlError) { try set(CURLOPT_PROXYTYPE, proxyType.value) }

    /// A SOCKS proxy libcurl connects through first, to reach the proxy of ``set(proxy:)`` (or the host, without
    /// one): `[scheme://][user:password@]host[:port]`.
    /// - SeeAlso: `CURLOPT_PRE_PROXY`, curl's `--preproxy`.
    public func set(preProxy: String) throws(CurlError) {
        try set(CURLOPT_PRE_PROXY, preProxy)
        self.preProxy = preProxy
    }

    /// Whether a request to an HTTP proxy goes through a `CONNECT` tunnel even for `http://` URLs.
    /// - SeeAlso: `CURLOPT_HTTPPROXYTUNNEL`, curl's `-p/--proxytunnel`.
    public func set(tunnelsThroughProxy: Bool) throws(CurlError) { try set(CURLOPT_HTTPPROXYTUNNEL, tunnelsThroughProxy ? 1 : 0) }

    /// Headers sent to the proxy only (in a `CONNECT`, or with a request sent to it in the clear); the headers of
    /// ``set(headers:)`` then go to the host only.
    /// - SeeAlso: `CURLOPT_PROXYHEADER`, `CURLOPT_HEADEROPT` (`CURLHEADER_SEPARATE`), curl's `--proxy-header`.
    public func set(proxyHeaders: [String]) throws(CurlError) {
        try set(CURLOPT_PROXYHEADER, list: proxyHeaders)
        try set(CURLOPT_HEADEROPT, ccurl_header_separate)
    }

    /// Whether the `CONNECT` response's headers stay out of the header callback (`-i`, `-D`).
    /// - SeeAlso: `CURLOPT_SUPPRESS_CONNECT_HEADERS`, curl's `--suppress-connect-headers`.
    public func set(suppressesConnectHeaders: Bool) throws(CurlError) {
        try set(CURLOPT_SUPPRESS_CONNECT_HEADERS, suppressesConnectHeaders ? 1 : 0)
    }

    /// How to authenticate to an HTTP proxy: curl's `--proxy-basic`, `--proxy-digest`, `--proxy-ntlm`,
    /// `--proxy-negotiate`, `--proxy-anyauth`.
    /// - SeeAlso: `CURLOPT_PROXYAUTH`.
    public func set(proxyAuthentication: HTTPAuthMethods) throws(CurlError) {
        try set(CURLOPT_PROXYAUTH, Int(bitPattern: proxyAuthentication.rawValue))
    }

    /// The service name of the proxy's GSS-API or SPNEGO principal (`HTTP` for Negotiate, `rcmd` for SOCKS5).
    /// - SeeAlso: `CURLOPT_PROXY_SERVICE_NAME`, curl's `--proxy-service-name`, `--socks5-gssapi-service`.
    public func set(proxyServiceName: String) throws(CurlError) { try set(CURLOPT_PROXY_SERVICE_NAME, proxyServiceName) }

    /// The methods offered to a SOCKS5 proxy beyond "no authentication": ``HTTPAuthMethods/basic``
    /// (username/password, `--socks5-basic`) and ``HTTPAuthMethods/gssapi`` (`--socks5-gssapi`); libcurl's default
    /// is both.
    /// - SeeAlso: `CURLOPT_SOCKS5_AUTH`.
    public func set(socks5Authentication: HTTPAuthMethods) throws(CurlError) {
        try set(CURLOPT_SOCKS5_AUTH, Int(bitPattern: socks5Authentication.rawValue))
    }

    /// Whether the GSS-API protection-mode negotiation with a SOCKS5 proxy goes unprotected, as the NEC reference
    /// implementation wants.
    /// - SeeAlso: `CURLOPT_SOCKS5_GSSAPI_NEC`, curl's `--socks5-gssapi-nec`.
    public func set(socks5GSSAPINEC: Bool) throws(CurlError) { try set(CURLOPT_SOCKS5_GSSAPI_NEC, socks5GSSAPINEC ? 1 : 0) }

    /// The passphrase of the proxy client certificate's key. A credential: callers never log it.
    /// - SeeAlso: `CURLOPT_PROXY_KEYPASSWD`, curl's `--proxy-pass`.
    public func set(proxyKeyPassphrase: String) throws(CurlError) { try set(CURLOPT_PROXY_KEYPASSWD, proxyKeyPassphrase) }

    /// The TLS-SRP password for an `https://` proxy. A credential: callers never log it.
    /// - SeeAlso: `CURLOPT_PROXY_TLSAUTH_PASSWORD`, curl's `--proxy-tlspassword`.
    public func set(proxySRPPassword: String) throws(CurlError) { try set(CURLOPT_PROXY_TLSAUTH_PASSWORD, proxySRPPassword) }

    /// Hosts reached directly even with a proxy set (comma-separated names, domain suffixes, IPs, CIDR ranges,
    /// or `*`); replaces `NO_PROXY`/`no_proxy`.
    /// - SeeAlso: `CURLOPT_NOPROXY`, curl's `--noproxy`.
    public func set(noProxy: String) throws(CurlError) { try set(CURLOPT_NOPROXY, noProxy) }

    /// `user:password` for the proxy. A credential: callers never log it.
    /// - SeeAlso: `CURLOPT_PROXYUSERPWD`, curl's `--proxy-user`.
    public func set(proxyUserPassword: String) throws(CurlError) { try set(CURLOPT_PROXYUSERPWD, proxyUserPassword) }

    /// `message`, libcurl's, with every proxy URL it quotes shown as messages show URLs (``CurlURL/redacted(text:)``):
    /// this handle's proxy and pre-proxy, or one libcurl took from the environment (``environmentProxies``). libcurl
    /// quotes a proxy it cannot use whole (`Unsupported proxy syntax in '…'`), user info and all.
    func hidingProxyUserInfo(in message: String) -> String {
        var text = message
        for proxy in [proxy, preProxy].compactMap({ $0 }) + Self.environmentProxies {
            guard let userInfo = CurlURL.userInfoBytes(in: proxy) else { continue }
            let shown = CurlURL.redacted(text: proxy)
            text = text.replacing(proxy, with: shown)
            // libcurl's error buffer holds 255 bytes: a long URL ends the message cut short, in its user info or after.
            let bytes = Array(text.utf8), whole = Array(proxy.utf8)
            let cutLengths = (userInfo.lowerBound + 1)..<whole.count
            if let cut = bytes.indices.first(where: { cutLengths.contains(bytes.count - $0) && whole.starts(with: bytes[$0...]) }) {
                text = String(decoding: bytes[..<cut], as: UTF8.self) + shown
            }
        }
        return text
    }

    /// The proxy variables libcurl 7.88.1 reads for http and https URLs (`http_proxy`, never `HTTP_PROXY`), as the
    /// process started with them; empty ones left out.
    static let environmentProxies: [String] = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        .compactMap { (name: String) -> String? in
            guard let value = getenv(name), value.pointee != 0 else { return nil }
            return String(cString: value)
        }
}
