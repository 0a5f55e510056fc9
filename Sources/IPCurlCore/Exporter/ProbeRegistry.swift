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

    /// Sets the sample of `name` with `labels` to `value` (declaring the family with `help`).
    public mutating func set(_ name: String, _ value: Double, labels: [(String, String)] = [], help: String) {
        update(name, labels, help) { _ in value }
    }

    /// Adds `value` to the sample of `name` with `labels` (0 when new).
    public mutating func add(_ name: String, _ value: Double, labels: [(String, String)] = [], help: String) {
        update(name, labels, help) { $0 + value }
    }

    /// The value of `name` with `labels`, if set.
    public func value(_ name: String, labels: [(String, String)] = []) -> Double? {
        let sorted = labels.sorted { $0.0 < $1.0 }
        return families[name]?.samples.first { Self.same($0.labels, sorted) }?.value
    }

    private mutating func update(_ name: String, _ given: [(String, String)], _ help: String, _ change: (Double) -> Double) {
        // Labels by name, as the exposition writes them.
        let labels = given.sorted { $0.0 < $1.0 }
        var family = families[name] ?? Family(help: help)
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
