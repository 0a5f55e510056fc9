import CurlKit
import HTTPDNS

/// One address's probe: the request and each redirect it follows (at most 10, as Go's client, when the module
/// follows them), each hop a fresh connection pinned to an address its name resolved to through the session (the
/// first hop to the probe's address), with blackbox's phase times summed over the hops and its verdict on the
/// final response.
/// - SeeAlso: blackbox_exporter `prober/http.go` (`ProbeHTTP`); `CURLOPT_RESOLVE`, `CURLOPT_FRESH_CONNECT`,
///   `CURLINFO_REDIRECT_URL`, `CURLOPT_CERTINFO`.
struct HopChain {
    var registry: ProbeRegistry
    var log: ProbeLog
    private let run: ProbeRun
    private let url: CurlURL

    /// The most redirects followed, as Go's `http.Client`.
    static let maximumRedirects = 10

    init(run: ProbeRun, url: CurlURL) {
        self.run = run
        self.url = url
        registry = run.registry
        log = run.log
    }

    private var settings: BlackboxHTTPSettings { run.request.settings }

    /// Probes `address`; whether the final response passes every rule.
    mutating func run(address: IPAddress) -> Bool {
        let hostHeader = run.request.hostname ?? settings.headers.last { $0.name.lowercased() == "host" }?.value
        var hop = Hop(url: url, address: address, tlsName: settings.serverName ?? hostHeader ?? url.host,
                      hostHeader: hostHeader, method: settings.method.isEmpty ? "GET" : settings.method, body: settings.body,
                      sameOrigin: true)
        var redirects = 0
        while true {
            let result = perform(hop)
            guard let result else { return false }
            let status = result.status
            let location = result.redirectURL
            let isRedirect = [301, 302, 303, 307, 308].contains(status) && !location.isEmpty
            addTimes(result, final: !isRedirect)
            guard isRedirect else { return judge(result, redirects: redirects, bodyRead: true) }
            log.info("Received redirect", ("location", CurlURL.withoutUserInfo(location)))
            redirects += 1
            if redirects <= Self.maximumRedirects, settings.followRedirects, let next = nextHop(after: hop, status: status, location) {
                hop = next
                continue
            }
            log.info("Not following redirect")
            return judge(result, redirects: redirects, bodyRead: false)
        }
    }

    /// One hop's request.
    struct Hop {
        var url: CurlURL
        var address: IPAddress
        /// The name in the URL libcurl gets: SNI and verification.
        var tlsName: String
        /// An explicit `Host`, when it differs from the TLS name.
        var hostHeader: String?
        var method: String
        var body: String?
        /// Whether the hop goes to the target's origin, so the module's credentials go with it.
        var sameOrigin: Bool
    }

    /// The hop after a redirect to `location`, resolved through the session; `nil` (logged) when it cannot be.
    private mutating func nextHop(after hop: Hop, status: Int, _ location: String) -> Hop? {
        let next: CurlURL
        do throws(CurlError) { next = try CurlURL(location, guessScheme: false) } catch {
            log.error("Error for HTTP request", ("err", "redirect to an unusable URL: \(error.message)"))
            return nil
        }
        guard next.scheme == "http" || next.scheme == "https" else {
            log.error("Error for HTTP request", ("err", "redirect to \(next.scheme):, which is not http or https"))
            return nil
        }
        var address = hop.address
        let sameHost = HostName.normalized(next.host) == HostName.normalized(hop.url.host) && next.port == hop.url.port
        if let literal = IPAddress(next.host) {
            address = literal
        } else if !sameHost {
            let began = ContinuousClock.now
            do throws(CurlError) {
                let lookup = try run.lookup(next)
                let answer = lookup.resolution.entry?.addresses ?? []
                let preferred = answer.filter { $0.family == settings.preferredFamily }
                guard let chosen = (preferred + (settings.ipProtocolFallback ? answer : [])).first else {
                    log.error("Error for HTTP request", ("err", "no address of the wanted family for \(next.host)"))
                    return nil
                }
                address = chosen
                log.info("Resolved redirect target", ("target", next.host), ("ip", chosen.description),
                         ("source", lookup.resolution.sourceName))
            } catch {
                log.error("Error for HTTP request", ("err", error.message))
                return nil
            }
            let seconds = Double((ContinuousClock.now - began).wholeMicroseconds) / 1e6
            registry.add("probe_http_duration_seconds", seconds, labels: [("phase", "resolve")])
        }
        // 301, 302 and 303 turn another method into GET without a body, as Go's client does; 307 and 308 keep both.
        let keepsMethod = status == 307 || status == 308 || hop.method == "GET" || hop.method == "HEAD"
        return Hop(url: next, address: address, tlsName: next.host, hostHeader: nil, method: keepsMethod ? hop.method : "GET",
                   body: keepsMethod ? hop.body : nil, sameOrigin: hop.sameOrigin && sameHost)
    }

