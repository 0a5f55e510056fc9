import Foundation
import Testing
import HTTPDNS
@testable import IPCurlCore

/// `--format html` rendered from synthetic reports: escaping, failures first, highlighted certificate days, no URL
/// fetched from anywhere, and html5lib's parser reading the page without a parse error.
@Suite struct CheckHTMLReportTests {
    static var html: CheckFormat? { CheckFormat(rawValue: "html") }

    /// ``CheckReportFixture/report`` with one probe whose server strings (a header in a failure, the certificate's
    /// subject and issuer, the HTTP version) carry markup.
    static var hostileReport: CheckReport {
        var report = CheckReportFixture.report
        var probe = report.probes[0]
        probe.failures = [AssertionFailure(assertion: "headers", expected: "X-A: 1",
                                           actual: "X-A: <script>alert(1)</script>")]
        probe.certificate?.subject = "CN = <img src=x onerror=alert(2)>"
        probe.certificate?.issuer = "O = \"'><iframe src=//evil.test>"
        probe.httpVersion = "<b>2</b>"
        report.probes.append(probe)
        return report
    }

    /// ``CheckReportFixture/report`` with its first two probes sampled through ``SampleAggregate``: the pass over five
    /// samples, the second with one retried (a flaky pass), the other over four samples, one failing, with a p95 limit.
    static var sampledReport: CheckReport {
        var report = CheckReportFixture.report
        func sample(_ base: ProbeResult, total: Int64, passed: Bool = true) -> ProbeResult {
            var one = base
            one.timings.total = total
            one.failures = passed ? [] : [AssertionFailure(assertion: "status", expected: "2xx", actual: "503")]
            return one
        }
        var pass = report.probes[0]
        pass.failures = []
        var samples = [5_000, 6_000, 7_000, 8_000, 40_000].map { sample(pass, total: Int64($0)) }
        samples[1].attempts = 2
        samples[1].retriedFailures = [FailedAttempt(sample: 1, attempt: 1, reason: "exit 7: <refused>")]
        report.probes[0] = SampleAggregate.result(of: samples, planned: pass)
        var slow = report.probes[1]
        slow.failures = []
        slow.target.expect.p95MS = 20
        report.probes[1] = SampleAggregate.result(of: [sample(slow, total: 9_000), sample(slow, total: 30_000, passed: false),
                                                       sample(slow, total: 10_000), sample(slow, total: 11_000)], planned: slow)
        return report
    }

