#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// Conditional requests, spelled as in curl: `-z/--time-cond` (a date or a file's time), `--etag-compare` (the
/// ETag a file holds) and `--etag-save` (where the response's ETag goes).
struct ConditionOptions: Sendable {
    var timeCondition: String?
    var etagCompare: String?
    var etagSave: String?

    static let rows: [OptionRow<ConditionOptions>] = [
        OptionRow("time-cond", "z", .string, "time", TransferOptions.http,
                  "Only if changed since TIME (a date, or a file's time); -TIME: only if unchanged since") {
            $0.timeCondition = $1.text
        },
        OptionRow("etag-compare", nil, .file, "file", OutputOptions.output,
                  "Send If-None-Match with the ETag FILE holds (a 304 then has no body)") { $0.etagCompare = $1.text },
        OptionRow("etag-save", nil, .file, "file", OutputOptions.output, "Write the response's ETag to FILE (- for stdout)") {
            $0.etagSave = $1.text
        },
    ]

    /// What the options say once read: the time condition (`-z` with neither a date nor a file warns and is
    /// dropped, as curl drops it) and the `If-None-Match` line; read once per operation, as curl reads them.
    struct Resolved: Sendable {
        var timeCondition: TransferTuning.TimeCondition?
        var ifNoneMatch: String?
        var etagSave: String?
    }

    func resolve(_ diagnostics: Diagnostics) throws(CurlError) -> Resolved {
        var resolved = Resolved(etagSave: etagSave)
        if let text = timeCondition {
            resolved.timeCondition = Self.condition(text)
            if resolved.timeCondition == nil {
                diagnostics.warning("Illegal date format for -z, --time-cond (and not a file name). Disabling time condition."
                                    + " See curl_getdate(3) for valid date syntax.")
            }
        }
        if let etagCompare {
            if LocalFiles.isReadable(etagCompare) {
                let etag = OutputOptions.formatFile(try LocalFiles.read(etagCompare))
                resolved.ifNoneMatch = "If-None-Match: " + (etag.isEmpty ? "\"\"" : etag)
            } else if etagSave == nil {
                throw CurlError.readError.with(message: "Failed to open \(Printable.escaped(etagCompare))")
            } else {
                resolved.ifNoneMatch = "If-None-Match: \"\""
            }
        }
        return resolved
    }

    /// `-z`'s value as curl reads it: `+`, `-` or `=` first chooses the test, then a date `curl_getdate` reads or
    /// the name of a file whose modification time is taken.
    static func condition(_ text: String) -> TransferTuning.TimeCondition? {
        var value = Substring(text)
        let kind = value.first
        if kind == "+" || kind == "-" || kind == "=" { value = value.dropFirst() }
        var time = TransferTuning.date(String(value))
        if time == nil {
            var info = stat()
            guard stat(String(value), &info) == 0 else { return nil }
            time = Int64(info.st_mtim.tv_sec)
        }
        guard let time else { return nil }
        switch kind {
        case "-": return .unmodifiedSince(time)
        case "=": return .lastModified(time)
        default: return .modifiedSince(time)
        }
    }
}
