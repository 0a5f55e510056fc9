internal import CCurl

/// Named setters for an HTTP proxy given on the command line (`-x`, `--noproxy`, `--proxy-user`).
extension EasyHandle {
    /// The proxy every request of this handle goes through (`[scheme://][user:password@]host[:port]`, http by
    /// default); an empty string turns off the proxies libcurl would take from the environment.
    /// - SeeAlso: `CURLOPT_PROXY`, curl's `-x/--proxy`.
    public func set(proxy: String) throws(CurlError) { try set(CURLOPT_PROXY, proxy) }

    /// Hosts reached directly even with a proxy set (comma-separated names, domain suffixes, IPs, CIDR ranges,
    /// or `*`); replaces `NO_PROXY`/`no_proxy`.
    /// - SeeAlso: `CURLOPT_NOPROXY`, curl's `--noproxy`.
    public func set(noProxy: String) throws(CurlError) { try set(CURLOPT_NOPROXY, noProxy) }

    /// `user:password` for the proxy. A credential: callers never log it.
    /// - SeeAlso: `CURLOPT_PROXYUSERPWD`, curl's `--proxy-user`.
    public func set(proxyUserPassword: String) throws(CurlError) { try set(CURLOPT_PROXYUSERPWD, proxyUserPassword) }
}
