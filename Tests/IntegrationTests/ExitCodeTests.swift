import Foundation
import Testing

/// Every failure ends with curl's exit code and a one-line message, and nothing on stdout.
@Suite struct ExitCodeTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    private func expectFailure(_ arguments: [String], exits code: Int32, mentioning text: String,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try ipcurl(arguments)
        #expect(result.status == code, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdoutBytes.isEmpty, sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(text), "\(result.stderr)", sourceLocation: sourceLocation)
    }

    @Test func usageErrorsExit2OnOneLine() throws {
        try expectFailure(["--no-such-flag", "https://a.test/"], exits: 2, mentioning: "--no-such-flag")
        try expectFailure([], exits: 2, mentioning: "url")
        try expectFailure(["--doh", "http://127.0.0.1/dns-query", "https://a.test/"], exits: 2, mentioning: "not an https:// URL")
        try expectFailure(["--max-time", "-1", "https://a.test/"], exits: 2, mentioning: "max-time")
        try expectFailure(["resolve", "--port", "0", "a.test"], exits: 2, mentioning: "--port")
        try expectFailure(["resolve", "127.0.0.1"], exits: 2, mentioning: "not a host name")
    }

    /// A usage error reads `ipcurl: message`, without the exit code, as curl prints its option errors (`curl: option
    /// --max-time: expected a proper numerical parameter`), whichever subcommand refuses it: fetch, `resolve`,
    /// `check` and `cache` tell the same refusal in the same words.
    @Test func aUsageErrorReadsAlikeFromEverySubcommand() throws {
        let curls = try run("/usr/bin/curl", ["--max-time", "soon", "http://127.0.0.1:1/"], environment: CurlOracle.environment())
        #expect(curls.status == 2 && curls.stderr.hasPrefix("curl: option --max-time: expected"), "curl's form: \(curls.stderr)")
        let workingDirectory = try TemporaryDirectory()
        let refusals: [(arguments: [String], environment: [String: String], message: String)] = [
            (["--doh", lab.dohURL, "--doh-json", "https://127.0.0.1:1/resolve"], [:],
             "choose one resolver: --doh and --doh-json were both given"),
            (["--doh-json", "http://user:pw@127.0.0.1:1/resolve"], [:],
             "--doh-json 'http://***@127.0.0.1:1/resolve': the URL's user info is sent over https only; use an https:// server"),
            (lab.resolverArguments, ["IPCURL_CACHE_DIR": "cache"],
             "IPCURL_CACHE_DIR (cache) is not an absolute path: a relative cache directory would change with the working directory"),
        ]
        for (arguments, environment, message) in refusals {
            var runs = [
                ("fetch", try ipcurl(arguments + ["--no-fallback", lab.https("a.test")], environment: environment, directory: workingDirectory.path)),
                ("resolve", try ipcurl(["resolve"] + arguments + ["--no-fallback", "a.test"], environment: environment, directory: workingDirectory.path)),
                ("check", try ipcurl(["check"] + arguments + ["--no-fallback", lab.https("a.test")], environment: environment,
                                     directory: workingDirectory.path)),
            ]
            if environment["IPCURL_CACHE_DIR"] != nil {
                runs.append(("cache", try ipcurl(["cache", "list"], environment: environment, directory: workingDirectory.path)))
            }
            for (subcommand, result) in runs {
                #expect(result.status == 2 && result.stdout.isEmpty && result.stderr == "ipcurl: \(message)\n", "\(subcommand): \(result.stderr)")
            }
        }
    }

    @Test(arguments: [
        "a.test:443:127.0.0.2,evil.test", "a.test:443:127.0.0.2\nb.test:443:127.0.0.3", "a.test:443:1.2.3.4:5",
        "a.test:443: 127.0.0.2", "a.test:99999:127.0.0.2", "a,b.test:443:127.0.0.2", "a.test:443:",
    ])
    func resolveEntriesThatCouldInjectAreRejected(entry: String) throws {
        // curl passes --resolve to libcurl, which refuses a malformed entry with exit 49; so does ipcurl.
        try expectFailure(["--resolve", entry, "https://a.test/"], exits: 49, mentioning: "Couldn't parse CURLOPT_RESOLVE entry")
    }

    @Test func versionNamesIpcurlAndLibcurl() throws {
        for arguments in [["--version"], ["-V"], ["-s", "--version", "https://a.test/"], ["resolve", "--version"]] {
            let result = try ipcurl(arguments)
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("ipcurl ") && result.stdout.contains("libcurl/7."), "\(arguments)")
        }
        #expect(try ipcurl(["--", "--version"]).status != 0)  // after "--" it is a URL, not the flag
    }

    @Test func unsupportedSchemeExits1() throws {
        try expectFailure(["ftp://a.test/"], exits: 1, mentioning: "ftp")
    }

    @Test func malformedURLExits3() throws {
        try expectFailure(["http://[::1/"], exits: 3, mentioning: "URL")
    }

    @Test func unknownNameExits6WithTheDNSReason() throws {
        try expectFailure(lab.resolverArguments + [lab.https("nosuch.test")], exits: 6, mentioning: "NXDOMAIN")
    }

    /// A server that answers `response` and closes: ipcurl's exit code, stderr and stdout, beside curl's exit code.
    private func againstCurl(_ response: String) throws -> (ours: Run, curls: Int32) {
        let server = try ScriptedResponder(response: Array(response.utf8))
        let curl = try run("/usr/bin/curl", ["-s", "-o", "/dev/null", server.url("/x")])
        return (try ipcurl(["-sS", "-o", "/dev/null", server.url("/x")]), curl.status)
    }

    @Test func aConnectionClosedWithoutAResponseExits52AsCurl() throws {
        let result = try againstCurl("")
        #expect(result.ours.status == 52 && result.curls == 52, "\(result.ours.stderr) curl: \(result.curls)")
        #expect(result.ours.stderr.hasPrefix("ipcurl: (52) Empty reply from server"), "\(result.ours.stderr)")
    }

    @Test func aBodyShorterThanItsLengthExits18AsCurl() throws {
        let result = try againstCurl("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort")
        #expect(result.ours.status == 18 && result.curls == 18, "\(result.ours.stderr) curl: \(result.curls)")
        #expect(result.ours.stderr.hasPrefix("ipcurl: (18) "), "\(result.ours.stderr)")
    }

    @Test func refusedConnectionExits7() throws {
        try expectFailure(["--cacert", lab.ca, "--resolve", "a.test:\(lab.httpsPort):127.0.0.9", lab.https("a.test")],
                          exits: 7, mentioning: "Failed to connect to a.test")
    }

    @Test func silentServerExits28AfterMaxTime() throws {
        let listener = try SilentListener()
        let started = Date()
        try expectFailure(["--cacert", lab.ca, "--max-time", "1", "--resolve", "a.test:\(listener.port):127.0.0.4",
                           "https://a.test:\(listener.port)/"], exits: 28, mentioning: "timed out")
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func hangingDoHServerCountsAgainstMaxTime() throws {
        let listener = try SilentListener()
        try expectFailure(["--cacert", lab.ca, "--max-time", "1", "--doh", "https://127.0.0.4:\(listener.port)/dns-query",
                           lab.https("a.test")], exits: 28, mentioning: "resolving a.test")
    }

    @Test func tlsToAPlainHTTPPortExits35() throws {
        try expectFailure(["--cacert", lab.ca, "--resolve", "a.test:\(lab.httpPort):\(lab.ip)",
                           "https://a.test:\(lab.httpPort)/"], exits: 35, mentioning: "(35)")
    }

    @Test func unreadableCAFileExits77() throws {
        try expectFailure(["--cacert", "/nonexistent/ca.pem", "--doh", lab.dohURL, lab.https("a.test")],
                          exits: 77, mentioning: "/nonexistent/ca.pem")
    }

    @Test func silentSuppressesTheMessageButNotTheCode() throws {
        let quiet = try ipcurl(["-s"] + lab.resolverArguments + [lab.https("nocert.test")])
        #expect(quiet.status == 60 && quiet.stderr.isEmpty)
        let shown = try ipcurl(["-sS"] + lab.resolverArguments + [lab.https("nocert.test")])
        #expect(shown.status == 60 && shown.stderr.hasPrefix("ipcurl: (60)"))
    }

    @Test func writeOutReportsExitCodeOnFailure() throws {
        let result = try ipcurl(["-s", "-w", "%{exitcode} %{http_code}"] + lab.resolverArguments + [lab.https("nocert.test")])
        #expect(result.status == 60)
        #expect(result.stdout == "60 000")
    }
}
