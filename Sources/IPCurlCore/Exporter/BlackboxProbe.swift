import CurlKit
import HTTPDNS

/// One blackbox_exporter `http` probe made the ipcurl way: the target's name is resolved through the run's
/// ``ResolverSession`` (HTTPDNS, the cache, the fallback rule) instead of the system resolver, the chosen address
/// is pinned (`CURLOPT_RESOLVE`) so SNI, `Host` and verification stay on the name, every redirect hop is resolved
/// the same way, and the metrics are blackbox's names, labels and meanings, gathered in a ``ProbeRegistry``.
///
/// - Address: the first of the preferred family (`preferred_ip_protocol`, IPv6 by default), else the first of the
///   other one when `ip_protocol_fallback` allows; `&ip=` probes that address, in the answer or not (the log says
///   which); `all_ips` probes every address of the answer, each on its own, and passes only when all pass.
/// - `&hostname=` (or a module's `Host` header) is the name the request and TLS use, pinned to the target's
///   address; `tls_config.server_name` is the TLS name alone.
/// - SeeAlso: blackbox_exporter `prober/http.go`, `prober/utils.go` (`chooseProtocol`, `ipHash`), `prober/tls.go`;
///   `CURLOPT_RESOLVE`, `CURLOPT_CERTINFO`, `CURLINFO_REDIRECT_URL`.
public enum BlackboxProbe {
    /// What to probe.
    public struct Request: Sendable {
        /// The module's name (for the log).
        public var module: String
        /// `target=`: a URL, `http://` when it has no scheme.
        public var target: String
        /// `hostname=`.
        public var hostname: String?
        /// `ip=`.
        public var address: IPAddress?
        /// The probe's time limit (resolution included).
        public var timeoutMS: Int
        /// The module's http settings.
        public var settings: BlackboxHTTPSettings

        /// A request for `target` with `settings`.
        public init(module: String, target: String, timeoutMS: Int, settings: BlackboxHTTPSettings) {
            self.module = module
            self.target = target
            self.timeoutMS = timeoutMS
            self.settings = settings
        }
    }

    /// How the probe went: the verdict, the metrics (with `probe_success` and `probe_duration_seconds`) and the log.
    public struct Outcome: Sendable {
        /// `probe_success`.
        public var success: Bool
        /// Every metric of the probe.
        public var registry: ProbeRegistry
        /// Its log lines.
        public var log: ProbeLog
        /// Where the target's addresses came from: `cache`, `server` (an HTTPDNS provider), `fallback` (the system
        /// resolver), `static` (`--resolve`), `literal` (an IP in the URL); `failed` when there were none.
        public var addressSource: String
    }

    /// Runs `request`, resolving with `session` (through `answers`, when probes share them).
    public static func run(_ request: Request, session: ResolverSession) -> Outcome { run(request, session: session, answers: nil) }

    static func run(_ request: Request, session: ResolverSession, answers: SharedAnswers?) -> Outcome {
        let began = ContinuousClock.now
        var run = ProbeRun(request: request, session: session, answers: answers, began: began)
        let success = run.probe()
        let seconds = Double((ContinuousClock.now - began).wholeMicroseconds) / 1e6
        run.registry.set("probe_success", success ? 1 : 0)
        run.registry.set("probe_duration_seconds", seconds)
        if success {
            run.log.info("Probe succeeded", ("duration_seconds", "\(seconds)"))
        } else {
            run.log.error("Probe failed", ("duration_seconds", "\(seconds)"))
        }
        return Outcome(success: success, registry: run.registry, log: run.log, addressSource: run.addressSource)
    }

    /// `probe_ip_addr_hash`: FNV-1a (32-bit) of the address bytes (4 for IPv4), as blackbox's `ipHash`.
    public static func addressHash(_ address: IPAddress) -> Double {
        var hash: UInt32 = 0x811c_9dc5
        for byte in address.bytes {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return Double(hash)
    }
}

/// The state of one probe run.
struct ProbeRun {
    let request: BlackboxProbe.Request
    let session: ResolverSession
    let answers: SharedAnswers?
    let began: ContinuousClock.Instant
    var registry = ProbeRegistry()
    var log: ProbeLog
    /// ``BlackboxProbe/Outcome/addressSource``.
    var addressSource = "failed"

    init(request: BlackboxProbe.Request, session: ResolverSession, answers: SharedAnswers?, began: ContinuousClock.Instant) {
        self.request = request
        self.session = session
        self.answers = answers
        self.began = began
        log = ProbeLog(module: request.module, target: request.target)
    }

    var deadline: ContinuousClock.Instant { began + .milliseconds(request.timeoutMS) }
    var remainingMS: Int { max(0, Int((deadline - .now) / .milliseconds(1))) }

    /// `host`:`port` resolved by the session within the probe's time, through the shared answers when there are.
    func lookup(_ url: CurlURL) throws(CurlError) -> NameLookup {
        let budget = TimeBudget(limitMS: max(1, remainingMS))
        let resolve = { () throws(CurlError) -> NameLookup in
            try session.resolve(host: url.host, port: url.port, unicode: url.unicodeHost, within: budget)
        }
        guard let answers else { return try resolve() }
        return try answers.lookup(host: url.host, port: url.port, within: budget, resolve)
    }

