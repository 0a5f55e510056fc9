import Foundation
import Testing

/// Secrets given on the command line are blanked from `/proc/PID/cmdline` (what `ps` shows every local user) once
/// the options are read: the values of `Authorization`, `Proxy-Authorization` and `Cookie` headers, a `-b` cookie
/// string, and the user info and query values of resolver and proxy URLs, in every form the parser takes. What
/// says which option it is (the header name, a cookie's name, the URL's host and path) stays readable.
@Suite struct ProcessListTests {
    /// One command line: its arguments (`PORT` is the silent listener's port, `DIR` a scratch directory), the
    /// secrets that must be gone and the parts that must stay.
    struct Line: Sendable, CustomTestStringConvertible {
        let name: String
        let arguments: [String]
        let secrets: [String]
        let kept: [String]
        var testDescription: String { name }
    }

    static let lines: [Line] = [
        Line(name: "headers",
             arguments: ["-H", "Authorization: Bearer hdr-secret-1", "-HCookie: c=hdr-secret-2",
                         "--header=Proxy-Authorization: Basic hdr-secret-3", "-sHauthorization:hdr-secret-4",
                         "--header", "X-Trace: visible-1", "http://a.test:PORT/"],
             secrets: ["hdr-secret-1", "hdr-secret-2", "hdr-secret-3", "hdr-secret-4"],
             kept: ["Authorization:", "-HCookie:", "--header=Proxy-Authorization:", "-sHauthorization:", "X-Trace: visible-1"]),
        Line(name: "cookies",
             arguments: ["-b", "session=ck-secret-1; theme=ck-secret-2", "--cookie=id=ck-secret-3", "-b", "DIR/jar.txt",
                         "http://a.test:PORT/"],
             secrets: ["ck-secret-1", "ck-secret-2", "ck-secret-3"],
             kept: ["session=", "; theme=", "--cookie=id=", "/jar.txt"]),
        Line(name: "DoH URL",
             arguments: ["--doh", "https://doh-user:doh-secret-1@127.0.0.1:1/dns-query?token=doh-secret-2&plain", "http://a.test:PORT/"],
             secrets: ["doh-user", "doh-secret-1", "doh-secret-2", "plain"],
             kept: ["https://", "@127.0.0.1:1/dns-query?token=", "&"]),
        Line(name: "DoH JSON URL",
             arguments: ["--doh-json=http://json-user:json-secret-1@127.0.0.1:1/resolve?key=json-secret-2", "http://a.test:PORT/"],
             secrets: ["json-user", "json-secret-1", "json-secret-2"],
             kept: ["--doh-json=http://", "@127.0.0.1:1/resolve?key="]),
        Line(name: "proxy URL",
             arguments: ["-x", "http://proxy-user:proxy-secret-1@127.0.0.4:PORT", "http://a.test:PORT/"],
             secrets: ["proxy-user", "proxy-secret-1"],
             kept: ["http://", "@127.0.0.4:PORT"]),
        Line(name: "check's headers",
             arguments: ["check", "-H", "Authorization: Bearer chk-secret-1", "http://a.test:PORT/"],
             secrets: ["chk-secret-1"], kept: ["Authorization:"]),
    ]

    /// The process connects to a listener that never answers, so it stays alive while its command line is read.
    @Test(arguments: lines)
    func secretsAreBlankedFromTheProcessList(line: Line) throws {
        let listener = try SilentListener()
        let scratch = try TemporaryDirectory()
        try "".write(toFile: scratch.path + "/jar.txt", atomically: false, encoding: .utf8)
        let fill = { (text: String) in
            text.replacingOccurrences(of: "PORT", with: String(listener.port)).replacingOccurrences(of: "DIR", with: scratch.path)
        }
        let arguments = line.arguments.map(fill)
        let pin = ["--resolve", "a.test:\(listener.port):127.0.0.4", "-m", "20"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ipcurlBinary())
        process.arguments = arguments.first == "check" ? ["check"] + pin + arguments.dropFirst() : pin + arguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "IPCURL_DNS")
        environment["IPCURL_CACHE_DIR"] = scratch.path + "/cache"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {  // SIGKILL: the test runner's blocked signals are blocked in the child too
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let kept = line.kept.map(fill)
        var cmdline = ""
        for _ in 0..<60 {
            Thread.sleep(forTimeInterval: 0.05)
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(process.processIdentifier)/cmdline"))) ?? Data()
            cmdline = String(decoding: bytes.map { $0 == 0 ? 0x0A : $0 }, as: UTF8.self)
            if kept.allSatisfy(cmdline.contains), !line.secrets.contains(where: cmdline.contains) { break }
        }
        #expect(process.isRunning, "the process ended before its command line was read")
        for secret in line.secrets { #expect(!cmdline.contains(secret), "\(secret) in \(cmdline)") }
        for part in kept { #expect(cmdline.contains(part), "\(part) not in \(cmdline)") }
    }
}
