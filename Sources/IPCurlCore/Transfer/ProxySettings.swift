import CurlKit

/// The proxy options of the command line. They are the requested URL's only: HTTPDNS queries never go through
/// `-x` (curl's DoH transfers do not inherit the user's proxy either).
/// - SeeAlso: `CURLOPT_PROXY`, `CURLOPT_NOPROXY`, `CURLOPT_PROXYUSERPWD`, curl's `-x/--proxy`, `--noproxy`,
///   `--proxy-user`.
public struct ProxySettings: Sendable, Equatable {
    /// `-x/--proxy`: `[scheme://][user:password@]host[:port]`; empty turns the environment's proxies off.
    public var url: String?
    /// `--noproxy`: hosts reached directly; replaces `NO_PROXY`/`no_proxy` (for the environment's proxies too).
    public var noProxy: String?
    /// `--proxy-user` as `user:password`. A credential: never in `-v` or any message.
    public var credentials: Secret?

    /// No proxy options: libcurl follows the environment.
    public init(url: String? = nil, noProxy: String? = nil, credentials: Secret? = nil) {
        self.url = url
        self.noProxy = noProxy
        self.credentials = credentials
    }

    /// Applies the options that are set to `handle`.
    func apply(to handle: EasyHandle) throws(CurlError) {
        if let url { try handle.set(proxy: url) }
        if let noProxy { try handle.set(noProxy: noProxy) }
        if let credentials { try handle.set(proxyUserPassword: credentials.value) }
    }
}
