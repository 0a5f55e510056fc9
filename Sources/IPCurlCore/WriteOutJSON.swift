/// `%{json}`: every `-w` variable as one JSON object, in curl 7.88's order (alphabetical, then
/// `curl_version`). Numbers are JSON numbers, times are seconds with six decimals, response codes are plain
/// numbers, and strings libcurl has no value for (`errormsg` without an error, `content_type`,
/// `redirect_url`, `referer`, `scheme`, `filename_effective` for stdout, `ftp_entry_path`) are `null`.
/// Differences from curl 7.88.1 kept on purpose: no `certs`/`num_certs` (ipcurl does not ask libcurl for the
/// certificate chain), ipcurl's `dns_source` and `dns_time` are added, and strings are escaped as valid JSON
/// (`\u0001`), where curl 7.88 writes control and non-ASCII bytes as a bare `u0001` / `uffffffe9`.
/// - SeeAlso: curl's `-w '%{json}'`.
enum WriteOutJSON {
    /// The object for `report`, without a trailing newline.
    static func render(_ report: TransferReport) -> String {
        var members: [String] = []
        for name in WriteOut.jsonNames {
            guard let value = WriteOut.value(name, in: report) else { continue }
            members.append(quoted(name) + ":" + json(value))
        }
        members.append(quoted("curl_version") + ":" + quoted(report.curlVersion))
        return "{" + members.joined(separator: ",") + "}"
    }

    private static func json(_ value: WriteOut.Value) -> String {
        switch value {
        case .string(let text): text.map(quoted) ?? "null"
        case .number(let number): String(number)
        case .code(let code): String(code)
        case .time(let micro): WriteOut.seconds(micro)
        }
    }

    /// `text` as a JSON string literal: `"` and `\` escaped, control characters as `\b \f \n \r \t` or
    /// `\u00XX`, everything else (valid Unicode, since `String` is) as it is.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
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
