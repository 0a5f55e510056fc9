import FuzzSupport
import IPCurlCore

/// A report with every kind of value set, so `%{...}` variables render non-empty text.
let report: TransferReport = {
    var report = TransferReport(url: "https://www.example.com/a,b?c=%41")
    report.responseCode = 200
    report.remoteIP = "192.0.2.1"
    report.remotePort = 443
    report.contentType = "text/plain; charset=utf-8"
    report.scheme = "HTTPS"
    report.httpVersion = "2"
    report.errorMessage = "an \"error\"\n"
    report.dnsSource = "aliyun"
    report.certificates = [["Subject:CN=www.example.com", "Start date:Jan  1 00:00:00 2026 GMT"]]
    for line in ["HTTP/2 200\r\n", "content-type: text/plain\r\n", "x-Test: one\r\n", "x-test: two\r\n", "\r\n"] {
        report.responseHeaders.receive(Array(line.utf8))
    }
    return report
}()
let failedReport: TransferReport = {
    var failed = report
    failed.exitCode = 6
    return failed
}()

/// `-w` formats; the first byte picks a successful or a failed transfer. Text without `%` or `\` renders as itself.
@_cdecl("FuzzWriteOut_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let input = bytes(data, size)
        guard let first = input.first else { return 0 }
        let format = String(decoding: input.dropFirst(), as: UTF8.self)
        let output = WriteOut(format, report: first & 1 == 0 ? report : failedReport)
        require(Set(output.unknownVariables).count == output.unknownVariables.count, "an unknown variable listed twice")
        require(output.segments.allSatisfy { !$0.text.isEmpty }, "an empty segment")
        if !format.contains("%"), !format.contains("\\") {
            require(output.segments.map(\.text) == (format.isEmpty ? [] : [format]), "plain text did not render as itself")
        }
        return 0
    }
}
