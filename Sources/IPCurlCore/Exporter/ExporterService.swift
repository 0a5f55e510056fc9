import CurlKit
import HTTPDNS
import Locking

/// `ipcurl exporter`'s endpoints without the HTTP server: `/probe` as blackbox_exporter answers it (module lookup,
/// the scrape-timeout rule, `hostname=`, `debug=true`, and ipcurl's `ip=`), and `/metrics`, the exporter's own
/// counters. Thread-safe: the server calls it from many threads at once; ``replace(modules:)`` swaps the
/// configuration under a lock (a reload), and probes already running keep the modules they started with.
/// - SeeAlso: blackbox_exporter `prober/handler.go` (`Handler`, `getTimeout`, `setHTTPHost`, `DebugOutput`).
public final class ExporterService: @unchecked Sendable {
    /// One module as the exporter runs it.
    public struct Module: Sendable {
        /// `prober`: only `http` probes; the others answer 400.
        public var prober: String
        /// `timeout` in seconds; `nil` or 0 for none.
        public var timeoutSeconds: Double?
        /// The http settings (for `prober: http`).
        public var http: BlackboxHTTPSettings
        /// The module's resolver (`httpdns:`), else the command line's.
        public var resolver: ResolverSettings?
        /// The module's configuration as `debug=true` shows it, secrets redacted.
        public var shown: String

        /// A module of `prober`.
        public init(prober: String, timeoutSeconds: Double? = nil, http: BlackboxHTTPSettings = BlackboxHTTPSettings(),
                    resolver: ResolverSettings? = nil, shown: String = "") {
            self.prober = prober
            self.timeoutSeconds = timeoutSeconds
            self.http = http
            self.resolver = resolver
            self.shown = shown
        }
    }

    /// What an endpoint answers.
    public struct Response: Sendable, Equatable {
        /// The HTTP status.
        public var status: Int
        /// The `Content-Type`.
        public var contentType: String
        /// The body.
        public var body: String
    }

    /// The exposition format's content type.
    public static let metricsType = "text/plain; version=0.0.4; charset=utf-8"

    private let lock = Lock()
    private var modules: [String: Module]
    private var counters = ExporterCounters()
    /// The answers probes share, per resolver: `""` for the command line's, a module's name for its own.
    private var answers: [String: SharedAnswers] = [:]
    private let resolver: ResolverSettings
    private let transport: TransportOptions
    /// `--timeout-offset`.
    public let timeoutOffsetSeconds: Double

    /// A service probing with `modules`, resolving with `resolver` (the command line's) and trusting `transport` for
    /// HTTPDNS queries.
    public init(modules: [String: Module], resolver: ResolverSettings, transport: TransportOptions, timeoutOffsetSeconds: Double = 0.5) {
        self.modules = modules
        self.resolver = resolver
        self.transport = transport
        self.timeoutOffsetSeconds = timeoutOffsetSeconds
        counters.reloaded(successfully: true)
    }

    /// Replaces the modules (a reload that worked).
    public func replace(modules: [String: Module]) {
        lock.locked {
            self.modules = modules
            answers = [:]  // a module's resolver may have changed
            counters.reloaded(successfully: true)
        }
    }

    /// Records a reload that failed; the modules stay.
    public func reloadFailed() { lock.locked { counters.reloaded(successfully: false) } }

