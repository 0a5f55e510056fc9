import CurlKit
import OptionTable

/// Rows for the connection and the request line, spelled as in curl: speed limits, socket options, keepalive,
/// ALPN, TLS session reuse, the PROXY protocol header, `Expect: 100-continue`, the request target, transfer
/// encoding, CR LF uploads and HTTP/0.9.
enum ConnectionOptions {
    static let category = ResolverOptions.connectionCategory

    static let rows: [OptionRow<TransferTuning>] = [
        OptionRow("speed-limit", "Y", .number, "speed", category,
                  "Fail with exit 28 below SPEED bytes per second for -y seconds (default 30)") {
            let limit = try $1.integer(in: 0...Int(Int32.max))
            $0.lowSpeed = TransferTuning.LowSpeed(bytesPerSecond: limit, seconds: $0.lowSpeed?.seconds ?? 30)
        },
        OptionRow("speed-time", "y", .number, "seconds", category,
                  "Fail with exit 28 when slower than -Y (default 1 byte per second) for SECONDS") {
            let seconds = try $1.integer(in: 0...Int(Int32.max))
            $0.lowSpeed = TransferTuning.LowSpeed(bytesPerSecond: $0.lowSpeed?.bytesPerSecond ?? 1, seconds: seconds)
        },
        OptionRow("tcp-nodelay", nil, .boolean, "", category, "Send small packets at once (the default; --no-tcp-nodelay waits)") {
            $0.tcpNoDelay = $1.isOn
        },
        OptionRow("tcp-fastopen", nil, .boolean, "", category, "Use TCP Fast Open") { $0.tcpFastOpen = $1.isOn },
        OptionRow("keepalive", nil, .boolean, "", category, "Send TCP keepalive probes (the default; --no-keepalive: none)") {
            $0.keepalive = $1.isOn
        },
        OptionRow("keepalive-time", nil, .number, "seconds", category, "Idle seconds before the first keepalive probe, and between them") {
            let seconds = try $1.integer()
            guard seconds >= 0 else { throw $1.problem("expected a positive numerical parameter") }
            $0.keepaliveSeconds = min(seconds, Int(Int32.max))
        },
        OptionRow("expect100-timeout", nil, .seconds, "seconds", category, "Seconds to wait for 100-continue (default 1)") {
            $0.expect100TimeoutMS = Int(try $1.seconds() * 1000)
        },
        OptionRow("alpn", nil, .boolean, "", category, "Offer ALPN in the TLS handshake (the default; --no-alpn: HTTP/1.1 on TLS)") {
            $0.alpn = $1.isOn
        },
        OptionRow("sessionid", nil, .boolean, "", category, "Reuse TLS sessions (the default; --no-sessionid: a full handshake each time)") {
            $0.sessionIDCache = $1.isOn
        },
        OptionRow("haproxy-protocol", nil, .boolean, "", category, "Send a PROXY protocol v1 header first") {
            $0.haproxyProtocol = $1.isOn
        },
        OptionRow("request-target", nil, .string, "path", category, "Send PATH as the request line's target (\"*\" for OPTIONS *)") {
            $0.requestTarget = $1.text
        },
        OptionRow("tr-encoding", nil, .boolean, "", category, "Ask for a compressed Transfer-Encoding and decode it") {
            $0.transferEncoding = $1.isOn
        },
        OptionRow("crlf", nil, .boolean, "", category, "Send the line feeds of an upload as CR LF") { $0.crlf = $1.isOn },
        OptionRow("form-escape", nil, .boolean, "", TransferOptions.post, "Escape -F names and file names with %XX, as browsers do") {
            $0.formEscape = $1.isOn
        },
        OptionRow("http0.9", nil, .boolean, "", category, "Accept an HTTP/0.9 response (no status line, no headers)") {
            $0.http09Allowed = $1.isOn
        },
    ]
}
