#if canImport(Glibc)
import Glibc
#endif
internal import CCurl

/// Named setters for an HTTP proxy given on the command line (`-x`, `--noproxy`, `--proxy-user`).
extension EasyHandle {
    /// The proxy every request of this handle goes through (`[scheme://][user:password@]host[:port]`, http by
    /// default); an empty string turns off the proxies libcurl would take from the environment.
    /// - SeeAlso: `CURLOPT_PROXY`, curl's `-x/--proxy`.
    public func set(proxy: String) throws(CurlError) {
        try set(CURLOPT_PROXY, proxy)
        self.proxy = proxy
    }

    /// Hosts reached directly even with a proxy set (comma-separated names, domain suffixes, IPs, CIDR ranges,
    /// or `*`); replaces `NO_PROXY`/`no_proxy`.
    /// - SeeAlso: `CURLOPT_NOPROXY`, curl's `--noproxy`.
    public func set(noProxy: String) throws(CurlError) { try set(CURLOPT_NOPROXY, noProxy) }

    /// `user:password` for the proxy. A credential: callers never log it.
    /// - SeeAlso: `CURLOPT_PROXYUSERPWD`, curl's `--proxy-user`.
    public func set(proxyUserPassword: String) throws(CurlError) { try set(CURLOPT_PROXYUSERPWD, proxyUserPassword) }

    /// `message`, libcurl's, with every proxy URL it quotes shown as messages show URLs (``CurlURL/redacted(text:)``):
    /// this handle's, or one libcurl took from the environment (``environmentProxies``). libcurl quotes a proxy it
    /// cannot use whole (`Unsupported proxy syntax in '…'`), user info and all.
    func hidingProxyUserInfo(in message: String) -> String {
        var text = message
        for proxy in (proxy.map { [$0] } ?? []) + Self.environmentProxies {
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