    /// `GET /probe`: `query` the decoded parameters, `header` a request header by name.
    public func probe(query: [(name: String, value: String)], header: (String) -> String?) -> Response {
        func parameter(_ name: String) -> String? { query.first { $0.name == name }?.value }
        let name = parameter("module").flatMap { $0.isEmpty ? nil : $0 } ?? "http_2xx"
        guard var module = lock.locked({ modules[name] }) else {
            lock.locked { counters.unknownModules += 1 }
            return Self.error(400, "Unknown module \(Self.goQuoted(name))")
        }
        let timeout: Double
        switch Self.timeoutSeconds(header: header("X-Prometheus-Scrape-Timeout-Seconds"), module: module.timeoutSeconds,
                                   offset: timeoutOffsetSeconds) {
        case .success(let seconds): timeout = seconds
        case .failure(let refusal): return refusal.response
        }
        guard let target = parameter("target"), !target.isEmpty else { return Self.error(400, "Target parameter is missing") }
        guard module.prober == "http" else {
            return Self.error(400, "Prober \(Self.goQuoted(module.prober)) of module \(Self.goQuoted(name)) is not run by ipcurl exporter")
        }
        var request = BlackboxProbe.Request(module: name, target: target, timeoutMS: max(0, Int(timeout * 1000)), settings: module.http)
        if let hostname = parameter("hostname"), !hostname.isEmpty {
            if let header = module.http.headers.first(where: { $0.name.lowercased() == "host" }), header.value != hostname {
                return Self.error(400, "host header defined both in module configuration (\(header.value)) and with URL-parameter 'hostname' (\(hostname))")
            }
            module.http.headers.removeAll { $0.name.lowercased() == "host" }
            request.settings = module.http
            request.hostname = hostname
        }
        if let text = parameter("ip"), !text.isEmpty {
            guard let address = Self.address(text), address.isUsable() else {
                return Self.error(400, "ip parameter \(Self.goQuoted(text)) is not a usable IP address")
            }
            request.address = address
        }
        let session = ResolverSession(settings: module.resolver ?? resolver, transport: transport,
                                      diagnostics: Diagnostics(program: "ipcurl", stream: DescriptorWriter(descriptor: -1)))
        let shared = lock.locked { () -> SharedAnswers in
            let key = module.resolver == nil ? "" : name
            if let held = answers[key] { return held }
            let made = SharedAnswers()
            answers[key] = made
            return made
        }
        let outcome = BlackboxProbe.run(request, session: session, answers: shared)
        lock.locked { counters.probed(module: name, success: outcome.success, addressSource: outcome.addressSource) }
        if parameter("debug") == "true" {
            let text = "Logs for the probe:\n" + outcome.log.lines.map { $0 + "\n" }.joined()
                + "\n\n\nMetrics that would have been returned:\n" + outcome.registry.text
                + "\n\n\nModule configuration:\n" + module.shown
            return Response(status: 200, contentType: "text/plain", body: text)
        }
        return Response(status: 200, contentType: Self.metricsType, body: outcome.registry.text)
    }

    /// The address `ip=` gives: an IP address, or an IPv6 one in brackets (`[::1]`, what Prometheus' relabelling of
    /// a `[::1]:PORT` target leaves).
    static func address(_ text: String) -> IPAddress? {
        guard text.hasPrefix("["), text.hasSuffix("]") else { return IPAddress(text) }
        guard let inner = IPAddress(String(text.dropFirst().dropLast())), inner.family == .v6 else { return nil }
        return inner
    }

    /// A request refused before any probe, as its response.
    struct Refusal: Error {
        let response: Response
    }

    /// blackbox's `getTimeout`: the scrape timeout header (120 s when absent or 0) less `offset`, or the module's
    /// timeout when that is shorter (or when the header leaves nothing); a header that is not a number is a 500.
    static func timeoutSeconds(header: String?, module: Double?, offset: Double) -> Result<Double, Refusal> {
        var timeout = 0.0
        if let header {
            guard let seconds = Double(header), seconds.isFinite else {
                return .failure(Refusal(response: error(500, "Failed to parse timeout from Prometheus header: strconv.ParseFloat: parsing \(goQuoted(header)): invalid syntax")))
            }
            timeout = seconds
        }
        if timeout == 0 { timeout = 120 }
        let limit = timeout - offset
        let own = module ?? 0
        return .success((own < limit && own > 0) || limit < 0 ? own : limit)
    }

    /// `GET /metrics`: the exporter's own metrics.
    public func metrics() -> Response {
        Response(status: 200, contentType: Self.metricsType, body: lock.locked { counters.text() } + ProcessMetrics.text())
    }

    /// Go's `http.Error`: the message and a line feed, plain text.
    static func error(_ status: Int, _ message: String) -> Response {
        Response(status: status, contentType: "text/plain; charset=utf-8", body: message + "\n")
    }

    /// Go's `%q` for the text a request carries: in double quotes, `"`, `\`, `\n`, `\r`, `\t` escaped, other
    /// controls as `\xNN`.
    static func goQuoted(_ text: String) -> String {
        JSONString.backslashQuoted(text) { value in
            value < 0x20 || value == 0x7f ? "\\x" + String(value, radix: 16).leftPadded(2) : nil
        }
    }
}
