/// Renders a `-w/--write-out` format the way curl 7.88 does: `%{variable}` (names ASCII case-insensitive),
/// `%header{name}`, `%{json}`, `%%`, and the `\n \r \t \\` escapes; `%{stdout}` and `%{stderr}` switch the
/// stream for what follows, and `%{onerror}` drops the rest of the format when the transfer succeeded.
/// - SeeAlso: curl's `-w/--write-out`.
public struct WriteOut {
    /// A run of text and the stream it belongs on.
    public struct Segment: Equatable, Sendable {
        /// `true` for stderr, `false` for stdout.
        public var toStandardError: Bool
        /// The rendered text.
        public var text: String

        /// A run of `text` for stderr (`true`) or stdout.
        public init(toStandardError: Bool, text: String) {
            self.toStandardError = toStandardError
            self.text = text
        }
    }

    /// The rendered output, in order.
    public private(set) var segments: [Segment] = []
    /// Names of variables curl would not know, each to be warned about once.
    public private(set) var unknownVariables: [String] = []

    /// Renders `format` with values from `report`.
    public init(_ format: String, report: TransferReport) {
        var current = Segment(toStandardError: false, text: "")
        var rest = Substring(format)
        formatLoop: while let char = rest.first {
            rest = rest.dropFirst()
            switch char {
            case "\\":
                guard let next = rest.first else { current.text.append("\\"); continue }
                rest = rest.dropFirst()
                switch next {
                case "n": current.text.append("\n")
                case "r": current.text.append("\r")
                case "t": current.text.append("\t")
                default: current.text += "\\\(next)"
                }
            case "%":
                if rest.first == "%" { current.text.append("%"); rest = rest.dropFirst(); continue }
                if rest.hasPrefix("header{") {
                    guard let close = rest.firstIndex(of: "}") else { current.text.append("%"); continue }
                    let name = rest[rest.index(rest.startIndex, offsetBy: 7)..<close]
                    rest = rest[rest.index(after: close)...]
                    // curl copies the name into a 256-byte buffer and prints nothing for longer names.
                    if name.utf8.count < 256, report.headersReadable { current.text += report.responseHeaders.first(named: String(name)) ?? "" }
                    continue
                }
                guard rest.first == "{", let close = rest.firstIndex(of: "}") else { current.text.append("%"); continue }
                let name = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
                switch Self.asciiLowercased(name) {
                case "stdout", "stderr":
                    if !current.text.isEmpty { segments.append(current) }
                    current = Segment(toStandardError: Self.asciiLowercased(name) == "stderr", text: "")
                case "onerror":
                    if report.exitCode == 0 { break formatLoop }
                case "json":
                    current.text += WriteOutJSON.render(report)
                default:
                    if let value = Self.value(name, in: report) {
                        current.text += value.text
                    } else if !unknownVariables.contains(name) {
                        unknownVariables.append(name)
                    }
                }
            default:
                current.text.append(char)
            }
        }
        if !current.text.isEmpty { segments.append(current) }
    }

    /// A variable's value, typed the way curl's `%{json}` prints it.
    enum Value: Equatable {
        /// A string; `nil` where libcurl has none (text: empty, JSON: `null`).
        case string(String?)
        /// A plain number.
        case number(Int64)
        /// A response code: zero-padded to three digits in text, a plain number in JSON.
        case code(Int)
        /// Microseconds, printed as seconds with six decimals.
        case time(Int64)

        var text: String {
            switch self {
            case .string(let text): text ?? ""
            case .number(let number): String(number)
            case .code(let code): String(repeating: "0", count: max(0, 3 - String(code).count)) + String(code)
            case .time(let micro): WriteOut.seconds(micro)
            }
        }
    }

    /// Every variable name curl 7.88 puts in `%{json}` that ipcurl knows, plus ipcurl's `dns_source` and
    /// `dns_time`, in curl's (alphabetical) order.
    static let jsonNames = [
        "certs", "content_type", "dns_source", "dns_time", "errormsg", "exitcode", "filename_effective", "ftp_entry_path",
        "http_code", "http_connect", "http_version", "local_ip", "local_port", "method", "num_connects",
        "num_certs", "num_headers", "num_redirects", "proxy_ssl_verify_result", "redirect_url", "referer", "remote_ip",
        "remote_port", "response_code", "scheme", "size_download", "size_header", "size_request", "size_upload",
        "speed_download", "speed_upload", "ssl_verify_result", "time_appconnect", "time_connect",
        "time_namelookup", "time_pretransfer", "time_redirect", "time_starttransfer", "time_total", "url",
        "url_effective", "urlnum",
    ]

