/// The one writer of JSON string literals (RFC 8259 escaping), used by every JSON ipcurl prints (`-w
/// '%{json}'`, `resolve --format json`, `cache list --json`, check's JSON report).
public enum JSONString {
    /// `text` as a JSON string literal: `"`, `\` and the C0 controls escaped.
    public static func quoted(_ text: String) -> String {
        backslashQuoted(text) { value in
            guard value < 0x20 else { return nil }
            let hex = String(value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    /// `text` in double quotes with the escapes JSON and YAML share (`\"`, `\\`, `\n`, `\r`, `\t`), and every other
    /// scalar that `control` spells (given its value) written that way.
    static func backslashQuoted(_ text: String, control: (UInt32) -> String?) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if let spelled = control(scalar.value) { out += spelled } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}
