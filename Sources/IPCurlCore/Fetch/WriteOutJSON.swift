/// `%{json}`: every `-w` variable as one JSON object, in curl 7.88's order (alphabetical, then
/// `curl_version`). Numbers are JSON numbers, times are seconds with six decimals, response codes are plain
/// numbers, and strings libcurl has no value for (`errormsg` without an error, `content_type`,
/// `redirect_url`, `referer`, `scheme`, `filename_effective` for stdout, `ftp_entry_path`) are `null`.
/// Differences from curl 7.88.1 kept on purpose: ipcurl's `dns_source` and `dns_time` are added, and strings are
/// escaped as valid JSON
/// (`\u0001`), where curl 7.88 writes control and non-ASCII bytes as a bare `u0001` / `uffffffe9`.
/// - SeeAlso: curl's `-w '%{json}'`.
enum WriteOutJSON {
    /// The object for `report`, without a trailing newline.
    static func render(_ report: TransferReport) -> String {
        var members: [String] = []
        for name in WriteOut.jsonNames {
            guard let value = WriteOut.value(name, in: report) else { continue }
            members.append(JSONString.quoted(name) + ":" + json(value))
        }
        members.append(JSONString.quoted("curl_version") + ":" + JSONString.quoted(report.curlVersion))
        return "{" + members.joined(separator: ",") + "}"
    }

    private static func json(_ value: WriteOut.Value) -> String {
        switch value {
        case .string(let text): text.map { JSONString.quoted($0) } ?? "null"
        case .number(let number): String(number)
        case .code(let code): String(code)
        case .time(let micro): WriteOut.seconds(micro)
        }
    }
}
