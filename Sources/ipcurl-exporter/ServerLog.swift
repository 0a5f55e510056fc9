import IPCurlCore

/// The exporter's own log on stderr, as blackbox_exporter writes it: logfmt (`ts=… level=info msg="…" key=value`)
/// or JSON objects (`--log.format json`), lines below `--log.level` left out.
struct ServerLog: Sendable {
    private let minimum: Int
    private let json: Bool
    private static let levels = ["debug", "info", "warn", "error"]

    init(level: String, format: String) {
        minimum = Self.levels.firstIndex(of: level) ?? 1
        json = format == "json"
    }

    func info(_ message: String, _ fields: (String, String)...) { write("info", message, fields) }
    func warn(_ message: String, _ fields: (String, String)...) { write("warn", message, fields) }
    func error(_ message: String, _ fields: (String, String)...) { write("error", message, fields) }

    private func write(_ level: String, _ message: String, _ fields: [(String, String)]) {
        guard (Self.levels.firstIndex(of: level) ?? 1) >= minimum else { return }
        let all = [("ts", ProbeLog.timestamp()), ("level", level), ("msg", message)] + fields
        let line = json ? "{" + all.map { "\(JSONString.quoted($0.0)):\(JSONString.quoted($0.1))" }.joined(separator: ",") + "}"
            : all.map { "\($0.0)=\(ProbeLog.value($0.1))" }.joined(separator: " ")
        DescriptorWriter.standardError.write(line + "\n")
    }
}
