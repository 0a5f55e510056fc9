/// One probe's metrics, gathered as blackbox_exporter's per-probe registry gathers them: gauge families sorted by
/// name, each sample set or added to by labels, written in Prometheus's text format (`# HELP`, `# TYPE`, samples
/// sorted by label values).
/// - SeeAlso: Prometheus exposition format 0.0.4; client_golang `Registry.Gather`.
public struct ProbeRegistry: Sendable {
    private struct Family: Sendable {
        var help: String
        var samples: [(labels: [(String, String)], value: Double)] = []
    }

    private var families: [String: Family] = [:]

    /// An empty registry.
    public init() {}

    /// Each probe metric's help text: blackbox_exporter's words for its own metrics (`prober/http.go`, `utils.go`,
    /// `tls.go`, `handler.go`), and ipcurl's for its additions.
    static let helpTexts: [String: String] = [
        "probe_success": "Displays whether or not the probe was a success",
        "probe_duration_seconds": "Returns how long the probe took to complete in seconds",
        "probe_dns_lookup_time_seconds": "Returns the time taken for probe dns lookup in seconds",
        "probe_ip_protocol": "Specifies whether probe ip protocol is IP4 or IP6",
        "probe_ip_addr_hash": "Specifies the hash of IP address. It's useful to detect if the IP address changes.",
        "probe_http_duration_seconds": "Duration of http request by phase, summed over all redirects",
        "probe_http_content_length": "Length of http content response",
        "probe_http_uncompressed_body_length": "Length of uncompressed response body",
        "probe_http_redirects": "The number of redirects",
        "probe_http_ssl": "Indicates if SSL was used for the final redirect",
        "probe_http_status_code": "Response HTTP status code",
        "probe_http_version": "Returns the version of HTTP of the probe response",
        "probe_failed_due_to_regex": "Indicates if probe failed due to regex",
        "probe_http_last_modified_timestamp_seconds": "Returns the Last-Modified HTTP response header in unixtime",
        "probe_ssl_earliest_cert_expiry": "Returns last SSL chain expiry in unixtime",
        "probe_ssl_last_chain_expiry_timestamp_seconds": "Returns last SSL chain expiry in timestamp",
        "probe_ssl_last_chain_info": "Contains SSL leaf certificate information",
        "probe_tls_version_info": "Returns the TLS version used or NaN when unknown",
        "ipcurl_probe_address_success": "Whether the probe of this address of the answer passed (all_ips)",
        "ipcurl_probe_address_duration_seconds": "How long the probe of this address took (all_ips)",
        "ipcurl_system_dns_mismatch": "Whether the system resolver's addresses for the target differ from HTTPDNS's (compare_system)",
    ]

    /// Sets the sample of `name` with `labels` to `value`, the family declared with `help` (``helpTexts``' when `nil`).
    public mutating func set(_ name: String, _ value: Double, labels: [(String, String)] = [], help: String? = nil) {
        update(name, labels, help) { _ in value }
    }

    /// Adds `value` to the sample of `name` with `labels` (0 when new).
    public mutating func add(_ name: String, _ value: Double, labels: [(String, String)] = [], help: String? = nil) {
        update(name, labels, help) { $0 + value }
    }

    /// The value of `name` with `labels`, if set.
    public func value(_ name: String, labels: [(String, String)] = []) -> Double? {
        let sorted = labels.sorted { $0.0 < $1.0 }
        return families[name]?.samples.first { Self.same($0.labels, sorted) }?.value
    }

    private mutating func update(_ name: String, _ given: [(String, String)], _ help: String?, _ change: (Double) -> Double) {
        // Labels by name, as the exposition writes them.
        let labels = given.sorted { $0.0 < $1.0 }
        var family = families[name] ?? Family(help: help ?? Self.helpTexts[name] ?? name)
        if let index = family.samples.firstIndex(where: { Self.same($0.labels, labels) }) {
            family.samples[index].value = change(family.samples[index].value)
        } else {
            family.samples.append((labels, change(0)))
        }
        families[name] = family
    }

    private static func same(_ a: [(String, String)], _ b: [(String, String)]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    /// The exposition text.
    public var text: String {
        var out = ""
        for name in families.keys.sorted() {
            let family = families[name]!
            out += "# HELP \(name) \(family.help)\n# TYPE \(name) gauge\n"
            let samples = family.samples.sorted { $0.labels.map(\.1).lexicographicallyPrecedes($1.labels.map(\.1)) }
            for sample in samples {
                let labels = sample.labels.map { "\($0.0)=\"\(MetricsWriter.escaped($0.1))\"" }.joined(separator: ",")
                out += name + (labels.isEmpty ? "" : "{\(labels)}") + " " + Self.number(sample.value) + "\n"
            }
        }
        return out
    }

    /// `200`, `0.0123`, `-1`: whole numbers without a fraction, others in Swift's shortest round-trip form.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
