import Foundation
import Testing
import HTTPDNS
@testable import IPCurlCore

/// A synthetic `ipcurl check` report: one pass, one failing assertion over IPv6, one curl error without TLS, labels that
/// need escaping in every format, and a system DNS comparison that differs beside one that does not.
enum CheckReportFixture {
    static let startedAt: Int64 = 1_750_000_000  // 2025-06-15T15:06:40Z
    /// A label value with a quote, a backslash, a line feed and a tab.
    static let awkward = "say \"hi\"\\ back\nnext\tline"

    static var report: CheckReport {
        let api = CheckTarget(url: "https://api.test/health", name: "api")
        var pass = ProbeResult(target: api, address: IPAddress("127.0.0.2"))
        pass.answerSource = "doh"
        pass.status = 200
        pass.httpVersion = "2"
        pass.tlsVersion = .tls1_3
        pass.connectedIP = "127.0.0.2"
        pass.timings = timings(resolve: 1_200, connect: 300, tls: 4_500, processing: 2_000, transfer: 100, total: 6_900)
        pass.certificate = CertificateSummary(subject: "CN = api.test", subjectAlternativeNames: ["api.test", "*.api.test"],
                                              issuer: "CN = Test CA, O = \"Quote & <Co>\"", notAfter: startedAt + 90 * 86_400 + 5,
                                              earliestNotAfter: startedAt + 89 * 86_400 + 5)
        var assertion = pass
        assertion.address = IPAddress("::1")
        assertion.connectedIP = "::1"
        assertion.status = 503
        assertion.tlsVersion = .tls1_2
        assertion.httpVersion = "1.1"
        assertion.certificate?.earliestNotAfter = startedAt + 12 * 86_400
        assertion.failures = [AssertionFailure(assertion: "status", expected: "200-399", actual: "503"),
                              AssertionFailure(assertion: "min_cert_days", expected: "30", actual: "12")]
        var web = CheckTarget(url: "http://web.test/#top", name: "web <&> \"edge\"")
        web.method = "HEAD"
        var refused = ProbeResult(target: web, address: IPAddress("127.0.0.3"))
        refused.answerSource = "system"
        refused.error = ProbeError(exitCode: 7, message: "Failed to connect to 127.0.0.3 port 80: Connection refused")
        refused.timings = timings(resolve: 800, connect: 0, tls: 0, processing: 0, transfer: 0, total: 450)
        let comparisons = [
            NameComparison(host: "api.test", httpdns: [IPAddress("127.0.0.2")!, IPAddress("::1")!], system: [IPAddress("10.0.0.1")!]),
            NameComparison(host: "web.test", httpdns: [IPAddress("127.0.0.3")!], system: [IPAddress("127.0.0.3")!]),
        ]
        return CheckReport(probes: [pass, assertion, refused],
                           labels: [("env", "prod"), ("note", awkward), ("target", "shadow"), ("env", "ignored")],
                           comparisons: comparisons, startedAt: startedAt, durationMicroseconds: 1_504_000)
    }

    /// ``awkward`` as the report formats without an escape of their own for TAB write it (`\x09`, see ``Printable``).
    static let awkwardShown = "say \"hi\"\\ back\nnext\\x09line"
    /// A name with a carriage return, a terminal sequence, a C1 control and what would start a TAP directive.
    static let hostileName = "gone\r\u{1B}[2J # SKIP \u{9B}x"
    /// A label value with a carriage return, a colour sequence, a C1 control, a line feed and a window-title sequence.
    static let hostileLabel = "cr\r esc\u{1B}[31m c1\u{85} lf\nend\u{1B}]0;T\u{07}"
    /// ``hostileLabel`` as OpenMetrics readers read it back: the line feed kept, every other control as `\xNN`.
    static let hostileLabelShown = #"cr\x0d esc\x1b[31m c1\xc2\x85 lf"# + "\n" + #"end\x1b]0;T\x07"#

    /// ``report`` with the first probe repeated (the same target at the same address), one unresolved probe named
    /// ``hostileName`` and the label ``hostileLabel``.
    static var reportWithRepeats: CheckReport {
        var report = report
        report.probes.append(report.probes[0])
        report.labels.insert(("ctl", hostileLabel), at: 2)
        var unresolved = ProbeResult(target: CheckTarget(url: "https://gone.test/", name: hostileName), address: nil)
        unresolved.error = ProbeError(exitCode: 6, message: "Could not resolve host: gone.test")
        report.probes.append(unresolved)
        return report
    }

    static func timings(resolve: Int64, connect: Int64, tls: Int64, processing: Int64, transfer: Int64, total: Int64) -> ProbeTimings {
        var timings = ProbeTimings()
        (timings.resolve, timings.connect, timings.tls) = (resolve, connect, tls)
        (timings.processing, timings.transfer, timings.total) = (processing, transfer, total)
        return timings
    }

    /// Occurrences of `needle` in `text`.
    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// A fresh directory under the system's temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ipcurl-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Runs the real consumers of the report formats.
enum Consumer {
    /// `command` found on `PATH` (through `/usr/bin/env`), run with `arguments` and `input` on stdin; stdin, stdout
    /// and stderr are files, so no pipe can fill up.
    static func run(_ command: String, _ arguments: [String], input: String = "") throws -> (status: Int32, output: String, errors: String) {
        let directory = try CheckReportFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = ["in", "out", "err"].map { directory.appendingPathComponent($0) }
        try Data(input.utf8).write(to: files[0])
        _ = FileManager.default.createFile(atPath: files[1].path, contents: nil)
        _ = FileManager.default.createFile(atPath: files[2].path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        process.standardInput = try FileHandle(forReadingFrom: files[0])
        process.standardOutput = try FileHandle(forWritingTo: files[1])
        process.standardError = try FileHandle(forWritingTo: files[2])
        try process.run()
        process.waitUntilExit()
        let output = try String(contentsOf: files[1], encoding: .utf8), errors = try String(contentsOf: files[2], encoding: .utf8)
        return (process.terminationStatus, output, errors)
    }

    /// Whether `command` is on `PATH`.
    static func has(_ command: String) -> Bool { (try? run("sh", ["-c", "command -v \"$0\" >/dev/null", command]).status) == 0 }

    /// Whether `python3` can import `module`.
    static func hasPython(_ module: String) -> Bool { (try? run("python3", ["-c", "import \(module)"]).status) == 0 }

    /// Whether `perl` can load `module`.
    static func hasPerl(_ module: String) -> Bool { (try? run("perl", ["-M\(module)", "-e", "1"]).status) == 0 }
}

extension CheckReport: CustomTestStringConvertible {
    /// `5 probes` instead of the whole report in parameterised test names.
    public var testDescription: String { "\(probes.count) probes" }
}
