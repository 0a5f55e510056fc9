import CurlKit
import OptionTable

/// Rows for how a fetch's bytes move: `--limit-rate`, `-r`, `--path-as-is`, `--raw`, `-N`,
/// `--ignore-content-length`, `--max-filesize`, `--happy-eyeballs-timeout-ms`.
enum TuningOptions {
    static let category = OptionCategory("transfer", "How bytes move: rate, range, decoding, size limits")

    static let rows: [OptionRow<TransferTuning>] = [
        OptionRow("limit-rate", nil, .string, "speed", category, "Most bytes per second, each way (suffix k, m or g)") {
            $0.bytesPerSecond = try size($1)
        },
        OptionRow("range", "r", .string, "range", category, "Ask for these bytes only: first-last[,first-last...]") {
            $0.range = $1.text
        },
        OptionRow("path-as-is", nil, .boolean, "", category, "Send /../ and /./ in the URL path as typed") { $0.pathAsIs = $1.isOn },
        OptionRow("raw", nil, .boolean, "", category, "Pass content and transfer encodings through undecoded") { $0.raw = $1.isOn },
        OptionRow("no-buffer", "N", .none, "", category,
                  "Write each chunk as it arrives: ipcurl always does, so this is accepted for curl scripts") { _, _ in },
        OptionRow("ignore-content-length", nil, .boolean, "", category, "Ignore the Content-Length header") {
            $0.ignoresContentLength = $1.isOn
        },
        OptionRow("max-filesize", nil, .string, "bytes", category, "Fail with exit 63 when the download is larger (suffix k, m or g)") {
            $0.maximumFileSize = try size($1)
        },
        OptionRow("happy-eyeballs-timeout-ms", nil, .number, "ms", category,
                  "Milliseconds IPv6 gets before IPv4 is tried too (libcurl's default 200)") {
            $0.happyEyeballsMS = try $1.integer(in: 0...Int(Int32.max))
        },
    ]

    /// A byte count with curl's optional `k`, `m`, `g` suffix (powers of 1024).
    static func size(_ argument: OptionArgument) throws(OptionError) -> Int64 {
        var text = Substring(argument.text)
        var unit: Int64 = 1
        switch text.last?.lowercased() {
        case "k": unit = 1 << 10
        case "m": unit = 1 << 20
        case "g": unit = 1 << 30
        default: break
        }
        if unit > 1 { text = text.dropLast() }
        guard let value = Int64(text), value >= 0, value <= Int64.max / unit else {
            throw argument.problem("unsupported rate unit or bad number")
        }
        return value * unit
    }
}
