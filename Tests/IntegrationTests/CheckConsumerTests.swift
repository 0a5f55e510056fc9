import Foundation
import Testing

/// The reports of `ipcurl check` read by their real consumers: Jenkins' JUnit schema and junitparser, Perl's
/// TAP::Parser, promtool and prometheus_client's strict OpenMetrics parser, a Pushgateway, and the real
/// blackbox_exporter probing the same target.
@Suite struct CheckConsumerTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    /// A report of the lab's mixed.test (one healthy address, one serving the wrong certificate) in `format`.
    func mixedReport(_ format: String, _ extra: [String] = []) throws -> Run {
        let result = try ipcurl(["check"] + lab.resolverArguments + ["--all-ips", "-4", "--format", format,
                                 "--label", "vantage=lab \"one\"\\x"] + extra + [lab.https("mixed.test")])
        #expect(result.status == 1, "\(result.stderr)")
        return result
    }


    @Test func junitValidatesAgainstJenkinsSchemaAndJunitparserReadsOneFailure() throws {
        let report = try mixedReport("junit")
        #expect(report.stdout.components(separatedBy: "<testcase ").count - 1 == 2)
        #expect(report.stdout.components(separatedBy: "<failure ").count - 1 == 1)
        try #require(FileManager.default.fileExists(atPath: ReportConsumers.junitSchema), "junit-10.xsd missing: run 'make setup'")
        let validated = try ReportConsumers.validateJUnit(report.stdout)
        #expect(validated.stdout == "valid\n", "\(validated.stderr)")
        let parsed = try ReportConsumers.python("""
            import sys, junitparser
            xml = junitparser.JUnitXml.fromstring(sys.stdin.read())
            suites = [xml] if isinstance(xml, junitparser.TestSuite) else list(xml)
            cases = [c for s in suites for c in s]
            print(len(cases), sum(1 for c in cases if not c.is_passed), [c.classname for c in cases][0] != '')
            """, report.stdout)
        #expect(parsed.stdout == "2 1 True\n", "\(parsed.stderr)")
    }

    @Test func textHasOneFailingRowAndOnePassingRow() throws {
        let report = try mixedReport("text")
        let rows = report.stdout.split(separator: "\n")
        #expect(rows.filter { $0.hasPrefix("FAIL") }.count == 1, "\(report.stdout)")
        #expect(rows.filter { $0.hasPrefix("PASS") }.count == 1, "\(report.stdout)")
        #expect(rows.contains { $0.hasPrefix("FAIL") && $0.contains("127.0.0.3") && $0.contains("exit 60") }, "\(report.stdout)")
        #expect(!report.stdout.contains("\u{1B}"), "no colour off a terminal")
        #expect(rows.contains { $0.hasPrefix("2 probes, 1 passed, 1 failed in ") }, "\(report.stdout)")
    }

    @Test func jsonHasOneFailingRecordAndTheLabelsOnEveryRecord() throws {
        let report = try mixedReport("json")
        let parsed = try ReportConsumers.python("""
            import sys, json
            doc = json.load(sys.stdin)
            print(sorted((p['address'], p['passed']) for p in doc['probes']))
            print(all(p['labels'] == doc['labels'] for p in doc['probes']), doc['labels'])
            """, report.stdout)
        #expect(parsed.stdout == "[('127.0.0.2', True), ('127.0.0.3', False)]\nTrue {'vantage': 'lab \"one\"\\\\x'}\n",
                "\(parsed.stdout)\(parsed.stderr)")
    }

    @Test func tapIsReadByPerlsTAPParserWithoutParseErrors() throws {
        let report = try mixedReport("tap")
        let script = """
            use TAP::Parser; local $/; my $tap = <STDIN>;
            my $p = TAP::Parser->new({ tap => $tap }); my $yaml = 0;
            while (my $r = $p->next) { $yaml++ if $r->is_yaml }
            print scalar($p->parse_errors), " ", scalar($p->failed), " ", $p->tests_run, " ", $yaml, " ", $p->version, "\\n";
            print join("\\n", $p->parse_errors);
            """
        let parsed = try ReportConsumers.perl(script, report.stdout)
        #expect(parsed.stdout.hasPrefix("0 1 2 2 13\n"), "\(parsed.stdout)\(parsed.stderr)\n\(report.stdout)")
    }

    @Test func openMetricsPassesPromtoolAndTheStrictParser() throws {
        let report = try mixedReport("openmetrics")
        let promtool = try ReportConsumers.promtool(report.stdout)
        #expect(promtool.status == 0, "\(promtool.stdout)\(promtool.stderr)")
        let parsed = try ReportConsumers.python("""
            import sys
            from prometheus_client.openmetrics.parser import text_string_to_metric_families
            samples = [s for f in text_string_to_metric_families(sys.stdin.read()) for s in f.samples]
            print(sorted((s.labels['ip'], float(s.value)) for s in samples if s.name == 'probe_success'))
            """, report.stdout)
        #expect(parsed.stdout == "[('127.0.0.2', 1.0), ('127.0.0.3', 0.0)]\n", "\(parsed.stderr)")
    }

    /// A target name and a label holding a carriage return, terminal sequences, a C1 control and a `#`: TAP keeps
    /// each test line one line that starts no directive, OpenMetrics writes the controls as visible `\xNN` text,
    /// and the real consumers read both without an error.
    @Test func controlCharactersInNamesAndLabelsReachNoConsumerRaw() throws {
        let scratch = try TemporaryDirectory()
        let targets = scratch.path + "/targets.yaml"
        try """
            targets:
              - name: "mixed\\r\\e[2J # SKIP \\x9b\\u0085x"
                url: \(lab.https("mixed.test"))
            """.write(toFile: targets, atomically: true, encoding: .utf8)
        let label = ["--label", "ctl=cr\r esc\u{1B}]0;T\u{07} c1\u{9B}"]
        let tap = try mixedReport("tap", ["--targets", targets] + label)
        let raw = { (text: String) in text.unicodeScalars.contains { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) } }
        #expect(!raw(tap.stdout), "\(tap.stdout.debugDescription)")
        #expect(tap.stdout.contains(##" - mixed\\x0d\\x1b[2J \# SKIP \\xc2\\x9b\\xc2\\x85x [127.0.0.3] https://mixed.test:"##), "\(tap.stdout)")
        let script = """
            use TAP::Parser; local $/; my $p = TAP::Parser->new({ tap => <STDIN> });
            while (my $r = $p->next) { print $r->description, "|", $r->directive, "\\n" if $r->is_test }
            print scalar($p->parse_errors), " ", scalar($p->skipped), "\\n";
            """
        let parsed = try ReportConsumers.perl(script, tap.stdout)
        let lines = parsed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5 && lines.last == "0 0", "no parse error, nothing skipped: \(parsed.stdout)\(parsed.stderr)")
        #expect(lines.filter { $0.hasPrefix(##"- mixed\\x0d\\x1b[2J \# SKIP"##) && $0.hasSuffix("|") }.count == 2, "\(lines)")

        let metrics = try mixedReport("openmetrics", ["--targets", targets] + label)
        #expect(!raw(metrics.stdout), "\(metrics.stdout.debugDescription)")
        let promtool = try ReportConsumers.promtool(metrics.stdout)
        #expect(promtool.status == 0, "\(promtool.stdout)\(promtool.stderr)")
        let read = try ReportConsumers.python("""
            import sys, json
            from prometheus_client.openmetrics.parser import text_string_to_metric_families
            samples = [s for f in text_string_to_metric_families(sys.stdin.read()) for s in f.samples if s.name == 'probe_success']
            print(json.dumps(sorted({(s.labels['name'], s.labels['ctl']) for s in samples})))
            """, metrics.stdout)
        let shownLabel = #""cr\\x0d esc\\x1b]0;T\\x07 c1\\xc2\\x9b""#
        #expect(read.stdout == #"[[""# + lab.https("mixed.test") + #"", "# + shownLabel
                + #"], ["mixed\\x0d\\x1b[2J # SKIP \\xc2\\x9b\\xc2\\x85x", "# + shownLabel + "]]\n", "\(read.stdout)\(read.stderr)")
    }

    @Test func aPushgatewayTakesTheReportAndServesItBack() throws {
        let report = try mixedReport("openmetrics")
        let gateway = try lab.value("LAB_PUSHGATEWAY_URL")
        let job = "ipcurl_check_\(UInt32.random(in: 0...UInt32.max))"
        let pushed = try run("/usr/bin/curl", ["-sS", "--noproxy", "*", "-f", "--data-binary", "@-",
                                               "\(gateway)/metrics/job/\(job)/instance/lab"], stdin: Data(report.stdout.utf8))
        #expect(pushed.status == 0, "\(pushed.stdout)\(pushed.stderr)")
        let served = try run("/usr/bin/curl", ["-sS", "--noproxy", "*", "\(gateway)/metrics"])
        let lines = served.stdout.split(separator: "\n").filter { $0.hasPrefix("probe_success{") && $0.contains("job=\"\(job)\"") }
        #expect(lines.count == 2, "\(served.stdout.prefix(2000))")
        #expect(lines.contains { $0.contains("ip=\"127.0.0.3\"") && $0.hasSuffix(" 0") })
        #expect(lines.allSatisfy { $0.contains("vantage=\"lab \\\"one\\\"\\\\x\"") }, "\(lines)")
        _ = try run("/usr/bin/curl", ["-sS", "--noproxy", "*", "-X", "DELETE", "\(gateway)/metrics/job/\(job)/instance/lab"])
    }

    /// The same target through the real blackbox_exporter (system DNS: localhost from /etc/hosts) and through
    /// `ipcurl check` (the lab DoH server, which answers localhost too): the shared metrics agree.
    @Test func blackboxExporterAndCheckAgreeOnTheSameTarget() throws {
        let target = "https://localhost:\(lab.httpsPort)/"
        let exporter = try lab.value("LAB_BLACKBOX_URL")
        let probe = try run("/usr/bin/curl", ["-sS", "--noproxy", "*", "\(exporter)/probe?module=https_lab&target=\(target)"])
        let ours = try ipcurl(["check"] + lab.resolverArguments + ["-4", "--format", "openmetrics", target])
        #expect(ours.status == 0, "\(ours.stdout)\(ours.stderr)")
        func value(_ name: String, in text: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") || $0.hasPrefix(name + "{") }
                .flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
        }
        for name in ["probe_success", "probe_http_status_code", "probe_http_ssl", "probe_ssl_earliest_cert_expiry"] {
            let theirs = value(name, in: probe.stdout), mine = value(name, in: ours.stdout)
            #expect(theirs != nil && theirs == mine, "\(name): blackbox_exporter \(String(describing: theirs)), ipcurl \(String(describing: mine))")
        }
    }
}
