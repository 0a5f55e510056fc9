import Foundation
import Testing

/// Secrets given on the command line are blanked from `/proc/PID/cmdline` (what `ps` shows every local user) once
/// the options are read: the values of `Authorization`, `Proxy-Authorization` and `Cookie` headers (on every line of
/// a value, folded lines included), a `-b` cookie string, and the user info and query values of resolver and proxy
/// URLs (whatever the slashes after the scheme, or without one), in every form the parser takes. What says which
/// option it is (the header name, a cookie's name, the URL's host and path) stays readable.
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
        Line(name: "headers with leading blanks, CR LF-injected lines and folded values",
             arguments: ["-H", "  Authorization: hdr-secret-5", "-H", "X-A: b\r\nAuthorization: hdr-secret-6",
                         "-H", "X-B: c\r\nCookie: hdr-secret-7\r\n\tfold-secret-8\r\n more-secret-9", "http://a.test:PORT/"],
             secrets: ["hdr-secret-5", "hdr-secret-6", "hdr-secret-7", "fold-secret-8", "more-secret-9"],
             kept: ["  Authorization:", "X-A: b\r\nAuthorization:", "X-B: c\r\nCookie:"]),
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
        Line(name: "proxy URLs with any number of slashes or no scheme",  // libcurl takes each; the last -x is used
             arguments: ["-x", "http:/slash1-user:proxy-secret-2@127.0.0.4:PORT", "-x", "http:///slash3-user:proxy-secret-3@127.0.0.4:PORT",
                         "-x", "http:bare-user:proxy-secret-4@127.0.0.4:PORT", "--proxy", "plain-user:proxy-secret-5@127.0.0.4:PORT",
                         "http://a.test:PORT/"],
             secrets: ["slash1-user", "slash3-user", "bare-user", "plain-user"] + (2...5).map { "proxy-secret-\($0)" },
             kept: ["http:/", "@127.0.0.4:PORT", "--proxy"]),
        Line(name: "proxy options",  // the pre-proxy takes the --socks5 proxy's place: the silent listener
             arguments: ["--socks5", "socks-user:socks-secret-1@127.0.0.9:1", "--preproxy", "socks5://pre-user:pre-secret-2@127.0.0.4:PORT",
                         "--proxy-header", "Proxy-Authorization: Basic phdr-secret-3", "--proxy-cert", "DIR/cert.pem:pcert-secret-4",
                         "--proxy-tlsuser", "srp-user-5", "--proxy1.0", "p10-user:p10-secret-6@127.0.0.9:1", "http://a.test:PORT/"],
             secrets: ["socks-user", "socks-secret-1", "pre-user", "pre-secret-2", "phdr-secret-3", "pcert-secret-4", "srp-user-5",
                       "p10-user", "p10-secret-6"],
             kept: ["@127.0.0.9:1", "socks5://", "@127.0.0.4:PORT", "Proxy-Authorization:"]),
        Line(name: "DoH URLs with any number of slashes",
             arguments: ["--doh", "https:/doh-user-2:doh-secret-3@127.0.0.1:1/dns-query",
                         "--doh", "https:///doh-user-3:doh-secret-4@127.0.0.1:1/dns-query", "http://a.test:PORT/"],
             secrets: ["doh-user-2", "doh-secret-3", "doh-user-3", "doh-secret-4"],
             kept: ["https:/", "https:///", "@127.0.0.1:1/dns-query"]),
        Line(name: "bearer token file (or a token given as curl takes it)",
             arguments: ["--oauth2-bearer", "DIR/bearer-name-secret", "http://a.test:PORT/"],
             secrets: ["bearer-name-secret"], kept: ["--oauth2-bearer"]),
        Line(name: "passphrase and password files (or secrets given as curl takes them)",
             arguments: ["--pass", "DIR/pass-name-secret", "--proxy-pass=DIR/pass-name-secret", "--tlspassword", "DIR/pass-name-secret",
                         "--proxy-tlspassword", "DIR/pass-name-secret", "http://a.test:PORT/"],
             secrets: ["pass-name-secret"], kept: ["--pass", "--proxy-pass=", "--tlspassword", "--proxy-tlspassword"]),
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
        try writePrivateFile("token\n", to: scratch.path + "/bearer-name-secret")
        try writePrivateFile("passphrase\n", to: scratch.path + "/pass-name-secret")
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
