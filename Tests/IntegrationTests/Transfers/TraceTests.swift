import Foundation
import Testing

/// `--trace`, `--trace-ascii`, `--trace-time` and `--stderr`, against curl 7.88.1 over plain HTTP (no TLS
/// records, so the dumps are deterministic): the same blocks, byte counts and dump lines, Info lines and the
/// Date header aside; credentials are redacted where curl dumps them.
@Suite struct TraceTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    /// The dump without `== Info` lines (each tool reports its own steps) and without the Date header's block.
    private func comparable(_ dump: String) -> [String] {
        var kept: [String] = [], skipping = false
        let lines = dump.split(separator: "\n").map(String.init)
        for (index, line) in lines.enumerated() where !line.contains("== Info:") {
            if line.hasPrefix("<=") || line.hasPrefix("=>") {
                skipping = index + 1 < lines.count && lines[index + 1].contains("Date: ")
            }
            if !skipping { kept.append(line) }
        }
        return kept
    }

    @Test(arguments: ["--trace", "--trace-ascii"])
    func dumpsMatchCurl(option: String) throws {
        let directory = try TemporaryDirectory()
        let url = "http://a.test:\(oracle.lab.httpPort)/api/echo"
        let common = ["-s", "-A", "same", "-d", "a=1&b=two", "-o", "/dev/null"]
        let mine = try oracle.ours(common + [option, directory.path + "/ours", url])
        let curls = try oracle.theirs(common + [option, directory.path + "/theirs", url])
        #expect(mine.status == 0 && curls.status == 0, "\(mine.stderr)")
        let ours = try String(contentsOfFile: directory.path + "/ours", encoding: .utf8)
        let theirs = try String(contentsOfFile: directory.path + "/theirs", encoding: .utf8)
        #expect(comparable(ours) == comparable(theirs))
        #expect(ours.contains("=> Send data, 9 bytes (0x9)"))
    }

    @Test func credentialsAreRedactedAndTimesStamped() throws {
        let directory = try TemporaryDirectory()
        let url = "http://a.test:\(oracle.lab.httpPort)/api/status?code=200"  // a response that does not echo the request
        let run = try oracle.ours(["-s", "-u", "user:hunter2", "-H", "Cookie: c=secret", "--trace-ascii", directory.path + "/t",
                                   "--trace-time", "-o", "/dev/null", url])
        #expect(run.status == 0, "\(run.stderr)")
        let dump = try String(contentsOfFile: directory.path + "/t", encoding: .utf8)
        #expect(dump.contains("Authorization: [redacted]") && dump.contains("Cookie: [redacted]"))
        #expect(!dump.contains("hunter2") && !dump.contains("secret") && !dump.contains("dXNlcjpodW50ZXIy"))
        let stamped = dump.split(separator: "\n").filter { $0.contains("=> Send header") }
        #expect(stamped.count == 1 && stamped[0].dropFirst(2).hasPrefix(":") && stamped[0].prefix(16).last == " ")
    }

    /// Over HTTP/2 (https through the lab's authenticating proxy), libcurl prints request headers a second time as
    /// `h2h3 [name: value]` info lines: no dump shows a credential in any of its shapes, the proxy's included.
    @Test(arguments: ["-v", "--trace", "--trace-ascii"])
    func credentialsAreRedactedInEveryDumpOverHTTP2(dump: String) throws {
        let directory = try TemporaryDirectory()
        let user = try String(contentsOfFile: try lab.value("LAB_PROXY_USER_FILE"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let secrets = ["B3ARER-SECRET", "C00KIE-SECRET", "BLANK-SECRET", String(user.drop { $0 != ":" }.dropFirst()),
                       Data(user.utf8).base64EncodedString()]
        let proxied = ["-x", try lab.value("LAB_PROXY_AUTH_URL"), "-U", user]
        let runs = [  // the second run's header (a blank before the colon) makes nginx refuse the request: exit 92
            proxied + ["-H", "Authorization: Bearer B3ARER-SECRET", "-b", "session=C00KIE-SECRET"],
            proxied + ["-H", "AUTHORIZATION : Bearer BLANK-SECRET", "-H", "cookie : C00KIE-SECRET"],
        ]
        for (index, arguments) in runs.enumerated() {
            let file = directory.path + "/dump\(index)"
            let run = try oracle.ours(["-sS", "-o", "/dev/null"] + arguments + (dump == "-v" ? ["-v"] : [dump, file])
                                      + [lab.https("a.test", "/api/status?code=200")])
            #expect(run.status == (index == 0 ? 0 : 92), "\(run.stderr)")
            var shown = run.stdout + run.stderr
            if dump != "-v" {
                let text = try String(contentsOfFile: file, encoding: .utf8)
                // --trace spells bytes in hex rows: read them back, so a secret split across rows is found too.
                shown += text + String(decoding: Self.hexColumns(text), as: UTF8.self)
            }
            #expect(shown.contains("h2h3 [authorization"), "the request went over HTTP/2: \(shown)")
            #expect(shown.contains("Proxy-Authorization: [redacted]") && shown.contains("[redacted]]"), "\(shown)")
            for secret in secrets { #expect(!shown.contains(secret), "\(dump) shows \(secret): \(shown)") }
        }
    }

    /// A folded value (obs-fold: the lines after a header line that start with a blank) is part of the header's
    /// value: redacted in every dump, in a request header given with `-H` and in a response header, which libcurl
    /// hands over one line per callback, so the value's lines arrive in callbacks of their own.
    @Test(arguments: ["-v", "--trace", "--trace-ascii"])
    func foldedCredentialValuesAreRedactedInEveryDump(dump: String) throws {
        let response = "HTTP/1.1 200 OK\r\nAuthorization: Bearer\r\n\tANSWER-SECRET\r\n  more-ANSWER-SECRET\r\nX-Answer: kept\r\n"
            + "Content-Length: 0\r\nConnection: close\r\n\r\n"
        let server = try ScriptedResponder(response: Array(response.utf8))
        let directory = try TemporaryDirectory()
        let file = directory.path + "/dump"
        let run = try oracle.ours(["-sS", "-o", "/dev/null", "-H", "Authorization: Bearer\r\n\tF0LDED-SECRET\r\n more-F0LDED-SECRET",
                                   "-H", "X-Request: kept"] + (dump == "-v" ? ["-v"] : [dump, file]) + [server.url()])
        #expect(run.status == 0, "\(run.stderr)")
        var shown = run.stdout + run.stderr
        if dump != "-v" {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            shown += text + String(decoding: Self.hexColumns(text), as: UTF8.self)
        }
        #expect(shown.contains("X-Request: kept") && shown.contains("X-Answer: kept") && shown.contains("[redacted]"), "\(shown)")
        for secret in ["F0LDED-SECRET", "ANSWER-SECRET"] { #expect(!shown.contains(secret), "\(dump) shows \(secret): \(shown)") }
    }

    /// A server's session cookies are credentials too: `Set-Cookie` values are redacted in every dump over HTTP/2,
    /// and stay whole in `-D` (data, as curl writes it).
    @Test(arguments: ["-v", "--trace", "--trace-ascii"])
    func aServersSetCookieIsRedactedInEveryDump(dump: String) throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/dump", headers = directory.path + "/headers"
        let run = try oracle.ours(["-sS", "-o", "/dev/null", "-D", headers] + (dump == "-v" ? ["-v"] : [dump, file])
                                  + [lab.https("a.test", "/api/set-cookie?session=S3SSION-SECRET")])
        #expect(run.status == 0, "\(run.stderr)")
        var shown = run.stdout + run.stderr
        if dump != "-v" {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            shown += text + String(decoding: Self.hexColumns(text), as: UTF8.self)
        }
        #expect(shown.lowercased().contains("set-cookie: [redacted]"), "\(shown)")
        // The value is also in the request's path (the lab sets what the query says): only header lines count.
        let leaking = shown.split(whereSeparator: \.isNewline).filter { $0.lowercased().contains("set-cookie:") && $0.contains("S3SSION") }
        #expect(leaking.isEmpty, "\(dump) shows the session: \(leaking)")
        #expect(try String(contentsOfFile: headers, encoding: .utf8).contains("session=S3SSION-SECRET; Path=/"), "-D keeps it")
    }

    /// The bytes of a `--trace` dump's hex columns, in order.
    static func hexColumns(_ dump: String) -> [UInt8] {
        dump.split(separator: "\n").flatMap { line -> [UInt8] in
            guard line.count > 6, line.dropFirst(4).hasPrefix(": ") else { return [] }
            return line.dropFirst(6).split(separator: " ", omittingEmptySubsequences: false).prefix(16)
                .compactMap { $0.count == 2 ? UInt8($0, radix: 16) : nil }
        }
    }

    @Test(arguments: ["--trace", "--trace-ascii"])
    func stampedDumpsMatchCurl(option: String) throws {
        let directory = try TemporaryDirectory()
        let url = "http://a.test:\(oracle.lab.httpPort)/api/echo"
        let common = ["-s", "-A", "same", "-d", "a=1&b=two", "-o", "/dev/null", "--trace-time"]
        let mine = try oracle.ours(common + [option, directory.path + "/ours", url])
        let curls = try oracle.theirs(common + [option, directory.path + "/theirs", url])
        #expect(mine.status == 0 && curls.status == 0, "\(mine.stderr)")
        // curl stamps every event line with HH:MM:SS.uuuuuu and a blank, and no dump line; so must ipcurl.
        let stamp = try NSRegularExpression(pattern: #"^[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]{6} (?=[=<])"#)
        func unstamped(_ path: String) throws -> (String, Int) {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            var stamped = 0
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                let line = String(line)
                guard let match = stamp.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { return line }
                stamped += 1
                return String(line.dropFirst(match.range.length))
            }
            return (lines.joined(separator: "\n"), stamped)
        }
        let (ours, ourStamps) = try unstamped(directory.path + "/ours")
        let (theirs, theirStamps) = try unstamped(directory.path + "/theirs")
        #expect(theirStamps > 0 && ourStamps == ours.split(separator: "\n").filter { $0.hasPrefix("==") || $0.hasPrefix("=>") || $0.hasPrefix("<=") }.count)
        #expect(comparable(ours) == comparable(theirs))
    }

    @Test func stderrGoesToAFileAsCurls() throws {
        let directory = try TemporaryDirectory()
        let run = try oracle.ours(["-sS", "--stderr", directory.path + "/err", "http://127.0.0.1:1/"])
        let curls = try oracle.theirs(["-sS", "--stderr", directory.path + "/curl", "http://127.0.0.1:1/"])
        #expect(run.status == 7 && run.stderr.isEmpty)
        #expect(curls.status == 7 && curls.stderr.isEmpty)
        let ours = try String(contentsOfFile: directory.path + "/err", encoding: .utf8)
        let theirs = try String(contentsOfFile: directory.path + "/curl", encoding: .utf8)
        #expect(ours.hasPrefix("ipcurl: (7)"))
        // The same line but for libcurl's elapsed time (`after N ms`), which is no behaviour of either program.
        #expect(CurlOracle.withoutElapsedTime(String(ours.dropFirst("ipcurl".count)))
                == CurlOracle.withoutElapsedTime(String(theirs.dropFirst("curl".count))), "\(ours) against \(theirs)")
        // `--stderr -` is stdout, as in curl.
        let dash = try oracle.ours(["-sS", "--stderr", "-", "http://127.0.0.1:1/"])
        #expect(dash.status == 7 && dash.stderr.isEmpty && dash.stdout.hasPrefix("ipcurl: (7)"), "\(dash.stdout)\(dash.stderr)")
    }
}
