import CurlKit

/// The proxy options of the command line. They are the requested URL's only: HTTPDNS queries never go through
/// `-x` (curl's DoH transfers do not inherit the user's proxy either).
/// - SeeAlso: `CURLOPT_PROXY`, `CURLOPT_PROXYTYPE`, `CURLOPT_PRE_PROXY`, `CURLOPT_NOPROXY`, `CURLOPT_PROXYUSERPWD`,
///   `CURLOPT_HTTPPROXYTUNNEL`, `CURLOPT_PROXYHEADER`, `CURLOPT_SUPPRESS_CONNECT_HEADERS`, `CURLOPT_PROXYAUTH`,
///   `CURLOPT_PROXY_SERVICE_NAME`, `CURLOPT_SOCKS5_AUTH`, `CURLOPT_SOCKS5_GSSAPI_NEC`; curl's `-x/--proxy` and
///   the options its man page lists beside it.
public struct ProxySettings: Sendable, Equatable {
    /// `-x/--proxy`, `--proxy1.0`, `--socks4`, `--socks4a`, `--socks5` or `--socks5-hostname` (the last given):
    /// `[scheme://][user:password@]host[:port]`; empty turns the environment's proxies off.
    public var url: String?
    /// The type of ``url`` when it has no scheme (or `http://`): the option's.
    public var type = ProxyType.http
    /// The option that gave ``url``, as `-v` and warnings name it (`-x`, `--socks5`).
    public var origin = "-x"
    /// `--preproxy`: a SOCKS proxy reached first; without a scheme, of ``type``, as libcurl reads it.
    public var preProxy: String?
    /// `--noproxy`: hosts reached directly; replaces `NO_PROXY`/`no_proxy` (for the environment's proxies too).
    public var noProxy: String?
    /// `--proxy-user` as `user:password`. A credential: never in `-v` or any message.
    public var credentials: Secret?
    /// `-p/--proxytunnel`: `CONNECT` even for `http://` URLs.
    public var tunnel = false
    /// `--proxy-header` lines (`@FILE` expanded), sent to the proxy only.
    public var headers: [String] = []
    /// `--suppress-connect-headers`.
    public var suppressesConnectHeaders = false
    /// `--proxy-basic`, `--proxy-digest`, `--proxy-ntlm`, `--proxy-negotiate`, `--proxy-anyauth`, decided as curl
    /// decides them; `nil` is libcurl's default (Basic).
    public var authentication: HTTPAuthMethods?
    /// `--proxy-service-name` (also `--socks5-gssapi-service`).
    public var serviceName: String?
    /// `--socks5-basic`, `--socks5-gssapi`: empty is libcurl's default (both).
    public var socks5Authentication: HTTPAuthMethods = []
    /// `--socks5-gssapi-nec`.
    public var socks5GSSAPINEC = false
    /// An `https://` proxy's TLS.
    public var tls = ProxyTLSOptions()
    /// The proxy client key's passphrase (`--proxy-cert CERT:PASSWORD`, `--proxy-pass FILE`, `$IPCURL_PROXY_PASS`).
    public var keyPassphrase: Secret?
    /// `--proxy-tlspassword FILE` or `$IPCURL_PROXY_TLSPASSWORD`: the TLS-SRP password.
    public var srpPassword: Secret?

    /// No proxy options: libcurl follows the environment.
    public init(url: String? = nil, noProxy: String? = nil, credentials: Secret? = nil) {
        self.url = url
        self.noProxy = noProxy
        self.credentials = credentials
    }

    /// Applies the options that are set to `handle`; `targetCAPath` is `--capath`'s directory, which curl also
    /// verifies the proxy with unless `--proxy-capath` is given; `targetCRLFile` is `--crlfile`'s, used unless
    /// `--proxy-crlfile` is given.
    func apply(to handle: EasyHandle, targetCAPath: String?, targetCRLFile: String? = nil) throws(CurlError) {
        // No proxy anywhere: libcurl is told so rather than reading the proxy variables again for every transfer.
        if ProxyEnvironment.isUnconfigured(self) { try handle.bypassProxies() }
        if let url {
            try handle.set(proxy: url)
            try handle.set(proxyType: type)
        }
        if let preProxy { try handle.set(preProxy: preProxy) }
        if let noProxy { try handle.set(noProxy: noProxy) }
        if let credentials { try handle.set(proxyUserPassword: credentials.value) }
        if tunnel { try handle.set(tunnelsThroughProxy: true) }
        if !headers.isEmpty { try handle.set(proxyHeaders: headers) }
        if suppressesConnectHeaders { try handle.set(suppressesConnectHeaders: true) }
        if let authentication { try handle.set(proxyAuthentication: authentication) }
        if let serviceName { try handle.set(proxyServiceName: serviceName) }
        if !socks5Authentication.isEmpty { try handle.set(socks5Authentication: socks5Authentication) }
        if socks5GSSAPINEC { try handle.set(socks5GSSAPINEC: true) }
        try tls.apply(to: handle, caPathFallback: targetCAPath, crlFileFallback: targetCRLFile)
        if let keyPassphrase { try handle.set(proxyKeyPassphrase: keyPassphrase.value) }
        if let srpPassword { try handle.set(proxySRPPassword: srpPassword.value) }
    }
}
