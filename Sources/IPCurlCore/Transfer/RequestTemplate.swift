import CurlKit
import HTTPDNS

/// How `-f/--fail` and `--fail-with-body` treat an HTTP status of 400 or more.
/// - SeeAlso: `CURLOPT_FAILONERROR`, curl's `--fail-with-body`.
public enum FailMode: Sendable { case off, fail, failWithBody }

/// The parts of a request that every hop and every attempt share: headers, identity, cookies, HTTP version,
/// compression, fail mode, trust and limits, the target's TLS, proxy, tuning and address families. The command
/// line fills one per operation; ``TransferSpec`` embeds it whole, and a hop overrides only the URL, method,
/// payload, referer and credentials (a hop to another host drops the credential headers). A new request flag is
/// an option row, a field here and its line in ``apply(to:direct:)``.
/// - SeeAlso: `CURLOPT_HTTPHEADER`, `CURLOPT_CUSTOMREQUEST`, `CURLOPT_USERAGENT`, `CURLOPT_COOKIEFILE`,
///   `CURLOPT_COOKIEJAR`, `CURLOPT_ACCEPT_ENCODING`, `CURLOPT_FAILONERROR`, `CURLOPT_HTTP_VERSION`,
///   `CURLOPT_IPRESOLVE`, `CURLOPT_PROXY`.
public struct RequestTemplate: Sendable {
    /// `-X/--request`: the method string sent on every hop instead of the inferred one.
    public var customMethod: String?
    /// `-H/--header` lines, verbatim.
    public var headers: [String] = []
    /// `-A/--user-agent`; `nil` sends `ipcurl/VERSION`, empty sends none.
    public var userAgent: String?
    /// `-b FILE`: cookie files for the engine.
    public var cookieFiles: [String] = []
    /// `-c/--cookie-jar`: where every cookie is written at the end (`-` is stdout).
    public var cookieJar: String?
    /// `-j/--junk-session-cookies`: cookies without an expiry read from files are dropped.
    public var junkSessionCookies = false
    /// `--compressed`: ask for every encoding libcurl can decode and decode it.
    public var compressed = false
    /// `-f/--fail`, `--fail-with-body`.
    public var fail = FailMode.off
    /// `--http1.0`, `--http1.1`, `--http2`; `nil` is libcurl's default.
    public var httpVersion: HTTPVersion?
    /// TLS trust and timeouts, shared with the HTTPDNS queries.
    public var transport = TransportOptions()
    /// The target's own TLS (versions, ciphers, client certificate, pinned key, `--cert-status`); never the
    /// HTTPDNS queries'.
    @CopyOnWrite public var tls = TargetTLSOptions()
    /// The client key's passphrase (`-E CERT:PASSWORD`, or ipcurl's `--pass FILE` / `$IPCURL_PASS`). A credential.
    public var keyPassphrase: Secret?
    /// TLS-SRP's password (ipcurl's `--tlspassword FILE` / `$IPCURL_TLSPASSWORD`). A credential.
    public var tlsAuthPassword: Secret?
    /// `-x` and the other proxy options: the target's proxy; never the HTTPDNS queries'.
    @CopyOnWrite public var proxy = ProxySettings()
    /// `--limit-rate`, `-r`, `--path-as-is`, `--raw`, `--ignore-content-length`, `--max-filesize`,
    /// `--happy-eyeballs-timeout-ms`, `-C`'s offset.
    public var tuning = TransferTuning()
    /// `-4`/`-6`: the address families libcurl may connect to.
    public var families = AddressFamilies.both
    /// Server authentication beyond `-u`: methods, bearer token, AWS SigV4, GSS-API, `.netrc`.
    @CopyOnWrite public var auth = ServerAuth()
    /// `--connect-to`, `--unix-socket`, `--interface`, `--local-port`, `--alt-svc`, `--hsts`: where connections go
    /// and leave from besides the URL's host and port.
    @CopyOnWrite public var route = ConnectionRoute()

    /// curl's defaults.
    public init() {}

    /// Sets every shared part on `handle`; `direct` (a probe's fresh connection) bypasses every proxy.
    func apply(to handle: EasyHandle, direct: Bool) throws(CurlError) {
        try transport.apply(to: handle)
        try tls.apply(to: handle)
        try tuning.apply(to: handle)
        if let keyPassphrase { try handle.set(keyPassphrase: keyPassphrase.value) }
        if let tlsAuthPassword { try handle.set(tlsAuthPassword: tlsAuthPassword.value) }
        switch families {
        case .both: break
        case .v4Only: try handle.set(ipFamilies: .v4)
        case .v6Only: try handle.set(ipFamilies: .v6)
        }
        if direct { try handle.bypassProxies() } else { try proxy.apply(to: handle, targetCAPath: transport.caPath, targetCRLFile: tls.crlFile) }
        try route.apply(to: handle)
        try handle.set(userAgent: userAgent ?? IPCurlVersion.userAgent)
        try handle.set(headers: headers)
        if let customMethod { try handle.set(customMethod: customMethod) }
        if compressed { try handle.acceptEveryEncoding() }
        if fail == .fail { try handle.set(failsOnHTTPError: true) }
        if let httpVersion { try handle.set(httpVersion: httpVersion) }
        for file in cookieFiles { try handle.set(cookieFile: file) }
        if let cookieJar { try handle.set(cookieJar: cookieJar) }
        if junkSessionCookies { try handle.startNewCookieSession() }
        try auth.apply(to: handle)
    }
}