    /// What one hop's transfer gave.
    struct HopResult {
        var error: CurlError?
        var status = 0
        var redirectURL = ""
        var httpVersion = "0"
        var headers = ResponseHeaders()
        var body: [UInt8] = []
        var bodyBytes = 0
        var times = PhaseTimes()
        var tlsVersion: TLSVersion?
        var peer: PeerChain?
        var scheme = "http"
    }

    /// Runs `hop`; `nil` (logged) when its request could not even be made.
    private mutating func perform(_ hop: Hop) -> HopResult? {
        guard run.remainingMS > 0 else {
            log.error("Error for HTTP request", ("err", "the probe's time ran out"))
            return HopResult(error: .operationTimedOut)
        }
        let transfer: HopTransfer
        do throws(CurlError) { transfer = try HopTransfer(hop, settings: settings, timeoutMS: run.remainingMS) } catch {
            log.error("Error creating request", ("err", error.message))
            return nil
        }
        let result = transfer.perform()
        if let error = result.error { log.error("Error for HTTP request", ("err", error.message)) } else {
            log.info("Received HTTP response", ("status_code", String(result.status)))
        }
        return result
    }

    /// Adds a hop's connect, TLS, processing and (for the final response) transfer times.
    private mutating func addTimes(_ result: HopResult, final: Bool) {
        var timings = ProbeTimings()
        timings.fill(from: result.times)
        guard result.times.connect > 0 else { return }  // never connected
        let phases: [(String, Int64)] = [("connect", timings.connect), ("tls", timings.tls), ("processing", timings.processing)]
            + (final ? [("transfer", timings.transfer)] : [])
        for (phase, microseconds) in phases {
            registry.add("probe_http_duration_seconds", Double(microseconds) / 1e6, labels: [("phase", phase)])
        }
    }

    /// blackbox's verdict on the final response and its metrics; `bodyRead` is false for a redirect not followed.
    private mutating func judge(_ result: HopResult, redirects: Int, bodyRead: Bool) -> Bool {
        var success = false
        if result.error == nil || result.status > 0 {
            let codes = settings.validStatusCodes
            success = codes.isEmpty ? (200..<300).contains(result.status) : codes.contains(result.status)
            if !success {
                log.info(codes.isEmpty ? "Invalid HTTP response status code, wanted 2xx" : "Invalid HTTP response status code",
                         ("status_code", String(result.status)))
            }
            if success, !settings.failIfHeaderMatches.isEmpty || !settings.failIfHeaderNotMatches.isEmpty {
                success = RegexRules.headersPass(result.headers, settings, log: &log)
                registry.set("probe_failed_due_to_regex", success ? 0 : 1)
            }
            if success, settings.readsBody {
                success = RegexRules.bodyPasses(result.body, settings, deadline: run.deadline, log: &log)
                registry.set("probe_failed_due_to_regex", success ? 0 : 1)
            }
            if let modified = result.headers.first(named: "last-modified").flatMap(HTTPDate.seconds) {
                registry.set("probe_http_last_modified_timestamp_seconds", Double(modified))
            }
            let version = Double(result.httpVersion) ?? 0
            registry.set("probe_http_version", version)
            if !settings.validHTTPVersions.isEmpty {
                let proto = "HTTP/" + (result.httpVersion.contains(".") ? result.httpVersion : result.httpVersion + ".0")
                if !settings.validHTTPVersions.contains(proto) {
                    log.error("Invalid HTTP version number", ("version", proto))
                    success = false
                }
            }
        }
        if result.scheme == "https", let peer = result.peer {
            registry.set("probe_http_ssl", 1)
            registry.set("probe_ssl_earliest_cert_expiry", Double(peer.earliestExpiry))
            registry.set("probe_ssl_last_chain_expiry_timestamp_seconds", Double(peer.verifiedChainExpiry))
            if let version = result.tlsVersion {
                registry.set("probe_tls_version_info", 1, labels: [("version", version.label)])
            }
            let leaf = peer.leaf
            registry.set("probe_ssl_last_chain_info", 1, labels: [("fingerprint_sha256", leaf.fingerprintSHA256), ("subject", leaf.subject),
                                                                 ("issuer", leaf.issuer), ("subjectalternative", leaf.dnsNames)])
            if settings.failIfSSL {
                log.error("Final request was over SSL")
                success = false
            }
        } else if settings.failIfNotSSL {
            log.error("Final request was not over SSL")
            success = false
        }
        registry.set("probe_http_status_code", Double(result.status))
        registry.set("probe_http_content_length", Double(result.contentLength))
        registry.set("probe_http_uncompressed_body_length", bodyRead && result.error == nil ? Double(result.bodyBytes) : 0)
        registry.set("probe_http_redirects", Double(redirects))
        return success && result.error == nil
    }
}

extension HopChain.HopResult {
    /// Go's `Response.ContentLength`: the `Content-Length` value, 0 for 204 and 304, else -1 (unknown).
    var contentLength: Int64 {
        if let text = headers.first(named: "content-length"), let length = Int64(text), length >= 0 { return length }
        if error != nil && status == 0 { return 0 }
        return status == 204 || status == 304 ? 0 : -1
    }
}
