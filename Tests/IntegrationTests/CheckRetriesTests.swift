import Foundation
import Testing

/// `ipcurl check --retries N --retry-interval S`: a failed probe (each sample) is tried again on a fresh connection,
/// assertions included; every report says how many attempts a probe took and whether it was flaky; curl's own retry
/// options are refused with a pointer to check's.
@Suite struct CheckRetriesTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    /// The JSON report's first probe.
    func probe(_ result: Run) throws -> [String: Any] {
        try #require((try jsonReport(result)["probes"] as? [[String: Any]])?.first)
    }

    /// A fresh `/api/flaky` key: its first `fails` hits answer 503 (or `code`), later ones 200.
    func flakyURL(fails: Int = 1, code: Int = 503) -> (url: String, key: String) {
        let key = "retry-\(UInt32.random(in: 0...UInt32.max))"
        return (lab.https("a.test", "/api/flaky?key=\(key)&fails=\(fails)&code=\(code)"), key)
    }

    /// How many hits `/api/flaky` has counted for `key`.
    func hits(_ key: String) throws -> Int {
        let counted = try ipcurl(lab.resolverArguments + ["-sS", lab.https("a.test", "/api/hits?key=\(key)")])
        return try #require(Int(counted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(counted.stdout)\(counted.stderr)")
    }

    @Test func aFlakyBackendPassesWithOneRetryAndSaysItTookTwoAttempts() throws {
        let flaky = flakyURL()
        let result = try check(["--retries", "1", "--retry-interval", "0", "--format", "json", flaky.url])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let record = try probe(result)
        #expect(record["passed"] as? Bool == true && record["attempts"] as? Int == 2 && record["flaky"] as? Bool == true, "\(record)")
        let retried = record["retried_failures"] as? [[String: Any]] ?? []
        #expect(retried.count == 1 && retried.first?["attempt"] as? Int == 1 && retried.first?["sample"] as? Int == 1, "\(retried)")
        #expect(retried.first?["reason"] as? String == "status: expected 2xx, got 503", "\(retried)")
        #expect(try hits(flaky.key) == 2)
    }

    @Test func verboseSaysEachRetry() throws {
        let flaky = flakyURL(fails: 2)
        let result = try check(["-v", "--retries", "2", "--retry-interval", "0.25", "-o", "/dev/null", flaky.url])
        #expect(result.status == 0, "\(result.stderr)")
        let retries = result.stderr.split(separator: "\n").filter { $0.hasPrefix("* check: ") }
        #expect(retries.count == 2, "\(result.stderr)")
        #expect(retries.first?.hasSuffix(" attempt 1 failed (status: expected 2xx, got 503); attempt 2 in 0.25 s") == true, "\(retries)")
        #expect(retries.last?.hasSuffix(" attempt 2 failed (status: expected 2xx, got 503); attempt 3 in 0.25 s") == true, "\(retries)")
    }

    @Test func withoutRetriesTheSameBackendFails() throws {
        let flaky = flakyURL()
        let result = try check(["--format", "json", flaky.url])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let record = try probe(result)
        #expect(record["passed"] as? Bool == false && record["attempts"] as? Int == 1 && record["flaky"] as? Bool == false, "\(record)")
        #expect((record["retried_failures"] as? [Any])?.isEmpty == true)
        #expect(try hits(flaky.key) == 1)
    }

    @Test func retriesRunOutAndTheLastFailureIsTheReason() throws {
        let flaky = flakyURL(fails: 5, code: 500)
        let result = try check(["--retries", "2", "--retry-interval", "0", "--format", "json", flaky.url])
        #expect(result.status == 1, "\(result.stderr)")
        let record = try probe(result)
        #expect(record["attempts"] as? Int == 3 && record["flaky"] as? Bool == false, "\(record)")
        #expect((record["retried_failures"] as? [[String: Any]])?.map { $0["attempt"] as? Int } == [1, 2])
        #expect(record["reason"] as? String == "status: expected 2xx, got 500", "\(record)")
        #expect(try hits(flaky.key) == 3, "three attempts and no more")
    }

    @Test func everyAttemptGetsAFreshConnection() throws {
        let key = "retry-conn-\(UInt32.random(in: 0...UInt32.max))"
        let result = try check(["--retries", "2", "--retry-interval", "0", "--expect-status", "404", lab.https("a.test", "/api/conn?key=\(key)")])
        #expect(result.status == 1, "every attempt answers 200, not the expected 404: \(result.stdout)")
        let counted = try ipcurl(lab.resolverArguments + ["-sS", lab.https("a.test", "/api/conns?key=\(key)")])
        #expect(counted.stdout.split(whereSeparator: \.isWhitespace) == ["3", "3"], "3 requests on 3 connections: \(counted.stdout)")
    }

    @Test func aFailedAssertionIsRetriedAndTargetsFileKeysSetIt() throws {
        // fails=1 code=200: the first hit answers 200 "failure 1", so only body_contains tells it from the next one.
        let flaky = flakyURL(code: 200)
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/targets.yaml"
        try """
            defaults: { retries: 1, retry_interval: 0ms }
            targets:
              - { name: api, url: "\(flaky.url)", expect: { body_contains: "ok after" } }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try check(["--format", "json", "--targets", path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let record = try probe(result)
        #expect(record["attempts"] as? Int == 2 && record["flaky"] as? Bool == true, "\(record)")
        let reason = (record["retried_failures"] as? [[String: Any]])?.first?["reason"] as? String ?? ""
        #expect(reason.hasPrefix("body_contains: expected "), "\(reason)")
    }

    @Test func theIntervalPassesBetweenAttempts() throws {
        let flaky = flakyURL()
        let result = try check(["--retries", "1", "--retry-interval", "0.4", "--format", "json", flaky.url])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
        let seconds = document["duration_seconds"] as? Double ?? 0
        #expect(seconds >= 0.4, "the retry waited its interval: \(seconds)")
    }

    @Test func eachAttemptHasATimeLimitOfItsOwn() throws {
        let result = try check(["-m", "0.4", "--retries", "1", "--retry-interval", "0", "--format", "json", lab.https("a.test", "/api/delay?ms=3000")])
        #expect(result.status == 1, "\(result.stderr)")
        let record = try probe(result)
        let reasons = [(record["retried_failures"] as? [[String: Any]])?.first?["reason"] as? String, record["reason"] as? String]
        // curl's message says how long the attempt ran: each ran out its own limit, not what the first left over.
        let limits = reasons.map { reason in
            reason.flatMap { $0.firstMatch(of: /^exit 28: Operation timed out after (\d+) milliseconds/).flatMap { Int($0.1) } }
        }
        #expect(record["attempts"] as? Int == 2 && limits.allSatisfy { ($0 ?? 0) >= 300 }, "\(reasons)")
    }

    @Test func eachSampleIsRetriedOnItsOwn() throws {
        let flaky = flakyURL()
        let result = try check(["--samples", "3", "--retries", "1", "--retry-interval", "0", "--format", "json", flaky.url])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let record = try probe(result)
        #expect((record["samples"] as? [String: Int]) == ["count": 3, "failed": 0], "\(record)")
        #expect(record["attempts"] as? Int == 4 && record["flaky"] as? Bool == true, "\(record)")
        #expect((record["retried_failures"] as? [[String: Any]])?.map { $0["sample"] as? Int } == [1])
    }

    @Test(arguments: ["--retry", "--retry-delay", "--retry-max-time", "--retry-all-errors", "--retry-connrefused"])
    func curlsRetryOptionsPointAtRetries(option: String) throws {
        let takesValue = !option.hasSuffix("errors") && !option.hasSuffix("refused")
        let result = try check([option] + (takesValue ? ["2"] : []) + [lab.https("a.test")])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.hasPrefix("ipcurl: option \(option): check retries with --retries N"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stdout.isEmpty)
    }

    @Test(arguments: [["--retries", "-1"], ["--retries", "101"], ["--retries", "x"], ["--retry-interval", "-1"],
                      ["--retry-interval", "3601"], ["--retry-interval", "1s"]])
    func badRetryOptionsAreUsageErrors(arguments: [String]) throws {
        let result = try check(arguments + [lab.https("a.test")])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.hasPrefix("ipcurl: option --retr") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    /// A flaky target that passes on its second attempt beside one that fails every attempt, as `format`.
    func flakyAndFailing(_ format: String) throws -> Run {
        let flaky = flakyURL(), failing = flakyURL(fails: 9)
        let result = try check(["--retries", "1", "--retry-interval", "0", "--format", format, flaky.url, failing.url])
        #expect(result.status == 1, "\(result.stderr)")
        return result
    }

    @Test func junitWithRetriesValidatesAndKeepsEarlierFailuresInSystemOut() throws {
        let report = try flakyAndFailing("junit")
        let validated = try ReportConsumers.validateJUnit(report.stdout)
        #expect(validated.stdout == "valid\n", "\(validated.stderr)")
        let parsed = try ReportConsumers.python("""
            import sys, junitparser
            xml = junitparser.JUnitXml.fromstring(sys.stdin.read())
            for case in (c for s in xml for c in s):
                lines = case.system_out.splitlines()
                print(case.is_passed, [l for l in lines if l.startswith(('attempts:', 'retried:'))])
            """, report.stdout)
        #expect(parsed.stdout == """
            True ['attempts: 2 (flaky: passed after a failed attempt)', 'retried: attempt 1: status: expected 2xx, got 503']
            False ['attempts: 2', 'retried: attempt 1: status: expected 2xx, got 503']

            """, "\(parsed.stdout)\(parsed.stderr)")
    }

    @Test func tapWithRetriesIsReadByTAPParser() throws {
        let report = try flakyAndFailing("tap")
        let script = """
            use TAP::Parser; local $/; my $p = TAP::Parser->new({ tap => <STDIN> }); my @seen;
            while (my $r = $p->next) {
                push @seen, $r->data->{attempts} . ":" . $r->data->{flaky} . ":" . scalar(@{$r->data->{retried_failures}}) if $r->is_yaml
            }
            print scalar($p->parse_errors), " ", scalar($p->failed), " ", join(",", @seen), "\\n";
            """
        let parsed = try ReportConsumers.perl(script, report.stdout)
        #expect(parsed.stdout == "0 1 2:true:1,2:false:1\n", "\(parsed.stdout)\(parsed.stderr)\n\(report.stdout)")
        #expect(report.stdout.contains("# 2 probes, 1 passed (1 flaky), 1 failed in "), "\(report.stdout)")
    }

    @Test func openMetricsWithRetriesPassesPromtoolAndTheStrictParser() throws {
        let report = try flakyAndFailing("openmetrics")
        let promtool = try ReportConsumers.promtool(report.stdout)
        #expect(promtool.status == 0, "\(promtool.stdout)\(promtool.stderr)")
        let parsed = try ReportConsumers.python("""
            import sys
            from prometheus_client.openmetrics.parser import text_string_to_metric_families
            samples = [s for f in text_string_to_metric_families(sys.stdin.read()) for s in f.samples]
            success = {s.labels['target']: int(s.value) for s in samples if s.name == 'probe_success'}
            print(sorted((success[s.labels['target']], int(s.value)) for s in samples if s.name == 'ipcurl_probe_attempts'))
            """, report.stdout)
        #expect(parsed.stdout == "[(0, 2), (1, 2)]\n", "\(parsed.stdout)\(parsed.stderr)")
    }

    @Test func textAndHTMLSayFlaky() throws {
        let text = try flakyAndFailing("text")
        #expect(text.stdout.contains("attempts: 2, flaky: passed after a failed attempt"), "\(text.stdout)")
        #expect(text.stdout.contains("retried attempt 1: status: expected 2xx, got 503"), "\(text.stdout)")
        let html = try flakyAndFailing("html")
        #expect(html.stdout.contains("&#9888; FLAKY") && html.stdout.contains("<li>attempt 1: status: expected 2xx, got 503</li>"),
                "\(html.stdout)")
    }
}
