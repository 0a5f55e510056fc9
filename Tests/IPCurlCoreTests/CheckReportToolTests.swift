import Foundation
import Testing
@testable import IPCurlCore

/// Every format fed to the program that reads it in production: promtool and prometheus_client's strict OpenMetrics
/// parser, xmlschema with Jenkins' junit-10.xsd (path in `IPCURL_JUNIT_XSD`) and junitparser, Perl's TAP::Parser and
/// PyYAML. A test whose tool is not installed is skipped with a message saying so.
@Suite struct CheckReportToolTests {
    static let reports = [CheckReportFixture.report, CheckReportFixture.reportWithRepeats]
    static var schema: String? { ProcessInfo.processInfo.environment["IPCURL_JUNIT_XSD"].flatMap { $0.isEmpty ? nil : $0 } }

    @Test(.enabled(if: Consumer.has("promtool"), "promtool is not installed"), arguments: reports)
    func promtoolAcceptsOpenMetrics(report: CheckReport) throws {
        let result = try Consumer.run("promtool", ["check", "metrics"], input: report.rendered(as: .openmetrics, colour: false))
        #expect(result.status == 0)
        #expect(result.output + result.errors == "")
    }

    @Test(.enabled(if: Consumer.hasPython("prometheus_client"), "python3 prometheus_client is not installed"), arguments: reports)
    func prometheusClientStrictParserAcceptsOpenMetrics(report: CheckReport) throws {
        let script = """
            import sys, json
            from prometheus_client.openmetrics.parser import text_string_to_metric_families as parse
            families = list(parse(sys.stdin.read()))
            print(json.dumps({f.name: [f.type, f.unit, [[s.labels, s.value] for s in f.samples]] for f in families}))
            """
        let result = try Consumer.run("python3", ["-c", script], input: report.rendered(as: .openmetrics, colour: false))
        #expect(result.status == 0, "\(result.errors)")
        let families = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: [Any]])
        #expect(families["probe_http_duration_seconds"]?[1] as? String == "seconds")
        let success = try #require(families["probe_success"]?[2] as? [[Any]])
        #expect(success.count == report.probes.count)
        #expect(success.compactMap { $0[1] as? Double }.filter { $0 == 0 }.count == report.failedCount)
        #expect((success.first?[0] as? [String: String])?["note"] == CheckReportFixture.awkwardShown)
        #expect(families["ipcurl_system_dns_mismatch"]?[2] is [[Any]])
        if report.labels.contains(where: { $0.name == "ctl" }) {
            #expect((success.first?[0] as? [String: String])?["ctl"] == CheckReportFixture.hostileLabelShown)
            #expect((success.last?[0] as? [String: String])?["name"] == #"gone\x0d\x1b[2J # SKIP \xc2\x9bx"#)
        }
    }

    @Test(.enabled(if: schema != nil, "IPCURL_JUNIT_XSD is not set (the path of Jenkins' junit-10.xsd)"),
          .enabled(if: Consumer.hasPython("xmlschema"), "python3 xmlschema is not installed"), arguments: reports)
    func junitValidatesAgainstJenkinsSchema(report: CheckReport) throws {
        let xsd = try #require(Self.schema)
        let file = try write(report.rendered(as: .junit, colour: false))
        defer { remove(file) }
        let script = "import sys, xmlschema; xmlschema.XMLSchema(sys.argv[1]).validate(sys.argv[2])"
        let result = try Consumer.run("python3", ["-c", script, xsd, file])
        #expect(result.status == 0, "\(result.errors)")
    }

    @Test(.enabled(if: Consumer.hasPython("junitparser"), "python3 junitparser is not installed"), arguments: reports)
    func junitparserReadsEveryFailureOnce(report: CheckReport) throws {
        let file = try write(report.rendered(as: .junit, colour: false))
        defer { remove(file) }
        let script = """
            import sys
            from junitparser import JUnitXml
            for suite in JUnitXml.fromfile(sys.argv[1]):
                for case in suite:
                    print(suite.name, case.classname, case.name, ",".join(r.type for r in case.result), sep="|")
            """
        let result = try Consumer.run("python3", ["-c", script, file])
        #expect(result.status == 0, "\(result.errors)")
        let rows = result.output.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == report.probes.count)
        #expect(rows.filter { !$0[3].isEmpty }.count == report.failedCount)
        #expect(rows.contains(["api", "ipcurl.check.api", "[::1]", "status"]))
        #expect(rows.contains(["web <&> \"edge\"", "ipcurl.check.web <&> \"edge\"", "127.0.0.3", "curl_error_7"]))
    }

    @Test(.enabled(if: Consumer.hasPerl("TAP::Parser") && Consumer.hasPerl("JSON::PP"), "perl TAP::Parser is not installed"),
          arguments: reports)
    func tapParserReadsPlanTestsAndYAML(report: CheckReport) throws {
        let script = #"""
            use TAP::Parser; use JSON::PP;
            my $parser = TAP::Parser->new({ tap => do { local $/; <STDIN> } });
            my @tests;
            while (my $result = $parser->next) {
                push @tests, { ok => $result->is_ok ? 1 : 0, number => $result->number, description => $result->description,
                               directive => $result->directive } if $result->is_test;
                $tests[-1]{yaml} = $result->data if $result->is_yaml;
            }
            print JSON::PP->new->ascii->encode({ errors => [$parser->parse_errors], version => $parser->version,
                planned => $parser->tests_planned, failed => [$parser->failed], tests => \@tests });
            """#
        let result = try Consumer.run("perl", ["-e", script], input: report.rendered(as: .tap, colour: false))
        #expect(result.status == 0, "\(result.errors)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(parsed["errors"] as? [String] == [])
        #expect(parsed["version"] as? Int == 13 && parsed["planned"] as? Int == report.probes.count)
        #expect(parsed["failed"] as? [Int] == report.probes.indices.filter { !report.probes[$0].passed }.map { $0 + 1 })
        let tests = try #require(parsed["tests"] as? [[String: Any]])
        let yaml = tests.compactMap { $0["yaml"] as? [String: Any] }
        #expect(yaml.count == report.probes.count)
        #expect((yaml[0]["labels"] as? [String: String])?["note"] == CheckReportFixture.awkward)
        #expect(yaml[1]["got"] as? String == "503" && yaml[2]["certificate"] is NSNull)
        #expect(tests.allSatisfy { $0["directive"] as? String == "" }, "no description starts a directive")
        if report.probes.count > 3 {
            // Perl's parser keeps TAP's escapes (`\\`, `\#`) in the description; the hostile name has no raw control.
            #expect(tests[4]["description"] as? String == ##"- gone\\x0d\\x1b[2J \# SKIP \\xc2\\x9bx https://gone.test/"##)
            #expect((yaml[4]["name"] as? String) == CheckReportFixture.hostileName)
        }
    }

    @Test(.enabled(if: Consumer.hasPython("yaml"), "python3 PyYAML is not installed"))
    func tapDiagnosticsAreStrictYAML() throws {
        let script = """
            import sys, re, yaml, json
            blocks = re.findall(r"^  ---\\n(.*?)^  \\.\\.\\.$", sys.stdin.read(), re.M | re.S)
            print(json.dumps([yaml.safe_load(b) for b in blocks], default=str))
            """
        let result = try Consumer.run("python3", ["-c", script], input: CheckReportFixture.report.rendered(as: .tap, colour: false))
        #expect(result.status == 0, "\(result.errors)")
        let blocks = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        #expect(blocks.count == 3)
        #expect((blocks[1]["labels"] as? [String: String])?["note"] == CheckReportFixture.awkward)
        #expect((blocks[0]["timings_seconds"] as? [String: Double])?["total"] == 0.0069)
    }

    /// `text` in `report.xml` in a fresh directory.
    private func write(_ text: String) throws -> String {
        let file = try CheckReportFixture.temporaryDirectory().appendingPathComponent("report.xml")
        try Data(text.utf8).write(to: file)
        return file.path
    }

    private func remove(_ file: String) { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }
}
