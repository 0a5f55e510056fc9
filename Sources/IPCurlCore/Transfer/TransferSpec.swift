import CurlKit
import HTTPDNS

/// One HTTP(S) transfer described as a value: the request's shared parts (``RequestTemplate``) and what this hop
/// or probe adds — where it goes, what it sends, its credentials and the addresses it is pinned to.
/// ``makeHandle(stream:)`` turns it into a configured easy handle; the orchestrators (``Fetch``, ``Check``) add
/// only their own callbacks (output, progress, body capture) and run the handle alone or on a multi loop.
/// - SeeAlso: `CURLOPT_URL`, `CURLOPT_RESOLVE`, `CURLOPT_NOBODY`, `CURLOPT_REFERER`, `CURLOPT_USERPWD`,
///   `CURLOPT_COOKIE`, `CURLOPT_FRESH_CONNECT`, `CURLOPT_CERTINFO`.
struct TransferSpec {
    /// The URL, already checked to be http or https.
    var url: String
    /// Headers, identity, cookies, version, trust, TLS, proxy, tuning, families.
    var template: RequestTemplate
    /// The method semantics (GET, HEAD, POST, PUT); the template's custom method still names the string sent.
    var method = "GET"
    /// The request body.
    var payload = RequestPayload.none
    /// Whether a GET after a body-carrying first request must be forced back to GET.
    var forcesGet = false
    var referer: String?
    /// `user:password` for `CURLOPT_USERPWD`; only set when this hop may carry credentials.
    var credentials: Secret?
    /// `name=value` cookies (credentials too); only set when this hop may carry credentials.
    var cookies: String?
    /// The exact `CURLOPT_RESOLVE` entries, spelled as text only when the handle is configured.
    var resolveEntries: [ResolveEntry] = []
    /// A connection of its own, closed afterwards, direct even when a proxy is configured (probes).
    var freshConnection = false
    /// Keep the peer's certificate chain (probes, `%{certs}`).
    var collectsCertificates = false

    init(url: String, template: RequestTemplate = RequestTemplate()) {
        self.url = url
        self.template = template
    }

    /// A new easy handle set up as described; `stream` is the run's one reader of a streamed upload (`nil` when
    /// the payload streams nothing).
    func makeHandle(stream: StreamReplay? = nil) throws(CurlError) -> EasyHandle {
        let handle = try EasyHandle()
        try template.apply(to: handle, direct: freshConnection)
        try handle.set(url: url)
        try handle.set(resolveEntries: resolveEntries.map(\.description))
        if freshConnection { try handle.set(freshConnection: true) }
        if collectsCertificates { try handle.set(collectsCertificates: true) }
        if method == "HEAD" { try handle.set(headOnly: true) }
        if forcesGet { try handle.setPlainGet() }
        try payload.apply(to: handle, stream: stream)
        if let referer, !referer.isEmpty { try handle.set(referer: referer) }
        if let credentials { try handle.set(userPassword: credentials.value) }
        if let cookies { try handle.set(cookies: cookies) }
        return handle
    }
}
