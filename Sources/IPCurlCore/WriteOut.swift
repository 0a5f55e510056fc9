/// Renders a `-w/--write-out` format the way curl does: `%{variable}`, `%%`, and the `\n \r \t \\` escapes;
/// `%{stdout}` and `%{stderr}` switch the stream for what follows.
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
        while let char = rest.first {
            rest = rest.dropFirst()
            switch char {
            case "\\":
                guard let next = rest.first else { current.text.append("\\"); continue }
                rest = rest.dropFirst()
                switch next {
                case "n": current.text.append("\n")
                case "r": current.text.append("\r")
                case "t": current.text.append("\t")
                case "\\": current.text.append("\\")
                default: current.text += "\\\(next)"
                }
            case "%":
                if rest.first == "%" { current.text.append("%"); rest = rest.dropFirst(); continue }
                guard rest.first == "{", let close = rest.firstIndex(of: "}") else { current.text.append("%"); continue }
                let name = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
                switch name {
                case "stdout", "stderr":
                    if !current.text.isEmpty { segments.append(current) }
                    current = Segment(toStandardError: name == "stderr", text: "")
                default:
                    if let value = Self.value(name, in: report) {
                        current.text += value
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

    /// The text for one variable, or `nil` when curl has no such variable.
    static func value(_ name: String, in report: TransferReport) -> String? {
        if let micro = report.microseconds[name] { return seconds(micro) }
        if let count = report.counts[name] { return String(count) }
        switch name {
        case "http_code", "response_code": return threeDigits(report.responseCode)
        case "remote_ip": return report.remoteIP
        case "remote_port": return String(report.remotePort)
        case "local_ip": return report.localIP
        case "local_port": return String(report.localPort)
        case "url_effective": return report.effectiveURL
        case "redirect_url": return report.redirectURL
        case "content_type": return report.contentType
        case "scheme": return report.scheme
        case "num_redirects": return String(report.numRedirects)
        case "num_connects": return String(report.numConnects)
        case "ssl_verify_result": return String(report.sslVerifyResult)
        case "http_version": return report.httpVersion
        case "exitcode": return String(report.exitCode)
        case "errormsg": return report.errorMessage
        case "dns_source": return report.dnsSource
        default: return nil
        }
    }

    /// Microseconds as curl prints times: seconds with six decimals.
    static func seconds(_ micro: Int64) -> String {
        let fraction = String(micro % 1_000_000)
        return "\(micro / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    private static func threeDigits(_ code: Int) -> String {
        let text = String(code)
        return String(repeating: "0", count: max(0, 3 - text.count)) + text
    }
}
