import HTTPDNS
@testable import IPCurlCore
import Testing

/// Nearest-rank percentiles and how an address's samples become its one result.
@Suite struct CheckSampleTests {
    @Test func nearestRankPercentilesOfKnownSets() {
        let ten = SampleSpread(Array(1...10))
        #expect([ten.min, ten.p50, ten.p95, ten.p99, ten.max] == [1, 5, 10, 10, 10])
        let one = SampleSpread([5])
        #expect([one.min, one.p50, one.p95, one.p99, one.max] == [5, 5, 5, 5, 5])
        let two = SampleSpread([2, 1])
        #expect([two.min, two.p50, two.p95, two.p99, two.max] == [1, 1, 2, 2, 2])
        let hundred = SampleSpread((1...100).reversed().map { Int64($0) })
        #expect([hundred.p50, hundred.p95, hundred.p99] == [50, 95, 99])
        #expect(SampleSpread.nearestRank(95, of: Array(1...20)) == 19)
    }

    func sample(total: Int64, status: Int = 200, error: ProbeError? = nil) -> ProbeResult {
        var result = ProbeResult(target: CheckTarget(url: "https://a.test/"), address: IPAddress("127.0.0.2"))
        result.timings.total = total
        result.timings.connect = total / 10
        result.status = status
        result.error = error
        if status != 200, error == nil { result.failures = [AssertionFailure(assertion: "status", expected: "2xx", actual: String(status))] }
        return result
    }

    @Test func oneSampleIsTheResultItselfWithCounts() {
        let alone = sample(total: 7_000)
        let result = SampleAggregate.result(of: [alone], planned: alone)
        #expect(result.passed && result.timings == alone.timings && result.samples.count == 1 && result.samples.failed == 0)
        #expect(result.samples.spreads.isEmpty, "one sample has no spread to report")
    }

