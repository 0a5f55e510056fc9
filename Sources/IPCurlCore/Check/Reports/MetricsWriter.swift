import HTTPDNS

/// Writes metric families in the text form both OpenMetrics 1.0 and the classic Prometheus 0.0.4 format read: every
/// family a `gauge` with `# TYPE`, `# HELP` and, when the name ends in the unit, `# UNIT`; label values escaped
/// (see ``escaped(_:)``); a family without samples left out; a repeated sample (same name and labels) dropped.
struct MetricsWriter {
    /// The families written so far.
    private(set) var text = ""
    /// Labels added after every sample's own.
    let commonLabels: [(name: String, value: String)]

    /// A writer adding `labels` (sanitised with ``labelName(_:)``, the first of a repeated name kept) to every sample.
    init(labels: [(name: String, value: String)]) {
        var seen = Set<String>()
        commonLabels = labels.compactMap { label in
            let name = Self.labelName(label.name)
            return seen.insert(name).inserted ? (name, label.value) : nil
        }
    }

    /// Adds one gauge family; `unit` is given only when `name` ends in `_<unit>`.
    mutating func gauge(_ name: String, unit: String? = nil, help: String,
                        _ samples: [(labels: [(String, String)], value: String)]) {
        guard !samples.isEmpty else { return }
        text += "# TYPE \(name) gauge\n"
        if let unit { text += "# UNIT \(name) \(unit)\n" }
        text += "# HELP \(name) \(help)\n"
        var seen = Set<String>()
        for sample in samples {
            let labels = (sample.labels + commonLabels).map { "\($0.0)=\"\(Self.escaped($0.1))\"" }.joined(separator: ",")
            guard seen.insert(labels).inserted else { continue }
            text += name + (labels.isEmpty ? "" : "{\(labels)}") + " " + sample.value + "\n"
        }
    }

    /// A valid label name for `text`: characters outside `[A-Za-z0-9_]` become `_`, a leading digit gets a `_` in
    /// front, and a reserved name (ours, or Prometheus' `__` prefix) is prefixed `exported_`.
    static func labelName(_ text: String) -> String {
        var name = String(text.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_") ? Character(scalar) : "_"
        })
        if name.isEmpty || name.first!.isNumber { name = "_" + name }
        if ReportLabel.reserved.contains(name) || name.hasPrefix("__") { name = "exported_" + name }
        return name
    }

    /// A label value in the exposition. The format escapes only `\`, `"` and the line feed, so every other control
    /// character is first written as visible text by ``Printable`` (a carriage return as `\x0d`, which the exposition
    /// spells `\\x0d` and a reader reads back as `\x0d`); no raw control reaches a scrape or a Pushgateway.
    static func escaped(_ value: String) -> String {
        var out = ""
        for scalar in Printable.escapedLines(value).unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
