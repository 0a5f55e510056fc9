import CurlKit
import HTTPDNS

/// One HTTP(S) transfer described as a value: where it goes, what it sends, which addresses it is pinned to,
/// how it trusts the peer and how long it may take. ``makeHandle(stdin:)`` turns it into a configured easy
/// handle; the orchestrators (``Fetch``, ``Check``) add only their own callbacks (output, progress, body capture)
/// and run the handle alone or on a multi loop.
/// - SeeAlso: `CURLOPT_URL`, `CURLOPT_RESOLVE`, `CURLOPT_HTTPHEADER`, `CURLOPT_CUSTOMREQUEST`,
///   `CURLOPT_FRESH_CONNECT`, `CURLOPT_CERTINFO`, `CURLOPT_SSLCERT`, `CURLOPT_PROXY`.
struct TransferSpec {
    /// The URL, already checked to be http or https.
    var url: String
    /// The method semantics (GET, HEAD, POST, PUT); ``customMethod`` still names the string sent.
    var method = "GET"
    /// `-X`: the method string sent instead of the inferred one.
    var customMethod: String?
    /// Request header lines, verbatim.
    var headers: [String] = []
    /// The request body.
    var payload = RequestPayload.none
    /// Whether a GET after a body-carrying first request must be forced back to GET.
    var forcesGet = false
    var referer: String?
    /// `nil` sends `ipcurl/VERSION`, empty sends none.
    var userAgent: String?
    /// `user:password` for `CURLOPT_USERPWD`; only set when this hop may carry credentials.
    var credentials: Secret?
    /// `name=value` cookies (credentials too), cookie files for the engine, and the jar written at the end.
    var cookies: String?, cookieFiles: [String] = [], cookieJar: String?, junkSessionCookies = false
    var compressed = false
    /// `-f`: an HTTP status of 400 or more is exit 22.
    var failsOnHTTPError = false
    /// A `CURL_HTTP_VERSION_*` value; `nil` is libcurl's default.
    var httpVersion: HTTPVersion?
    /// The exact `CURLOPT_RESOLVE` entries, spelled as text only when the handle is configured.
    var resolveEntries: [ResolveEntry] = []
    var families = AddressFamilies.both
    /// TLS trust and timeouts.
    var transport = TransportOptions()
    /// The target's TLS: versions, ciphers, client certificate and key, pinned key, OCSP stapling.
    var tls = TargetTLSOptions()
    /// Rate limits, range, decoding, size limit.
    var tuning = TransferTuning()
    /// The client key's passphrase.
    var keyPassphrase: Secret?
    /// `-x`, `--noproxy`, `--proxy-user`; ignored with ``freshConnection``, which always connects directly.
    var proxy = ProxySettings()
    /// A connection of its own, closed afterwards, direct even when a proxy is configured (probes).
    var freshConnection = false
    /// Keep the peer's certificate chain (probes).
    var collectsCertificates = false

    init(url: String) { self.url = url }

    /// A new easy handle set up as described; `stdin` is the run's one reader of standard input.
    func makeHandle(stdin: StdinReplay) throws(CurlError) -> EasyHandle {
        let handle = try EasyHandle()
        try transport.apply(to: handle)
        try tls.apply(to: handle)
        try tuning.apply(to: handle)
        if let keyPassphrase { try handle.set(keyPassphrase: keyPassphrase.value) }
        try handle.set(url: url)
        switch families {
        case .both: break
        case .v4Only: try handle.set(ipFamilies: .v4)
        case .v6Only: try handle.set(ipFamilies: .v6)
        }
        try handle.set(resolveEntries: resolveEntries.map(\.description))
        if freshConnection {
            try handle.set(freshConnection: true)
            try handle.bypassProxies()
        } else {
            try proxy.apply(to: handle)
        }
        if collectsCertificates { try handle.set(collectsCertificates: true) }
        try handle.set(userAgent: userAgent ?? "ipcurl/\(IPCurlVersion.number)")
        try handle.set(headers: headers)
        if method == "HEAD" { try handle.set(headOnly: true) }
        if forcesGet { try handle.setPlainGet() }
        try payload.apply(to: handle, stdin: stdin)
        if let customMethod { try handle.set(customMethod: customMethod) }
        if let referer, !referer.isEmpty { try handle.set(referer: referer) }
        if compressed { try handle.acceptEveryEncoding() }
        if failsOnHTTPError { try handle.set(failsOnHTTPError: true) }
        if let httpVersion { try handle.set(httpVersion: httpVersion) }
        if let credentials { try handle.set(userPassword: credentials.value) }
        if let cookies { try handle.set(cookies: cookies) }
        for file in cookieFiles { try handle.set(cookieFile: file) }
        if let cookieJar { try handle.set(cookieJar: cookieJar) }
        if junkSessionCookies { try handle.startNewCookieSession() }
        return handle
    }
}
