import CurlKit
import HTTPDNS

/// One hop's transfer: a fresh connection to the hop's address, pinned under its TLS name (`CURLOPT_RESOLVE`),
/// with the module's method, headers, body, credentials and TLS settings; the response headers, the body (up to
/// ``bodyLimit`` kept for the regular expressions, all of it counted) and the TLS facts (``PeerChain``, read while
/// the connection is open) are kept. It runs on its thread's multi handle (``ThreadMulti``).
/// - SeeAlso: `CURLOPT_RESOLVE`, `CURLOPT_FRESH_CONNECT`, `CURLINFO_TLS_SSL_PTR`, `CURLOPT_USERPWD`, `CURLOPT_CUSTOMREQUEST`.
final class HopTransfer {
    /// The most body bytes kept for `fail_if_body_*`.
    static let bodyLimit = 1 << 20
    /// The `User-Agent` of a probe that names none.
    static let userAgent = "ipcurl-exporter/" + IPCurlVersion.number

    let handle: EasyHandle
    private let scheme: String
    private var headers = ResponseHeaders()
    private var body: [UInt8] = []
    private var bodyBytes = 0
    private var tlsName: String?
    private var peer: PeerChain?

    init(_ hop: HopChain.Hop, settings: BlackboxHTTPSettings, timeoutMS: Int) throws(CurlError) {
        let text = hop.tlsName == hop.url.host ? hop.url.text : hop.url.text(withHost: hop.tlsName)
        guard let text else { throw CurlError.malformedURL.with(message: "\(hop.tlsName) cannot be a URL's host") }
        scheme = hop.url.scheme
        var spec = TransferSpec(url: text)
        spec.template.transport.caFile = settings.caFile
        spec.template.transport.insecure = settings.insecureSkipVerify
        spec.template.transport.timeoutMS = max(1, timeoutMS)
        spec.template.tls = settings.tls
        let method = hop.method.uppercased()
        spec.method = method == "HEAD" ? "HEAD" : "GET"
        if method != spec.method || hop.body != nil { spec.template.customMethod = hop.method }
        if let body = hop.body { spec.payload = .data([.bytes(Array(body.utf8))]) }
        var headers = settings.headers.filter { $0.name.lowercased() != "host" }
        if let host = hop.hostHeader, host != hop.tlsName { headers.append(("Host", host)) }
        if hop.sameOrigin, let token = settings.bearerToken { headers.append(("Authorization", "Bearer " + token)) }
        spec.template.headers = headers.map { "\($0.name): \($0.value)" }
        if !headers.contains(where: { $0.name.lowercased() == "user-agent" }) { spec.template.userAgent = Self.userAgent }
        if hop.sameOrigin, let basic = settings.basicAuth {
            spec.credentials = Secret(value: basic.user + ":" + basic.password, origin: "basic_auth")
        }
        if IPAddress(hop.tlsName) == nil, let pin = ResolveEntry(host: hop.tlsName, port: hop.url.port, addresses: [hop.address]) {
            spec.resolveEntries = [pin]
        }
        spec.freshConnection = true
        handle = try spec.makeHandle()
        // A module's ca_file is the probe's whole trust, as blackbox's tls_config.ca_file is Go's RootCAs.
        if settings.caFile != nil { try handle.trustCAFileOnly() }
        try ShareHandle(sharing: [.dns]).attach(to: handle)  // this hop's pin only, whatever other probes pin
        handle.onHeader = { [unowned self] bytes in
            if tlsName == nil {
                tlsName = handle.liveTLSVersion() ?? ""
                if scheme == "https" { peer = PeerChain(handle) }  // while the connection is open
            }
            self.headers.receive(bytes)
            return true
        }
        handle.onBody = { [unowned self] bytes in
            bodyBytes += bytes.count
            if body.count < Self.bodyLimit { body += bytes.prefix(Self.bodyLimit - body.count) }
            return true
        }
    }

    /// Runs the transfer to its end.
    func perform() -> HopChain.HopResult {
        let failure = ThreadMulti.perform(handle)
        let transfer = TransferResult(handle: handle, url: "", error: failure, headers: headers, tlsName: tlsName)
        var result = HopChain.HopResult(error: failure)
        result.status = transfer.report.responseCode
        result.redirectURL = transfer.report.redirectURL
        result.httpVersion = transfer.report.httpVersion
        result.headers = headers
        result.body = body
        result.bodyBytes = bodyBytes
        result.times = transfer.report.times
        result.tlsVersion = transfer.tlsVersion
        result.peer = peer
        result.scheme = scheme
        return result
    }
}
