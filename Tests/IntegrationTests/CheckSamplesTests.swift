import Foundation
import Testing

/// `ipcurl check --samples N`: every address probed N times on fresh connections, percentiles over the samples,
/// `p50_ms`/`p95_ms`/`p99_ms` expectations, `--max-failed-samples`, and every report format still read by its
/// consumers with samples in it.
@Suite struct CheckSamplesTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    /// The echo backend's count of `/api/conn` requests and distinct client connections (nginx's `$connection`) of `key`.
    func connections(_ key: String) throws -> (requests: Int, connections: Int) {
        let counted = try ipcurl(lab.resolverArguments + ["-sS", lab.https("a.test", "/api/conns?key=\(key)")])
        let numbers = counted.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(numbers.count == 2, "\(counted.stdout)\(counted.stderr)")
        return (numbers[0], numbers[1])
    }

    @Test func fiveSamplesOpenFiveFreshConnectionsPerAddress() throws {
        let key = "samples-\(UInt32.random(in: 0...UInt32.max))"
        let name = "\(key).any.test"
        let result = try ipcurl(["check"] + aliyun + ["--samples", "5", "--all-ips", "--parallel", "1", "--format", "json",
                                                      lab.https(name, "/api/conn?key=\(key)")])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let probes = try #require(try jsonReport(result)["probes"] as? [[String: Any]])
        #expect(probes.count == 2, "one record per address")
        for probe in probes {
            let samples = probe["samples"] as? [String: Any]
            #expect(samples?["count"] as? Int == 5 && samples?["failed"] as? Int == 0, "\(probe)")
            let total = (probe["sample_timings"] as? [String: Any])?["total"] as? [String: Double]
            #expect(Set(total?.keys.map { $0 } ?? []) == ["min_seconds", "p50_seconds", "p95_seconds", "p99_seconds", "max_seconds"],
                    "\(probe)")
            if let total { #expect(total["min_seconds"]! <= total["p50_seconds"]! && total["p99_seconds"]! <= total["max_seconds"]!) }
        }
        let seen = try connections(key)
        #expect(seen.requests == 10 && seen.connections == 10, "10 samples on 10 connections: \(seen)")
    }

    @Test func oneSampleKeepsTheReportAndAddsOnlyTheCounts() throws {
        let result = try check(["--format", "json", lab.https("a.test")])
        #expect(result.status == 0, "\(result.stderr)")
        let probe = try #require((try jsonReport(result)["probes"] as? [[String: Any]])?.first)
        #expect((probe["samples"] as? [String: Int]) == ["count": 1, "failed": 0], "\(probe)")
        #expect(probe["sample_timings"] == nil, "no spread over one sample")
    }

    @Test func aSlowEndpointFailsP95AndTheFailureNamesItself() throws {
        let result = try check(["--samples", "3", "--expect-p95-ms", "20", "--format", "json",
                                lab.https("a.test", "/api/delay?ms=60")])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let probe = try #require((try jsonReport(result)["probes"] as? [[String: Any]])?.first)
        let reason = probe["reason"] as? String ?? ""
        #expect(reason.hasPrefix("p95: expected ≤ 20 ms, got ") && reason.hasSuffix(" ms over 3 samples"), "\(reason)")
        let failures = probe["failures"] as? [[String: String]] ?? []
        #expect(failures.map { $0["assertion"] } == ["p95"], "\(failures)")
    }

    @Test func percentileLimitsFromATargetsFileFailOnlyTheSlowTarget() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/targets.yaml"
        try """
            defaults: { samples: 3, expect: { p50_ms: 5000 } }
            targets:
              - { name: quick, url: "\(lab.https("a.test", "/api/delay?ms=0"))" }
              - { name: slow, url: "\(lab.https("a.test", "/api/delay?ms=60"))", samples: 2, expect: { p99_ms: 20 } }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try check(["--format", "json", "--targets", path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let probes = try #require(try jsonReport(result)["probes"] as? [[String: Any]])
        #expect(probes.map { $0["passed"] as? Bool } == [true, false], "\(probes)")
        #expect(probes.map { ($0["samples"] as? [String: Int])?["count"] } == [3, 2])
        #expect((probes.last?["reason"] as? String ?? "").hasPrefix("p99: expected ≤ 20 ms, got "), "\(probes)")
    }

    @Test func maxFailedSamplesLetsSomeSamplesFail() throws {
        // /api/flaky fails the first hit of its key and passes later ones: 1 of 3 samples fails.
        func run(_ extra: [String]) throws -> [String: Any] {
            let key = "flaky-\(UInt32.random(in: 0...UInt32.max))"
            let result = try check(["--samples", "3", "--format", "json"] + extra + [lab.https("a.test", "/api/flaky?key=\(key)&fails=1")])
            return try #require((try jsonReport(result)["probes"] as? [[String: Any]])?.first)
        }
        let strict = try run([])
        #expect(strict["passed"] as? Bool == false, "\(strict)")
        #expect((strict["samples"] as? [String: Int]) == ["count": 3, "failed": 1], "\(strict)")
        #expect((strict["reason"] as? String ?? "").contains("status: expected 2xx, got 503"), "\(strict)")
        let lenient = try run(["--max-failed-samples", "1"])
        #expect(lenient["passed"] as? Bool == true && lenient["flaky"] as? Bool == true, "\(lenient)")
        #expect((lenient["samples"] as? [String: Int]) == ["count": 3, "failed": 1], "\(lenient)")
        let tolerated = lenient["failed_samples"] as? [[String: Any]] ?? []
        #expect(tolerated.count == 1 && tolerated.first?["sample"] as? Int == 1, "why the allowed sample failed: \(tolerated)")
        #expect(tolerated.first?["reason"] as? String == "status: expected 2xx, got 503", "\(tolerated)")
    }

    @Test(arguments: [["--samples", "0"], ["--samples", "1001"], ["--samples", "x"], ["--max-failed-samples", "-1"],
                      ["--expect-p95-ms", "0"]])
    func badSampleOptionsAreUsageErrors(arguments: [String]) throws {
        let result = try check(arguments + [lab.https("a.test")])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.hasPrefix("ipcurl: ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test func aBadSamplesKeyInATargetsFileIsAUsageErrorAtItsLine() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/targets.yaml"
        try "targets:\n  - { url: \"\(lab.https("a.test"))\", samples: 0 }\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try check(["--targets", path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("targets.yaml:2:") && result.stderr.contains("\"samples\""), "\(result.stderr)")
    }

    /// A targets file comes from a pull request as often as not: a millisecond limit the command line would refuse is
    /// the same one-line usage error there, not a crash (the limit in microseconds overflowed Int64).
    @Test(arguments: ["p50_ms", "p95_ms", "p99_ms", "max_time_ms"])
    func aMillisecondLimitTooLargeInATargetsFileIsAUsageError(key: String) throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/targets.yaml"
        try "targets:\n  - { url: \"\(lab.https("a.test"))\", expect: { \(key): 9223372036854775807 } }\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let result = try check(["--samples", "2", "--targets", path])
        #expect(result.status == 2, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("targets.yaml:2:") && result.stderr.contains("\"\(key)\"")
                && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    /// mixed.test with three samples: one address passes every sample, the other fails every one.
    func mixedSampled(_ format: String) throws -> Run {
        let result = try check(["--all-ips", "-4", "--samples", "3", "--format", format, lab.https("mixed.test")])
        #expect(result.status == 1, "\(result.stderr)")
        return result
    }

    @Test func textShowsTheSpreadPerAddress() throws {
        let report = try mixedSampled("text")
        #expect(report.stdout.contains("samples: 3, 0 failed"), "\(report.stdout)")
        #expect(report.stdout.contains("samples: 3, 3 failed"), "\(report.stdout)")
        #expect(report.stdout.contains("    failed samples 1-3: exit 60: "), "one line for the three alike: \(report.stdout)")
        #expect(report.stdout.contains("total (ms): min "), "\(report.stdout)")
    }

    @Test func junitWithSamplesValidatesAndJunitparserReadsIt() throws {
        let report = try mixedSampled("junit")
        let validated = try ReportConsumers.validateJUnit(report.stdout)
        #expect(validated.stdout == "valid\n", "\(validated.stderr)")
        let parsed = try ReportConsumers.python("""
            import sys, junitparser
            xml = junitparser.JUnitXml.fromstring(sys.stdin.read())
            cases = [c for s in xml for c in s]
            print(len(cases), sum(1 for c in cases if not c.is_passed), all('samples: 3' in c.system_out for c in cases))
            """, report.stdout)
        #expect(parsed.stdout == "2 1 True\n", "\(parsed.stdout)\(parsed.stderr)")
    }

    @Test func tapWithSamplesIsReadByTAPParser() throws {
        let report = try mixedSampled("tap")
        let script = """
            use TAP::Parser; local $/; my $p = TAP::Parser->new({ tap => <STDIN> }); my @counts;
            while (my $r = $p->next) { push @counts, $r->data->{samples}{count} if $r->is_yaml }
            print scalar($p->parse_errors), " ", scalar($p->failed), " ", $p->tests_run, " ", join(",", @counts), "\\n";
            """
        let parsed = try ReportConsumers.perl(script, report.stdout)
        #expect(parsed.stdout == "0 1 2 3,3\n", "\(parsed.stdout)\(parsed.stderr)\n\(report.stdout)")
        #expect(report.stdout.contains("  sample_timings_seconds:\n    total:\n      min: "), "\(report.stdout)")
    }

    @Test func openMetricsWithSamplesPassesPromtoolAndTheStrictParser() throws {
        let report = try mixedSampled("openmetrics")
        let promtool = try ReportConsumers.promtool(report.stdout)
        #expect(promtool.status == 0, "\(promtool.stdout)\(promtool.stderr)")
        let parsed = try ReportConsumers.python("""
            import sys
            from prometheus_client.openmetrics.parser import text_string_to_metric_families
            samples = [s for f in text_string_to_metric_families(sys.stdin.read()) for s in f.samples]
            print(sorted((s.labels['ip'], int(s.value)) for s in samples if s.name == 'ipcurl_probe_failed_samples'))
            print(sorted({s.labels['statistic'] for s in samples if s.name == 'ipcurl_probe_sample_duration_seconds'}))
            """, report.stdout)
        #expect(parsed.stdout == "[('127.0.0.2', 0), ('127.0.0.3', 3)]\n['max', 'min', 'p50', 'p95', 'p99']\n",
                "\(parsed.stdout)\(parsed.stderr)")
    }
}