    func render(_ report: CheckReport) throws -> String {
        report.rendered(as: try #require(Self.html, "no html format"), colour: false)
    }

    @Test func escapingTurnsMarkupIntoReferencesAndControlsIntoBytes() {
        #expect(HTMLText.escape("<a href=\"x\" title='y'>&amp;</a>")
                == "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;")
        #expect(HTMLText.escape("tab\tlf\ncr\r esc\u{1B}[2J c1\u{85} nul\u{0} del\u{7F} non\u{FFFE}")
                == "tab\tlf\ncr\\x0d esc\\x1b[2J c1\\xc2\\x85 nul\\x00 del\\x7f non\\xef\\xbf\\xbe")
        #expect(HTMLText.escape("héllo 名前 🙂") == "héllo 名前 🙂")
    }

    @Test func serverStringsWithMarkupComeOutAsText() throws {
        let page = try render(Self.hostileReport)
        for tag in ["<script", "<img", "<iframe", "<b>"] { #expect(!page.contains(tag), "\(tag) came through") }
        #expect(page.contains("X-A: &lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(page.contains("CN = &lt;img src=x onerror=alert(2)&gt;"))
        #expect(page.contains("O = &quot;&#39;&gt;&lt;iframe src=//evil.test&gt;"))
        #expect(page.contains("web &lt;&amp;&gt; &quot;edge&quot;"))
    }

    @Test func failuresComeFirstAndEveryColourHasItsWord() throws {
        let page = try render(CheckReportFixture.report)
        let sections = page.components(separatedBy: "<section id=\"probe-").dropFirst().map { $0.prefix(200) }
        #expect(sections.map { $0.contains("class=\"probe fail\"") } == [true, true, false], "\(sections)")
        #expect(sections.first?.contains("[::1]") == true)
        #expect(CheckReportFixture.count("badge fail\">&#10007; FAIL<", in: page)
                + CheckReportFixture.count("badge fail\">&#8800; DIFFERS<", in: page) == CheckReportFixture.count("badge fail", in: page))
        #expect(CheckReportFixture.count("badge pass\">&#10003; PASS<", in: page) >= 2)
        #expect(page.contains("1 passed, 2 failed in 1.50s"))
        #expect(page.contains("<dt>note</dt><dd>say &quot;hi&quot;\\ back\nnext\tline</dd>"))
    }

    @Test func certificateDaysUnderTheExpectationAreHighlighted() throws {
        var report = CheckReportFixture.report
        for index in report.probes.indices { report.probes[index].target.expect.minCertDays = 30 }
        let page = try render(report)
        #expect(page.contains("<mark class=\"short\">12 days left &#9888; FAIL: below 30</mark>"))
        #expect(CheckReportFixture.count("<mark class=\"short\">", in: page) == 2, "table cell and section of the 12-day probe")
        #expect(page.contains("89 days left") && !page.contains("89 days left &#9888;"))
        let unexpected = try render(CheckReportFixture.report)
        #expect(!unexpected.contains("<mark"), "no expectation, nothing expired: nothing highlighted")
    }

    @Test func theWaterfallWritesEveryPhasesMillisecondsBesideItsBar() throws {
        let page = try render(CheckReportFixture.report)
        #expect(CheckReportFixture.count("<svg class=\"waterfall\"", in: page) == 3)
        for value in ["1.2 ms", "0.3 ms", "4.5 ms", "2.0 ms", "0.1 ms"] { #expect(page.contains(">\(value)</text>"), "\(value)") }
        for phase in ["dns (per name)", "connect", "tls", "ttfb", "transfer"] { #expect(page.contains(">\(phase)</text>")) }
        #expect(CheckReportFixture.count(">until exit 7</text>", in: page) == 1, "the refused probe's time until it failed")
        #expect(page.contains("transfer 0.0, until exit 7 0.5</title>"), "and in the chart's title")
        #expect(!page.contains("until exit 60") && CheckReportFixture.count("until exit", in: page) == 2, "only where no phase was timed")
    }

    @Test func eachSampledAddressHasAStripPlotPercentilesAndAPhaseTable() throws {
        let report = Self.sampledReport
        let page = try render(report)
        #expect(CheckReportFixture.count("<svg class=\"distribution\"", in: page) == 2, "the two sampled probes")
        #expect(CheckReportFixture.count("r=\"3\" fill=\"#0072B2\"", in: page) == 5 + 3, "one dot per passing sample")
        #expect(CheckReportFixture.count("stroke=\"#D55E00\" stroke-width=\"2\"/>", in: page) == 1, "one cross per failed sample")
        for label in [">p50 7.0 ms</text>", ">p95 40.0 ms</text>", ">p99 40.0 ms</text>", ">p50 10.0 ms</text>", ">p95 30.0 ms</text>",
                      ">p95 limit 20 ms</text>", "Latency over 5 samples, 0 failed", "Latency over 4 samples, 1 failed",
                      "Latency: 1 sample, total 0.5 ms"] {
            #expect(page.contains(label), "\(label)")
        }
        #expect(CheckReportFixture.count("<caption>Phases over the completed samples", in: page) == 2)
        #expect(page.contains("<dt>Failed samples</dt><dd><ul class=\"retried\"><li>sample 2: status: expected 2xx, got 503</li></ul></dd>"))
        #expect(page.contains("<tr><th>total</th><td class=\"number\">5.0</td><td class=\"number\">7.0</td>"), "min and p50 of the pass")
        #expect(page.contains("<title id=\"d"), "each plot has a text title")
        #expect(page.contains("status: expected 2xx, got 503; p95: expected ≤ 20 ms, got 30.0 ms over 4 samples"))
    }

    /// ``CheckReportFixture/report``'s pass sampled `totals.count` times, each sample taking its total from `totals`;
    /// a sample whose total is `nil` failed before its transfer completed (exit 7).
    static func sampled(_ totals: [Int64?]) -> CheckReport {
        var report = CheckReportFixture.report
        var planned = report.probes[0]
        planned.failures = []
        let samples = totals.map { total in
            var one = planned
            one.timings.total = total ?? 450
            if total == nil { one.error = ProbeError(exitCode: 7, message: "Failed to connect") }
            return one
        }
        report.probes = [SampleAggregate.result(of: samples, planned: planned)]
        return report
    }

    /// The `<svg class="distribution" …>…</svg>` element of `page`.
    static func distribution(_ page: String) throws -> Substring {
        let start = try #require(page.range(of: "<svg class=\"distribution\""))
        let end = try #require(page[start.upperBound...].range(of: "</svg>"))
        return page[start.lowerBound..<end.upperBound]
    }

    /// The numbers of every `name="N"` attribute in `svg`, in order.
    static func attributes(_ name: String, in svg: Substring) throws -> [Double] {
        try svg.matches(of: try Regex(" \(name)=\"(-?[0-9.]+)\"")).map { try #require(Double($0.output[1].substring ?? "")) }
    }

    @Test func samplesOfEqualTotalsStayApartOnTheStrip() throws {
        let svg = try Self.distribution(try render(Self.sampled([5_000, 5_000, 5_000, 5_000, 5_000])))
        let xs = try Self.attributes("cx", in: svg), ys = try Self.attributes("cy", in: svg)
        #expect(xs.count == 5 && Set(xs).count == 1, "equal totals, one x: \(xs)")
        for (i, a) in ys.enumerated() {
            for b in ys[(i + 1)...] { #expect(abs(a - b) >= 6, "dots of radius 3 at \(ys) overlap") }
        }
    }

    @Test func anAddressWithoutACompletedSampleHasNoEmptyBandAboveItsStrip() throws {
        let failed = try Self.distribution(try render(Self.sampled([nil, nil, nil])))
        #expect(!failed.contains(">p50 ") && !failed.contains("<line"), "no percentile lines to draw: \(failed)")
        let strip = try #require(failed.firstMatch(of: try Regex(#"<rect x="150" y="([0-9]+)""#)))
        let stripY = try #require(Int(strip.output[1].substring ?? ""))
        #expect(stripY <= 8, "the strip starts at the top: \(failed)")
        let completed = try Self.distribution(try render(Self.sampled([5_000, 6_000, 7_000])))
        #expect(completed.contains(">p50 6.0 ms</text>"), "with completed samples the lines and their labels stay above the strip")
        let failedHeight = try Self.attributes("height", in: failed.prefix { $0 != ">" }).first ?? 0
        let completedHeight = try Self.attributes("height", in: completed.prefix { $0 != ">" }).first ?? 0
        #expect(completedHeight - failedHeight >= 36, "the band is gone: \(failedHeight) vs \(completedHeight)")
    }

    @Test func aMarkKeepsItsWordsOnOneLine() throws {
        let rule = try #require(HTMLStyle.sheet.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("mark.short {") })
        #expect(rule.contains("white-space: nowrap"), "\(rule)")
    }

    @Test func aLookupSharedByABatchSaysSo() throws {
        var report = CheckReportFixture.report
        report.probes[0].timings.resolveNames = 3
        report.probes[1].timings.resolveNames = 3
        let page = try render(report)
        #expect(page.contains(">dns (batch of 3)</text>"), "the waterfall's label")
        #expect(page.contains("<td class=\"number\">1.2 (lookup of the batch of 3 names)</td>"), "the names table")
        #expect(CheckReportFixture.count(">dns (per name)</text>", in: page) == 1, "the other name's own lookup")
    }

    @Test func aFlakyPassIsMarkedWithItsFailedAttempts() throws {
        let page = try render(Self.sampledReport)
        #expect(page.contains("<dt>Attempts</dt><dd>6 <mark class=\"short\">&#9888; FLAKY</mark></dd>"), "\(page)")
        #expect(page.contains("<li>attempt 1 of sample 2: exit 7: &lt;refused&gt;</li>"))
        #expect(page.contains("(1 flaky)"))
    }

    @Test(arguments: [CheckReportFixture.report, CheckReportFixture.reportWithRepeats, hostileReport, sampledReport])
    func noScriptAndNoURLFetchedFromAnywhere(report: CheckReport) throws {
        let page = try render(report)
        #expect(!page.lowercased().contains("<script"))
        #expect(!page.lowercased().contains("<link"))
        let references = try Regex(#"(?:src|href)\s*=\s*"([^"]*)""#)
        let targets = page.matches(of: references).map { String($0.output[1].substring ?? "") }
        #expect(targets.allSatisfy { $0.hasPrefix("#") }, "\(targets)")
        #expect(page.contains("<style>") && page.contains("@media print"))
    }

    /// Whether Debian's `/usr/bin/python3` has `python3-html5lib`.
    static var hasHTML5lib: Bool { (try? Consumer.run("/usr/bin/python3", ["-c", "import html5lib"]).status) == 0 }

    @Test(.enabled(if: hasHTML5lib, "python3-html5lib is not installed"),
          arguments: [CheckReportFixture.report, CheckReportFixture.reportWithRepeats, hostileReport, sampledReport])
    func html5libParsesThePageWithoutErrors(report: CheckReport) throws {
        let script = """
            import sys, html5lib
            parser = html5lib.HTMLParser(strict=False, namespaceHTMLElements=False)
            doc = parser.parse(sys.stdin.read())
            print(len(parser.errors), parser.errors[:3], len(doc.findall('.//section[@id]')), len(doc.findall('.//script')))
            """
        let result = try Consumer.run("/usr/bin/python3", ["-c", script], input: try render(report))
        #expect(result.output == "0 [] \(report.probes.count) 0\n", "\(result.errors)")
    }
}
