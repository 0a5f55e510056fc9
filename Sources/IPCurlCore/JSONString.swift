/// The one writer of JSON string literals (RFC 8259 escaping), used by every JSON ipcurl prints (`-w
/// '%{json}'`, `resolve --format json`, `cache list --json`, check's JSON report).
enum JSONString {
    /// `text` as a JSON string literal: `"`, `\` and the C0 controls escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
