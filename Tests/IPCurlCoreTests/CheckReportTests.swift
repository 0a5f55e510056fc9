import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import IPCurlCore

/// The shape of every report format, checked in Swift (``CheckReportToolTests`` feeds the same output to its real
/// consumers).
@Suite struct CheckReportTests {
    let report = CheckReportFixture.report
    private func count(_ needle: String, _ text: String) -> Int { CheckReportFixture.count(needle, in: text) }

    @Test func textHasTableSummaryAndDifferingNames() {
        let text = report.rendered(as: .text, colour: false)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains { $0.hasPrefix("RESULT  TARGET") && $0.hasSuffix("TOTAL(ms)  CERT-DAYS  REASON") })
        #expect(lines.filter { $0.hasPrefix("PASS  ") }.count == 1)
        #expect(lines.filter { $0.hasPrefix("FAIL  ") }.count == 2)
        #expect(lines.contains { $0.hasPrefix("FAIL") && $0.contains("[::1]") && $0.contains("503") && $0.hasSuffix("got 12") })
        #expect(lines.contains { $0.hasPrefix("PASS") && $0.contains(" 89 ") })
        #expect(lines.contains("3 probes, 1 passed, 2 failed in 1.50s"))
        #expect(lines.contains("  api.test  httpdns 127.0.0.2, ::1  system 10.0.0.1"))
        #expect(!text.contains("web.test  httpdns"))
        #expect(text.contains("note='say \"hi\"\\ back\\x0anext\\x09line'"))  // one line: the label's line feed is escaped
        #expect(!text.contains("\u{1B}"))
    }

    @Test func textColoursOnlyWhenAsked() {
        let text = report.rendered(as: .text, colour: true)
        #expect(count("\u{1B}[32mPASS\u{1B}[0m", text) == 1)
        #expect(count("\u{1B}[31mFAIL\u{1B}[0m", text) == 2)
        #expect(CheckReport.wantsColour(fileDescriptor: -1) == false)
    }

    @Test func jsonIsOneDocumentWithNullsAndNumbers() throws {
        let text = report.rendered(as: .json, colour: false)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(root["started_at"] as? String == "2025-06-15T15:06:40Z")
        #expect(root["duration_seconds"] as? Double == 1.504)
        #expect(root["passed"] as? Bool == false)
        let labels = try #require(root["labels"] as? [String: String])
        #expect(labels == ["env": "prod", "note": CheckReportFixture.awkward, "target": "shadow"])
        #expect(root["summary"] as? [String: Int] == ["probes": 3, "passed": 1, "failed": 2])
        let probes = try #require(root["probes"] as? [[String: Any]])
        #expect(probes.map { $0["address"] as? String } == ["127.0.0.2", "::1", "127.0.0.3"])
        #expect(probes[1]["family"] as? String == "ipv6")
        #expect((probes[1]["failures"] as? [[String: String]])?.first == ["assertion": "status", "expected": "200-399", "actual": "503"])
        #expect((probes[1]["certificate"] as? [String: Any])?["days_left"] as? Int == 12)
        #expect((probes[0]["timings"] as? [String: Double])?["total_seconds"] == 0.0069)
        #expect(probes[2]["status"] is NSNull && probes[2]["tls_version"] is NSNull && probes[2]["certificate"] is NSNull)
        #expect((probes[2]["error"] as? [String: Any])?["exit_code"] as? Int == 7)
        let names = try #require(root["names"] as? [[String: Any]])
        #expect(names.map { $0["differs"] as? Bool } == [true, false])
        #expect(names[0]["system"] as? [String] == ["10.0.0.1"])
    }

    @Test func junitHasOneSuitePerTargetAndOneFailurePerFailedProbe() throws {
        let text = report.rendered(as: .junit, colour: false)
        #expect(count("<failure ", text) == 2)
        #expect(count("<testcase ", text) == 3)
        let document = try XMLDocument(data: Data(text.utf8))
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites" && root.attribute(forName: "failures")?.stringValue == "2")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == ["api", "web <&> \"edge\"", "ipcurl.check.system-dns"])
        let cases = suites[0].elements(forName: "testcase")
        #expect(cases.map { $0.attribute(forName: "name")?.stringValue } == ["127.0.0.2", "[::1]"])
        #expect(cases[1].attribute(forName: "classname")?.stringValue == "ipcurl.check.api")
        #expect(cases[1].elements(forName: "failure").first?.attribute(forName: "type")?.stringValue == "status")
        let refused = try #require(suites[1].elements(forName: "testcase").first?.elements(forName: "failure").first)
        #expect(refused.attribute(forName: "type")?.stringValue == "curl_error_7")
        let properties = suites[0].elements(forName: "properties").first?.elements(forName: "property") ?? []
        #expect(properties.first { $0.attribute(forName: "name")?.stringValue == "note" }?
            .attribute(forName: "value")?.stringValue == CheckReportFixture.awkward)
    }

    @Test func xmlDropsForbiddenCharacters() {
        #expect(XMLText.attribute("a\u{1}b\u{FFFF}<\"&\n") == "\"ab&lt;&quot;&amp;&#10;\"")
        #expect(XMLText.text("x\u{0}y\r]]>") == "xy&#13;]]&gt;")
    }

    @Test func tapHasPlanTestLinesAndYAMLBlocks() {
        let lines = report.rendered(as: .tap, colour: false).split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(3)) == ["TAP version 13", "1..3", "ok 1 - api [127.0.0.2] https://api.test/health"])
        #expect(lines.contains("not ok 2 - api [::1] https://api.test/health"))
        #expect(lines.contains("not ok 3 - web <&> \"edge\" [127.0.0.3] http://web.test/\\#top"))
        #expect(lines.filter { $0 == "  ---" }.count == 3 && lines.filter { $0 == "  ..." }.count == 3)
        #expect(lines.filter { $0 == "  severity: fail" }.count == 2)
        #expect(lines.contains("  got: \"curl exit 7: Failed to connect to 127.0.0.3 port 80: Connection refused\""))
        #expect(lines.contains("    \"note\": \"say \\\"hi\\\"\\\\ back\\nnext\\tline\""))
        #expect(TAPReport.yaml("a\u{1B}\u{85}\u{7F}é") == "\"a\\x1b\\x85\\x7fé\"")
    }

    @Test func openMetricsIsGaugesWithHelpAndNoRepeatedSample() throws {
        for report in [report, CheckReportFixture.reportWithRepeats] {
            let text = report.rendered(as: .openmetrics, colour: false)
            #expect(text.hasSuffix("\n# EOF\n"))
            let lines = text.split(separator: "\n").map(String.init)
            let types = lines.filter { $0.hasPrefix("# TYPE ") }
            #expect(types.allSatisfy { $0.hasSuffix(" gauge") })
            #expect(lines.filter { $0.hasPrefix("# HELP ") }.count == types.count)
            let samples = lines.filter { !$0.hasPrefix("#") }
            let series = samples.map { String($0[..<$0.lastIndex(of: " ")!]) }
            #expect(Set(series).count == series.count)
            #expect(samples.filter { $0.hasPrefix("probe_success{") }.count == report.probes.count)
            #expect(samples.filter { $0.hasPrefix("ipcurl_probe_failure_info{") }.count == report.failedCount)
        }
        let text = report.rendered(as: .openmetrics, colour: false)
        #expect(text.contains(#"note="say \"hi\"\\ back\nnext\\x09line""#))
        #expect(text.contains(#",exported_target="shadow"}"#) && !text.contains("occurrence="))
        #expect(text.contains(#"probe_tls_version_info{name="api",target="https://api.test/health",ip="::1",family="ipv6",version="TLS 1.2","#))
        #expect(text.contains("# UNIT probe_http_duration_seconds seconds\n") && !text.contains("# UNIT probe_ssl"))
        #expect(text.contains(#"ipcurl_system_dns_mismatch{host="api.test",env="prod","#))
        let repeated = CheckReportFixture.reportWithRepeats.rendered(as: .openmetrics, colour: false)
        #expect(repeated.contains(#"probe_success{name="api",target="https://api.test/health",ip="127.0.0.2",family="ipv4",occurrence="2","#))
    }

    /// A TAP description is one line that starts no directive: controls as `\xNN` (the TAP escape doubles its
    /// backslash), `#` as `\#`; the YAML block keeps YAML's own escapes.
    @Test func tapDescriptionsShowControlsAsHexAndStartNoDirective() {
        let text = CheckReportFixture.reportWithRepeats.rendered(as: .tap, colour: false)
        #expect(!text.unicodeScalars.contains { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) })
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains(##"not ok 5 - gone\\x0d\\x1b[2J \# SKIP \\xc2\\x9bx https://gone.test/"##), "\(lines)")
        #expect(lines.contains(#"  name: "gone\r\x1b[2J # SKIP \x9bx""#))
    }

    /// OpenMetrics escapes only `\\`, `\"` and line feeds: every other control in a label value is written as visible
    /// `\xNN` text (`\\x0d` in the exposition), never raw.
    @Test func openMetricsLabelValuesShowControlsAsHex() {
        let text = CheckReportFixture.reportWithRepeats.rendered(as: .openmetrics, colour: false)
        #expect(!text.unicodeScalars.contains { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) })
        #expect(text.contains(#"ctl="cr\\x0d esc\\x1b[31m c1\\xc2\\x85 lf\nend\\x1b]0;T\\x07""#))
        #expect(text.contains(#"probe_success{name="gone\\x0d\\x1b[2J # SKIP \\xc2\\x9bx",target="https://gone.test/""#))
    }

    @Test func labelNamesAreSanitised() {
        #expect(MetricsWriter.labelName("team-a.b") == "team_a_b")
        #expect(MetricsWriter.labelName("9lives") == "_9lives")
        #expect(MetricsWriter.labelName("ip") == "exported_ip")
        #expect(MetricsWriter.labelName("__meta") == "exported___meta")
        #expect(MetricsWriter.labelName("é") == "_")
    }

    @Test func numbersAndTimestamps() {
        #expect(ReportFormat.fixed(1_234_567, unit: 1_000_000, digits: 3) == "1.235")
        #expect(ReportFormat.fixed(-1_500, unit: 1_000, digits: 0) == "-2")
        #expect(ReportFormat.seconds(42) == "0.000042")
        #expect(ReportFormat.milliseconds(6_950) == "7.0")
        #expect(ReportFormat.timestamp(0) == "1970-01-01T00:00:00Z")
        #expect(CheckReportFixture.report.summaryLine == "3 probes, 1 passed, 2 failed in 1.50s")
    }
}
