import Foundation
import Testing

/// `ipcurl check` against the lab: probes per address, expectations, targets files, parallelism and the
/// system-resolver comparison.
@Suite struct CheckTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    /// The JSON report's probes.
    func probes(_ result: Run) throws -> [[String: Any]] {
        try #require(try jsonReport(result)["probes"] as? [[String: Any]])
    }

    @Test func everyAddressIsProbedAndOnlyTheWrongCertificateFails() throws {
        let result = try check(["--all-ips", "--format", "json", lab.https("mixed.test")])
        #expect(result.status == 1, "\(result.stderr)")
        let found = try probes(result)
        #expect(found.count == 2)
        let failed = found.filter { $0["passed"] as? Bool == false }
        #expect(failed.count == 1)
        #expect(failed.first?["address"] as? String == lab.wrongIP)
        let reason = failed.first?["reason"] as? String ?? ""
        #expect(reason.hasPrefix("exit 60"), "\(failed)")
        let passed = try #require(found.first { $0["passed"] as? Bool == true })
        #expect(passed["address"] as? String == lab.ip)
        #expect(passed["connected_ip"] as? String == lab.ip, "the probe reached the address it pinned")
        #expect(passed["status"] as? Int == 200)
        #expect(["1.2", "1.3"].contains(passed["tls_version"] as? String ?? ""), "\(passed)")
    }

    @Test func eachAddressOfBothFamiliesGetsItsOwnFreshConnection() throws {
        let name = "probe-\(UInt32.random(in: 0...UInt32.max)).any.test"
        let result = try ipcurl(["check"] + aliyun + ["--all-ips", "--format", "json", lab.https(name)])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let found = try probes(result)
        #expect(found.compactMap { $0["address"] as? String }.sorted() == ["127.0.0.2", "::1"])
        for probe in found { #expect(probe["connected_ip"] as? String == probe["address"] as? String) }
        #expect(Set(found.compactMap { $0["family"] as? String }) == ["ipv4", "ipv6"])
        #expect(found.allSatisfy { $0["answer_source"] as? String == "aliyun" })
    }

    @Test func oneAtATimeEveryProbeStillOpensItsOwnConnection() throws {
        // With one probe at a time, a kept connection would be reused by the next probe of the same name and port
        // (libcurl matches connections by name, not address): every probe then reports the first address.
        let name = "fresh-\(UInt32.random(in: 0...UInt32.max)).any.test"
        let urls = (1...3).map { lab.https(name, "/f\($0)") }
        let result = try ipcurl(["check"] + aliyun + ["--parallel", "1", "--all-ips", "--format", "json"] + urls)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let found = try probes(result)
        #expect(found.count == 6)
        for probe in found { #expect(probe["connected_ip"] as? String == probe["address"] as? String, "\(probe)") }
    }

    @Test(arguments: [("-4", "ipv4", "127.0.0.2"), ("-6", "ipv6", "::1")])
    func oneFamilyProbesOnlyThatFamilysAddresses(flag: String, family: String, address: String) throws {
        let name = "family-\(UInt32.random(in: 0...UInt32.max)).any.test"
        let result = try ipcurl(["check"] + aliyun + [flag, "--all-ips", "--format", "json", lab.https(name)])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let found = try probes(result)
        #expect(found.compactMap { $0["address"] as? String } == [address])
        #expect(found.compactMap { $0["family"] as? String } == [family])
    }

    @Test func probesOfOneNameShareOneHTTPDNSAnswer() throws {
        let name = "shared-\(UInt32.random(in: 0...UInt32.max)).any.test"
        let urls = (1...5).map { lab.https(name, "/p\($0)") }
        let result = try ipcurl(["check"] + aliyun + ["--all-ips", "--format", "json"] + urls)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try probes(result).count == 10)
        #expect(try FixtureStats.read(lab).byName[name] == 1, "one HTTPDNS query for five URLs of one name")
    }

    @Test func aFailingExpectationNamesItselfAndExits1() throws {
        let result = try check(["--expect-status", "204", "--min-cert-days", "36500", lab.https("a.test")])
        #expect(result.status == 1)
        #expect(result.stdout.contains("status: expected 204, got 200"), "\(result.stdout)")
        #expect(result.stdout.contains("min_cert_days: expected at least 36500 days"), "\(result.stdout)")
        let passing = try check(["--expect-status", "2xx", "--min-cert-days", "1", lab.https("a.test")])
        #expect(passing.status == 0, "\(passing.stdout)\(passing.stderr)")
    }

    @Test func anUnresolvableNameFailsItsProbeWithCurlsExitCode() throws {
        let result = try check(["--no-fallback", "--format", "json", lab.https("nothing-here.test"), lab.https("a.test")])
        #expect(result.status == 1)
        let found = try probes(result)
        #expect(found.count == 2)
        #expect((found[0]["reason"] as? String ?? "").hasPrefix("exit 6"), "\(found[0])")
        #expect(found[1]["passed"] as? Bool == true)
    }

    @Test func usageErrorsExit2WithOneLine() throws {
        for arguments in [[], ["--expect-status", "20x", lab.https("a.test")], ["--label", "ip=1", lab.https("a.test")],
                          ["--label", "novalue", lab.https("a.test")], ["--format", "xml", lab.https("a.test")],
                          ["--parallel", "0", lab.https("a.test")]] {
            let result = try check(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
    }

    @Test func outputIsWrittenToAFileAndStdoutStaysEmpty() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/report.prom"
        let result = try check(["--format", "openmetrics", "-o", path, lab.https("a.test")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("# EOF\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["report.prom"], "no temp file left")
    }

    @Test func twoDozenOneSecondProbesRunInParallel() throws {
        let urls = (1...24).map { lab.https("a.test", "/api/delay?ms=1000&n=\($0)") }
        let began = Date()
        let result = try check(["--parallel", "24", "--format", "json"] + urls)
        let elapsed = Date().timeIntervalSince(began)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try probes(result).count == 24)
        // One after another they take 24 s; at once, one second plus start-up (a generous bound for a loaded CI).
        #expect(elapsed < 6, "24 one-second probes took \(elapsed) s: they did not all run at once")
    }

    @Test func theDefaultParallelismRunsSixteenProbesAtOnce() throws {
        // The echo backend answers 200 only when all sixteen wait at its barrier together (504 after 5 s alone).
        let key = "check-\(UInt32.random(in: 0...UInt32.max))"
        let urls = (1...16).map { lab.https("a.test", "/api/together?key=\(key)&n=16&i=\($0)") }
        let result = try check(["--format", "json"] + urls)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try probes(result).compactMap { $0["status"] as? Int } == Array(repeating: 200, count: 16))
    }
}

extension CheckTests {
    /// Where the system resolver answers a.test with 127.0.0.3 (a hosts file in a private mount namespace) and
    /// HTTPDNS answers 127.0.0.2 and ::1, `--compare-system` reports both and flags the name.
    @Test(.enabled(if: getuid() == 0, "needs root for a private mount namespace"))
    func compareSystemReportsBothAnswersWhereTheyDiffer() throws {
        let base = [ipcurlBinary(), "check"] + lab.resolverArguments + ["--compare-system", lab.https("a.test"), lab.https("b.test")]
        let json = try inHijackedNamespace(base + ["--format", "json"], extraHosts: "127.0.0.2 b.test\n")
        #expect(json.status == 0, "\(json.stdout)\(json.stderr)")
        let object = try #require(JSONSerialization.jsonObject(with: json.stdoutBytes) as? [String: Any])
        let names = try #require(object["names"] as? [[String: Any]], "\(json.stdout)")
        let a = try #require(names.first { $0["host"] as? String == "a.test" })
        #expect(a["httpdns"] as? [String] == ["127.0.0.2", "::1"])
        #expect(a["system"] as? [String] == ["127.0.0.3"])
        #expect(a["differs"] as? Bool == true)
        let b = try #require(names.first { $0["host"] as? String == "b.test" })
        #expect(b["differs"] as? Bool == false, "\(b)")
        let metrics = try inHijackedNamespace(base + ["--format", "openmetrics"], extraHosts: "127.0.0.2 b.test\n")
        let mismatch = metrics.stdout.split(separator: "\n").filter { $0.hasPrefix("ipcurl_system_dns_mismatch{") }
        #expect(mismatch.contains { $0.contains("a.test") && $0.hasSuffix(" 1") }, "\(metrics.stdout)")
        #expect(mismatch.contains { $0.contains("b.test") && $0.hasSuffix(" 0") }, "\(metrics.stdout)")
    }
}

extension CheckTests {
    func targetsFile(_ text: String) throws -> (TemporaryDirectory, String) {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/targets.yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (scratch, path)
    }

    @Test func aTargetsFileSetsDefaultsResolverLabelsAndExpectationsPerTarget() throws {
        let (scratch, path) = try targetsFile("""
            defaults: { all_ips: true, expect: { status: 200, min_cert_days: 1 } }
            resolver: { doh: "\(lab.dohURL)", ipv4: true }
            labels: { vantage: ci-lab }
            targets:
              - name: api
                url: \(lab.https("a.test", "/api/echo"))
                method: POST
                body: hello
                headers: { X-Probe: ci }
                expect: { status: [200, 204], body_matches: '"method": ?"POST"', body_contains: x-probe, max_time_ms: 5000 }
              - name: mixed
                url: \(lab.https("mixed.test"))
                expect: { tls_min: "1.2", http_version: "2" }
            """)
        defer { _ = scratch }
        // The CA is the command line's: a targets file may not change what is trusted.
        let result = try ipcurl(["check", "--cacert", lab.ca, "--targets", path, "--format", "json"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let object = try #require(JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
        #expect((object["labels"] as? [String: String])?["vantage"] == "ci-lab")
        let found = try probes(result)
        #expect(found.map { $0["name"] as? String ?? "" } == ["api", "mixed", "mixed"])
        #expect(found[0]["passed"] as? Bool == true, "\(found[0])")
        #expect(found.filter { $0["passed"] as? Bool == false }.count == 1)
    }

    @Test func aMalformedTargetsFileExits2NamingItsLine() throws {
        let (scratch, path) = try targetsFile("""
            targets:
              - url: \(lab.https("a.test"))
                expect: { status: 200, timeout: 5 }
            """)
        defer { _ = scratch }
        let result = try check(["--targets", path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("ipcurl: \(path):3:"), "\(result.stderr)")
        #expect(result.stderr.contains("timeout"))
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        let missing = try check(["--targets", path + ".absent"])
        #expect(missing.status == 2, "\(missing.stderr)")
    }
}

extension CheckTests {
    @Test func credentialsInAURLNeverReachAReport() throws {
        for format in ["text", "json", "junit", "tap", "openmetrics"] {
            let result = try check(["--format", format, "https://probe:s3cret-pw@a.test:\(lab.httpsPort)/"])
            #expect(result.status == 0, "\(format): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("a.test"))
            #expect(!result.stdout.contains("s3cret-pw") && !result.stderr.contains("s3cret-pw"), "\(format)")
        }
    }
}

/// Found by red-teaming `check`: each test failed before its fix.
extension CheckTests {
    @Test func targetsFileErrorsQuotingTheFileStayOneLineWithoutEscapes() throws {
        let (scratch, path) = try targetsFile("""
            targets:
              - url: \(lab.https("a.test"))
                "bad\\nkey\\e[31m": 1
              - url: \(lab.https("a.test"))
                name: "dup\\nname"
              - url: \(lab.https("b.test"))
                name: "dup\\nname"
            """)
        defer { _ = scratch }
        let result = try check(["--targets", path])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"), "\(result.stderr)")
        #expect(result.stderr.contains(":3:5: unknown key"), "\(result.stderr)")
    }

    @Test func credentialsInAURLThatCannotBeProbedNeverReachAReportNorAnError() throws {
        // In a targets file, a URL libcurl rejects fails its probe; on the command line it is a usage error.
        let (scratch, path) = try targetsFile("""
            targets:
              - url: "https://probe:s3cret-pw@a.test:99999/"
              - url: \(lab.https("a.test"))
            """)
        defer { _ = scratch }
        for format in ["text", "json", "junit", "tap", "openmetrics"] {
            let result = try check(["--no-fallback", "--format", format, "--targets", path])
            #expect(result.status == 1, "\(format): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("a.test"), "\(format): \(result.stdout)")
            #expect(!result.stdout.contains("s3cret-pw") && !result.stderr.contains("s3cret-pw"), "\(format): \(result.stdout)")
        }
        for url in ["ftp://probe:s3cret-pw@a.test:\(lab.httpsPort)/", "https://probe:s3cret-pw@a test/"] {
            let result = try check([url])
            #expect(result.status == 2 && result.stdout.isEmpty, "\(url): \(result.stderr)")
            #expect(!result.stderr.contains("s3cret-pw"), "\(result.stderr)")
        }
    }

    @Test func aProbeConnectsToItsAddressWhateverProxyTheEnvironmentNames() throws {
        let proxy = "http://127.0.0.1:9"  // discard: nothing listens
        let environment = ["https_proxy": proxy, "HTTPS_PROXY": proxy, "http_proxy": proxy, "ALL_PROXY": proxy,
                           "NO_PROXY": "127.0.0.1"]  // the DoH server, reached directly: only the probes would use the proxy
        let result = try check(["--format", "json", lab.https("a.test"), "http://b.test:\(lab.httpPort)/"], environment: environment)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try probes(result).allSatisfy { $0["connected_ip"] as? String == lab.ip })
    }

    @Test func aTargetWithABodyIsSentWithTheMethodItReports() throws {
        let (scratch, path) = try targetsFile("""
            targets:
              - url: \(lab.https("a.test", "/api/echo"))
                body: hello
                expect: { body_contains: ['"method":"GET"', '"body_length":5'] }
            """)
        defer { _ = scratch }
        let result = try check(["--targets", path, "--format", "json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try probes(result).first?["method"] as? String == "GET")
    }

    @Test func resolverAndTrustErrorsAreUsageErrors() throws {
        let (scratch, path) = try targetsFile("""
            resolver: { resolve: "a.test:1:notip" }
            targets: [ { url: "\(lab.https("a.test"))" } ]
            """)
        defer { _ = scratch }
        for arguments in [["--resolve", "bad", lab.https("a.test")], ["--cacert", "/nonexistent/ca.pem", lab.https("a.test")],
                          ["--targets", path]] {
            let result = try check(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        // A resolver setting refused when the resolver is made (credentials over http, port 0) stops check before
        // any probe, as it stops a fetch: exit 2 and one line, no report.
        let resolverRuns = [
            try ipcurl(["check", "--doh-json", "http://user:pw@127.0.0.1:1/resolve", lab.https("a.test")]),
            try ipcurl(["check", "--doh", "https://127.0.0.1:0/dns-query", lab.https("a.test")]),
            try ipcurl(["check", lab.https("a.test")], environment: ["IPCURL_DNS": "doh-json:http://127.0.0.1:1/resolve?token=t"]),
        ]
        for result in resolverRuns {
            #expect(result.status == 2 && result.stdout.isEmpty, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1 && !result.stderr.contains("exit 2"), "\(result.stderr)")
        }
    }

    @Test func aURLThatCannotBeProbedIsNotResolved() throws {
        let name = "unprobed-\(UInt32.random(in: 0...UInt32.max)).any.test"
        let result = try ipcurl(["check"] + aliyun + ["--no-fallback", "ftp://\(name)/", lab.https("a.test")])
        #expect(result.status == 2, "a URL check cannot probe is a usage error: \(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.contains("ftp"), "\(result.stderr)")
        #expect(try FixtureStats.read(lab).byName[name] == nil, "no HTTPDNS query for URLs that are never probed")
    }
}

extension CheckTests {
    /// A pattern that backtracks exponentially on 40 x's would search for longer than the universe is old: the
    /// probe's time limit bounds it.
    @Test func aBacktrackingBodyPatternIsBoundedByTheProbesTimeLimit() throws {
        let (scratch, path) = try targetsFile("""
            targets:
              - url: \(lab.https("a.test", "/api/drip?bytes=40&chunk=40&ms=0"))
                expect: { body_matches: "^(x+x+)+y" }
            """)
        defer { _ = scratch }
        let began = Date()
        let result = try check(["-m", "1", "--format", "json", "--targets", path])
        #expect(Date().timeIntervalSince(began) < 20, "the search was not cut off")
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let failures = try probes(result).first?["failures"] as? [[String: String]]
        #expect(failures?.first?["assertion"] == "body_matches")
        #expect(failures?.first?["actual"]?.hasPrefix("no answer within 1000 ms") == true, "\(String(describing: failures))")
    }

    @Test func maxTimeBoundsEachProbeItsNameResolutionIncluded() throws {
        // An HTTPDNS server that accepts and never answers, a lookup budget of 10 s: -m 1 still ends the probe in
        // about a second, failed with curl's timeout.
        let hanging = try SilentListener()
        let started = Date()
        let result = try ipcurl(["check", "-m", "1", "--dns-timeout", "10", "--no-fallback", "--no-dns-cache",
                                 "--aliyun", "1", "--httpdns-server", "http://127.0.0.4:\(hanging.port)",
                                 "--cacert", lab.ca, "--format", "json", lab.https("a.test")])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(elapsed < 3, "took \(elapsed) s")
        let reason = try probes(result).first?["reason"] as? String ?? ""
        #expect(reason.hasPrefix("exit 28: Operation timed out after 10"), "\(reason)")
        #expect(reason.hasSuffix(" milliseconds while resolving a.test"), "\(reason)")
    }

    /// A name's lookup time in the reports is its own: with a resolver that asks one name at a time (a resolver
    /// command: one process per name), b.test's command sleeps a second and a.test's answers at once, so only
    /// b.test's probe reports the second, and the HTML report calls each one's lookup its own ("per name").
    @Test func eachNameReportsItsOwnLookupTime() throws {
        let scratch = try TemporaryDirectory()
        let script = scratch.path + "/resolver.sh"
        try "#!/bin/sh\n[ \"$1\" = b.test ] && sleep 1\necho \"$1:$2:127.0.0.2\"\n".write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        let urls = [lab.https("b.test"), lab.https("a.test")]
        let result = try ipcurl(["check", "--resolver-cmd", script, "--cacert", lab.ca, "--format", "json"] + urls)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        var lookup: [String: Double] = [:]
        for probe in try probes(result) {
            lookup[probe["url"] as? String ?? "?"] = (probe["timings"] as? [String: Any])?["resolve_seconds"] as? Double
        }
        let slow = try #require(lookup[urls[0]]), fast = try #require(lookup[urls[1]])
        #expect(slow >= 1, "b.test's own lookup took the second: \(lookup)")
        #expect(fast < 1, "a.test's lookup does not include b.test's: \(lookup)")
        let page = scratch.path + "/report.html"
        let html = try ipcurl(["check", "--resolver-cmd", script, "--cacert", lab.ca, "--format", "html", "-o", page] + urls)
        #expect(html.status == 0, "\(html.stderr)")
        let text = try String(contentsOfFile: page, encoding: .utf8)
        #expect(text.components(separatedBy: ">dns (per name)</text>").count == 3 && !text.contains("batch"), "\(text)")
    }
}