    /// The phase time `-w` calls `name` (lower case), in microseconds; `nil` for a name that is none.
    static func time(_ name: String, _ times: PhaseTimes) -> Int64? {
        switch name {
        case "time_namelookup": times.nameLookup
        case "time_connect": times.connect
        case "time_appconnect": times.appConnect
        case "time_pretransfer": times.preTransfer
        case "time_starttransfer": times.startTransfer
        case "time_redirect": times.redirect
        case "time_total": times.total
        case "dns_time": times.dns
        default: nil
        }
    }

    /// The count `-w` calls `name` (lower case); `nil` for a name that is none.
    static func count(_ name: String, _ counts: TransferCounts) -> Int64? {
        switch name {
        case "size_download": counts.sizeDownload
        case "size_upload": counts.sizeUpload
        case "size_header": counts.sizeHeader
        case "size_request": counts.sizeRequest
        case "speed_download": counts.speedDownload
        case "speed_upload": counts.speedUpload
        default: nil
        }
    }

    /// The value of one variable (name ASCII case-insensitive), or `nil` when curl has no such variable.
    static func value(_ name: String, in report: TransferReport) -> Value? {
        let name = asciiLowercased(name)
        if let time = time(name, report.times) { return .time(time) }
        if let count = count(name, report.counts) { return .number(count) }
        func optional(_ text: String) -> Value { .string(text.isEmpty ? nil : text) }
        switch name {
        case "http_code", "response_code": return .code(report.responseCode)
        case "certs": return .string(certificatesText(report.certificates))
        case "num_certs": return .number(Int64(report.certificates.count))
        case "header_json": return .string(headerJSON(report.responseHeaders))
        case "http_connect": return .code(report.httpConnectCode)
        case "remote_ip": return .string(report.remoteIP)
        case "remote_port": return .number(Int64(report.remotePort))
        case "local_ip": return .string(report.localIP)
        case "local_port": return .number(Int64(report.localPort))
        case "url_effective": return .string(report.effectiveURL)
        case "url": return .string(report.url)
        case "urlnum": return .number(Int64(report.urlNumber))
        case "redirect_url": return optional(report.redirectURL)
        case "content_type": return optional(report.contentType)
        case "scheme": return optional(report.scheme)
        case "method": return .string(report.method)
        case "referer": return optional(report.referer)
        case "filename_effective": return optional(report.filenameEffective)
        case "ftp_entry_path": return .string(nil)
        case "num_redirects": return .number(Int64(report.numRedirects))
        case "num_connects": return .number(Int64(report.numConnects))
        case "num_headers": return .number(Int64(report.responseHeaders.fields.count))
        case "ssl_verify_result": return .number(Int64(report.sslVerifyResult))
        case "proxy_ssl_verify_result": return .number(Int64(report.proxySSLVerifyResult))
        case "http_version": return .string(report.httpVersion)
        case "exitcode": return .number(Int64(report.exitCode))
        case "errormsg": return .string(report.exitCode == 0 ? nil : report.errorMessage)
        case "dns_source": return .string(report.dnsSource)
        default: return nil
        }
    }

    /// Microseconds as curl prints times: seconds with six decimals.
    static func seconds(_ micro: Int64) -> String {
        let fraction = String(micro % 1_000_000)
        return "\(micro / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// `%{certs}`: every certificate's entries, one per line as libcurl lists them, the PEM without its `Cert:` name.
    static func certificatesText(_ certificates: [[String]]) -> String {
        var text = ""
        for entry in certificates.joined() {
            text += asciiLowercased(String(entry.prefix(5))) == "cert:" ? String(entry.dropFirst(5)) : entry
            if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
        }
        return text
    }

    /// `%{header_json}`: the last response's headers as curl 7.88 prints them, names lower-cased, the values of
    /// repeated names gathered in one array, one member per line.
    static func headerJSON(_ headers: ResponseHeaders) -> String {
        var order: [String] = [], values: [String: [String]] = [:]
        for field in headers.fields {
            let name = asciiLowercased(field.name)
            if values[name] == nil { order.append(name) }
            values[name, default: []].append(field.value)
        }
        let members = order.map { name in
            JSONString.quoted(name) + ":[" + values[name, default: []].map { JSONString.quoted($0) }.joined(separator: ",") + "]"
        }
        return "{" + members.joined(separator: ",\n") + "\n}"
    }

    static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