    mutating func probe() -> Bool {
        log.info("Beginning probe", ("probe", "http"), ("timeout_seconds", "\(Double(request.timeoutMS) / 1000)"))
        // blackbox registers these at the start, so a probe that fails early still reports them as 0.
        for name in ["probe_http_content_length", "probe_http_uncompressed_body_length", "probe_http_redirects", "probe_http_ssl",
                     "probe_http_status_code", "probe_http_version", "probe_failed_due_to_regex"] {
            registry.set(name, 0)
        }
        var target = request.target
        if !target.hasPrefix("http://"), !target.hasPrefix("https://") { target = "http://" + target }
        let url: CurlURL
        do throws(CurlError) { url = try CurlURL(target, guessScheme: false) } catch {
            log.error("Could not parse target URL", ("err", error.message))
            return false
        }
        guard let addresses = resolve(url) else { return false }
        for phase in ["connect", "tls", "processing", "transfer"] {
            registry.add("probe_http_duration_seconds", 0, labels: [("phase", phase)])
        }
        guard request.settings.allIPs, addresses.count > 1 else {
            var hops = HopChain(run: self, url: url)
            let passed = hops.run(address: addresses[0])
            registry = hops.registry
            log = hops.log
            return passed
        }
        // Every address on its own; the first one's metrics are the probe's, each adds its own success and time.
        var everyPassed = true
        for (index, address) in addresses.enumerated() {
            let started = ContinuousClock.now
            var hops = HopChain(run: self, url: url)
            hops.log = log  // every address's lines, in order
            let passed = hops.run(address: address)
            if index == 0 { registry = hops.registry }
            log = hops.log
            everyPassed = everyPassed && passed
            let labels = [("family", address.family == .v4 ? "ipv4" : "ipv6"), ("ip", address.description)]
            registry.set("ipcurl_probe_address_success", passed ? 1 : 0, labels: labels)
            registry.set("ipcurl_probe_address_duration_seconds", Double((ContinuousClock.now - started).wholeMicroseconds) / 1e6,
                         labels: labels)
        }
        return everyPassed
    }

    /// The addresses to probe, with the lookup's metrics; `nil` (logged) when there is none.
    private mutating func resolve(_ url: CurlURL) -> [IPAddress]? {
        let settings = request.settings
        let preferred = settings.preferredFamily
        let protocolName = preferred == .v6 ? "ip6" : "ip4"
        log.info("Resolving target address", ("target", url.host), ("ip_protocol", protocolName))
        var answer: [IPAddress] = []
        var lookupSeconds = 0.0
        var failure: String?
        if let literal = IPAddress(url.host) {
            answer = [literal]
            addressSource = "literal"
        } else {
            do throws(CurlError) {
                let lookup = try lookup(url)
                answer = lookup.resolution.entry?.addresses ?? []
                addressSource = switch (lookup.resolution.cache, lookup.resolution.answer?.source.kind) {
                case (.hit, _), (_, .cache?): "cache"
                case (_, .system?): "fallback"
                case (_, .staticEntry?): "static"
                default: "server"
                }
                // The HTTPDNS lookup; an answer the cache held cost no lookup.
                if case .hit = lookup.resolution.cache {} else { lookupSeconds = Double(lookup.microseconds) / 1e6 }
                log.info("HTTPDNS answer", ("target", url.host), ("source", lookup.resolution.sourceName),
                         ("addresses", answer.map(\.description).joined(separator: ",")))
            } catch {
                failure = error.message
            }
        }
        registry.set("probe_dns_lookup_time_seconds", lookupSeconds)
        registry.add("probe_http_duration_seconds", lookupSeconds, labels: [("phase", "resolve")])
        var chosen: [IPAddress]
        if let given = request.address {
            let inAnswer = answer.contains(given)
            log.info(inAnswer ? "Probing the address given with ip=, which the answer holds"
                              : "Probing the address given with ip=, which is not in the answer",
                     ("ip", given.description), ("answer", failure ?? answer.map(\.description).joined(separator: ",")))
            chosen = [given]
        } else if let failure {
            log.error("Error resolving address", ("err", failure))
            registry.set("probe_ip_protocol", 0)
            registry.set("probe_ip_addr_hash", 0)
            return nil
        } else {
            let ordered = answer.filter { $0.family == preferred } + (settings.ipProtocolFallback ? answer.filter { $0.family != preferred } : [])
            guard let first = ordered.first else {
                log.error("Resolution with IP protocol failed", ("target", url.host), ("ip_protocol", protocolName),
                          ("err", "no \(preferred == .v6 ? "IPv6" : "IPv4") address" + (settings.ipProtocolFallback ? "" : " and no fallback")))
                registry.set("probe_ip_protocol", 0)
                registry.set("probe_ip_addr_hash", 0)
                return nil
            }
            chosen = settings.allIPs ? ordered : [first]
        }
        if settings.compareSystem, IPAddress(url.host) == nil { compareWithSystem(url, answer: answer) }
        let first = chosen[0]
        log.info("Resolved target address", ("target", url.host), ("ip", first.description))
        registry.set("probe_ip_protocol", first.family == .v4 ? 4 : 6)
        registry.set("probe_ip_addr_hash", BlackboxProbe.addressHash(first))
        return chosen
    }

    /// `compare_system`: `ipcurl_system_dns_mismatch` 1 when the system resolver's addresses for the target are not
    /// HTTPDNS's (as sets), 0 when they are; the system's answer in the log.
    private mutating func compareWithSystem(_ url: CurlURL, answer: [IPAddress]) {
        var system: [IPAddress] = []
        do throws(ResolutionError) {
            system = try SystemResolver().resolve(url.host, port: url.port, within: LookupBudget(milliseconds: max(1, remainingMS))).addresses
        } catch {
            log.info("System resolver gave no address", ("target", url.host), ("err", error.reason))
        }
        let differs = Set(system) != Set(answer)
        log.info("System resolver's answer", ("target", url.host), ("addresses", system.map(\.description).joined(separator: ",")),
                 ("differs", differs ? "true" : "false"))
        registry.set("ipcurl_system_dns_mismatch", differs ? 1 : 0)
    }

}
