/// The one writer of JSON string literals (RFC 8259 escaping), used by every JSON ipcurl prints (`-w
/// '%{json}'`, `resolve --format json`, `cache list --json`, check's JSON report) and by check's TAP report, whose
/// YAML double-quoted scalars take the same escapes.
enum JSONString {
    /// `text` as a JSON string literal: `"`, `\` and the C0 controls escaped. With `escapingC1`, DEL and the C1
    /// controls are escaped too, as YAML (which may not carry them raw) needs.
    static func quoted(_ text: String, escapingC1: Bool = false) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || escapingC1 && (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
