#if canImport(Glibc)
import Glibc
#endif
import CurlKit

/// A probe's log lines in go-kit's logfmt, as blackbox_exporter's "Logs for the probe" shows them:
/// `ts=2026-11-27T13:00:00.123Z module=http_2xx target=a.test level=info msg="Resolving target address" …`.
/// - SeeAlso: blackbox_exporter `prober/handler.go` (`scrapeLogger`); go-kit `log.NewLogfmtLogger`.
public struct ProbeLog: Sendable {
    /// The lines so far.
    public private(set) var lines: [String] = []
    private let prefix: [(String, String)]

    /// A log for `module` probing `target` (its user info left out, as reports leave it out).
    public init(module: String, target: String) { prefix = [("module", module), ("target", CurlURL.withoutUserInfo(target))] }

    /// `level=info msg=… key=value…`.
    public mutating func info(_ message: String, _ fields: (String, String)...) { log("info", message, fields) }

    /// `level=error msg=… key=value…`.
    public mutating func error(_ message: String, _ fields: (String, String)...) { log("error", message, fields) }

    private mutating func log(_ level: String, _ message: String, _ fields: [(String, String)]) {
        let all = [("ts", Self.timestamp())] + prefix + [("level", level), ("msg", message)] + fields
        lines.append(all.map { "\($0.0)=\(Self.value($0.1))" }.joined(separator: " "))
    }

    /// A logfmt value: bare when it has no blank, quote, `=` or control character, else a JSON string (go-kit's
    /// logfmt quotes as Go's `strconv.Quote` does, which agrees with JSON for everything a probe logs).
    public static func value(_ text: String) -> String {
        let needsQuotes = text.isEmpty || text.unicodeScalars.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0.value < 0x20 || $0.value == 0x7f }
        return needsQuotes ? JSONString.quoted(text) : text
    }

    /// Now in UTC with milliseconds, as go-kit's `DefaultTimestampUTC`: the reports' RFC 3339 time and `.mmm`.
    public static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return ReportFormat.timestamp(Int64(now.tv_sec)).dropLast() + "." + String(now.tv_nsec / 1_000_000).leftPadded(3) + "Z"
    }
}

extension String {
    /// The text with `0`s in front up to `width` characters.
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