    @Test func everySampleMustPassUnlessSomeFailuresAreAllowed() {
        var target = CheckTarget(url: "https://a.test/")
        let timedOut = sample(total: 9_000, status: 0, error: ProbeError(exitCode: 28, message: "Operation timed out"))
        let samples = [sample(total: 1_000), sample(total: 2_000, status: 503), timedOut, sample(total: 3_000)]
        var planned = ProbeResult(target: target, address: IPAddress("127.0.0.2"))
        let strict = SampleAggregate.result(of: samples, planned: planned)
        #expect(!strict.passed && strict.samples.failed == 2 && strict.reason.hasPrefix("status: expected 2xx, got 503"), "\(strict.reason)")
        target.maxFailedSamples = 2
        planned.target = target
        let lenient = SampleAggregate.result(of: samples, planned: planned)
        #expect(lenient.passed && lenient.samples.failed == 2 && lenient.samples.completed == 3, "\(lenient.reason)")
        #expect(lenient.failedSamples.map(\.sample) == [2, 3], "every failed sample keeps its reason, allowed or not")
        #expect(lenient.failedSampleLines() == ["sample 2: status: expected 2xx, got 503", "sample 3: exit 28: Operation timed out"],
                "\(lenient.failedSampleLines())")
        let total = lenient.samples.spreads.first { $0.phase == .total }?.spread
        #expect(total == SampleSpread([1_000, 2_000, 3_000]), "spreads are over the samples whose transfer completed")
    }

    @Test func attemptsAddUpOverSamplesAndFailedAttemptsKeepTheirSample() {
        var first = sample(total: 1_000), second = sample(total: 2_000)
        first.attempts = 1
        second.attempts = 3
        second.retriedFailures = [FailedAttempt(sample: 1, attempt: 1, reason: "exit 7: Failed to connect"),
                                  FailedAttempt(sample: 1, attempt: 2, reason: "status: expected 2xx, got 503")]
        let planned = ProbeResult(target: CheckTarget(url: "https://a.test/"), address: IPAddress("127.0.0.2"))
        let result = SampleAggregate.result(of: [first, second], planned: planned)
        #expect(result.passed && result.flaky && result.attempts == 4)
        #expect(result.retriedFailures.map(\.sample) == [2, 2] && result.retriedFailures.map(\.attempt) == [1, 2])
        #expect(result.retriedLines() == ["attempt 1 of sample 2: exit 7: Failed to connect",
                                          "attempt 2 of sample 2: status: expected 2xx, got 503"], "\(result.retriedLines())")
        let steady = SampleAggregate.result(of: [first], planned: planned)
        #expect(steady.attempts == 1 && !steady.flaky && steady.retriedLines().isEmpty)
        #expect(SampleAggregate.result(of: [], planned: planned).attempts == 0, "a probe that never ran made no attempt")
        var failing = second
        failing.status = 503
        failing.failures = [AssertionFailure(assertion: "status", expected: "2xx", actual: "503")]
        #expect(!SampleAggregate.result(of: [failing], planned: planned).flaky, "a failure is not flaky, only a pass can be")
    }

    @Test func retriedFailuresFoldBySampleRangesAndStopAtTheLimit() {
        var result = sample(total: 1_000)
        result.samples.count = 9
        let refused = "exit 7: Failed to connect"
        result.retriedFailures = [1, 2, 3, 5, 7, 8].map { FailedAttempt(sample: $0, attempt: 1, reason: refused) }
            + [FailedAttempt(sample: 3, attempt: 2, reason: refused), FailedAttempt(sample: 4, attempt: 1, reason: "status: expected 2xx, got 503")]
        #expect(result.retriedLines() == ["attempt 1 of samples 1-3, 5, 7-8: \(refused)", "attempt 2 of sample 3: \(refused)",
                                          "attempt 1 of sample 4: status: expected 2xx, got 503"], "\(result.retriedLines())")
        #expect(result.retriedLines(limit: 1) == ["attempt 1 of samples 1-3, 5, 7-8: \(refused)", "and 2 more"])
        result.samples.count = 1
        result.retriedFailures = [FailedAttempt(sample: 1, attempt: 1, reason: refused)]
        #expect(result.retriedLines() == ["attempt 1: \(refused)"], "no sample numbers without sampling")
    }

    /// 1000 samples × 100 retries whose reasons all differ (a header value that changes per response): the fold
    /// keeps first-appearance order and counts every other group (`make bench`-sized runs measure its time).
    @Test func retriedFailuresWithEveryReasonDistinctFoldInOrder() {
        var result = sample(total: 1_000)
        result.samples.count = 1000
        result.retriedFailures = (1...1000).flatMap { sample in
            (1...100).map { FailedAttempt(sample: sample, attempt: $0, reason: "headers: got X-Id: \(sample * 1000 + $0)") }
        }
        result.retriedFailures.append(FailedAttempt(sample: 1000, attempt: 1, reason: "headers: got X-Id: 1001"))
        let lines = result.retriedLines()
        #expect(lines.count == 21 && lines.last == "and 99980 more", "\(lines.suffix(2))")
        #expect(lines.first == "attempt 1 of samples 1, 1000: headers: got X-Id: 1001", "\(lines.prefix(2))")
        #expect(lines[19] == "attempt 20 of sample 1: headers: got X-Id: 1020", "\(lines[19])")
    }

    @Test func aFailedPercentileIsInTheReasonBesideASamplesTransferError() {
        var planned = ProbeResult(target: CheckTarget(url: "https://a.test/"), address: IPAddress("127.0.0.2"))
        planned.target.expect.p95MS = 20
        let refused = sample(total: 100, status: 0, error: ProbeError(exitCode: 7, message: "Failed to connect"))
        let result = SampleAggregate.result(of: [sample(total: 50_000), refused, sample(total: 60_000)], planned: planned)
        #expect(result.reason == "exit 7: Failed to connect; p95: expected ≤ 20 ms, got 60.0 ms over 2 samples", "\(result.reason)")
    }

    @Test func aPercentileLimitNamesItselfWithTheSampleCount() {
        var planned = ProbeResult(target: CheckTarget(url: "https://a.test/"), address: IPAddress("127.0.0.2"))
        planned.target.expect.p95MS = 20
        let samples = [10_000, 61_400, 15_000].map { sample(total: $0) }
        let result = SampleAggregate.result(of: samples, planned: planned)
        #expect(!result.passed)
        #expect(result.reason == "p95: expected ≤ 20 ms, got 61.4 ms over 3 samples", "\(result.reason)")
        planned.target.expect.p95MS = 62
        #expect(SampleAggregate.result(of: samples, planned: planned).passed)
    }
}

extension SampleAggregate {
    /// The samples of `samples` in order, as one result: what `Check` does as they finish.
    static func result(of samples: [ProbeResult], planned: ProbeResult) -> ProbeResult {
        var aggregate = SampleAggregate()
        for sample in samples { aggregate.add(sample) }
        return aggregate.result(planned: planned)
    }
}
