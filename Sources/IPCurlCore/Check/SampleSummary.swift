/// What an address's samples (`--samples N`) add up to: how many ran, how many failed, and per connection phase
/// the spread of the completed samples' times. The name's resolution happens once per run and is not a phase here.
public struct SampleSummary: Sendable, Equatable {
    /// Samples taken (0 when the probe could not run: a URL libcurl rejects, a name that did not resolve).
    public var count = 1
    /// Samples that failed (a transfer error or a failed assertion).
    public var failed = 0
    /// Samples whose transfer completed: the ones the spreads are over.
    public var completed = 1
    /// Per phase, in ``SamplePhase`` order; empty with one sample, or when no sample completed.
    public var spreads: [PhaseSpread] = []
    /// Every sample's total time and outcome, in the order taken; empty with one sample.
    public var points: [SamplePoint] = []

    /// One sample that passed, no spread.
    public init() {}
}

/// One sample as the distribution plot shows it.
public struct SamplePoint: Sendable, Equatable {
    /// Connect to last byte (or to the failure), in microseconds.
    public var total: Int64
    /// Whether the sample passed its assertions.
    public var passed: Bool
}

/// A connection phase whose time the samples spread over.
public enum SamplePhase: String, Sendable, CaseIterable {
    case total, connect, tls, processing, transfer

    /// The name people's formats (text, HTML) use: `ttfb` for `processing`.
    var label: String { self == .processing ? "ttfb" : rawValue }

    /// This phase's time in `timings`.
    func time(in timings: ProbeTimings) -> Int64 {
        switch self {
        case .connect: timings.connect
        case .tls: timings.tls
        case .processing: timings.processing
        case .transfer: timings.transfer
        case .total: timings.total
        }
    }
}

/// One phase's spread over the samples.
public struct PhaseSpread: Sendable, Equatable {
    /// The phase.
    public var phase: SamplePhase
    /// Its times' minimum, percentiles and maximum, in microseconds.
    public var spread: SampleSpread
}

/// The minimum, nearest-rank 50th, 95th and 99th percentiles and maximum of a set of times (microseconds).
///
/// Nearest rank: the P-th percentile of n sorted values is the value at rank ⌈P/100 × n⌉ (counting from 1), always
/// one of the values measured: of 1…10 the 50th is 5, the 95th and 99th are 10; of [1, 2] the 50th is 1.
public struct SampleSpread: Sendable, Equatable {
    /// Microseconds: the least, the nearest-rank 50th, 95th and 99th percentiles, the greatest.
    public var min: Int64, p50: Int64, p95: Int64, p99: Int64, max: Int64

    /// The spread of `values` (at least one).
    init(_ values: [Int64]) {
        let sorted = values.sorted()
        min = sorted.first ?? 0
        max = sorted.last ?? 0
        p50 = Self.nearestRank(50, of: sorted)
        p95 = Self.nearestRank(95, of: sorted)
        p99 = Self.nearestRank(99, of: sorted)
    }

    /// The `percent`-th percentile of `sorted` (ascending) by the nearest-rank method; 0 for no values.
    static func nearestRank(_ percent: Int, of sorted: [Int64]) -> Int64 {
        guard !sorted.isEmpty else { return 0 }
        let rank = Swift.max(1, (percent * sorted.count + 99) / 100)
        return sorted[Swift.min(rank, sorted.count) - 1]
    }

    /// The five figures, named as reports name them.
    var named: [(name: String, value: Int64)] { [("min", min), ("p50", p50), ("p95", p95), ("p99", p99), ("max", max)] }

    /// The figure reports call `name` (`p95`).
    subscript(name: String) -> Int64 { named.first { $0.name == name }?.value ?? 0 }
}

/// Turns an address's samples into the one ``ProbeResult`` reports show, a sample at a time (``add(_:)``), keeping
/// of each sample only its phase times and outcome, so 10,000 samples cost about a megabyte: the result is the first
/// failed sample when more failed than ``CheckTarget/maxFailedSamples`` allows, else the last that passed; with
/// every sample's attempts (and retried failures, numbered by sample), its ``SampleSummary`` and the percentile
/// expectations (`p50_ms`, `p95_ms`, `p99_ms`) checked over the completed samples.
struct SampleAggregate {
    private var attempts = 0
    private var firstFailed: ProbeResult?, lastPassed: ProbeResult?, last: ProbeResult?
    /// The completed samples' phase times.
    private var completed: [ProbeTimings] = []
    /// One per sample so far (its count is the sample number).
    private var points: [SamplePoint] = []
    /// The failed samples' last attempts (one per failed sample).
    private var retried: [FailedAttempt] = [], failures: [FailedAttempt] = []
    /// Each distinct reason once: samples that fail alike share one string.
    private var reasons: [String: String] = [:]

    /// No sample yet.
    init() {}

    /// Takes the next sample.
    mutating func add(_ sample: ProbeResult) {
        points.append(SamplePoint(total: sample.timings.total, passed: sample.passed))
        let number = points.count
        attempts += sample.attempts
        retried += sample.retriedFailures.map { FailedAttempt(sample: number, attempt: $0.attempt, reason: shared($0.reason)) }
        if sample.error == nil { completed.append(sample.timings) }
        if sample.passed {
            lastPassed = sample
        } else {
            if firstFailed == nil { firstFailed = sample }
            failures.append(FailedAttempt(sample: number, attempt: sample.attempts, reason: shared(sample.reason)))
        }
        last = sample
    }

    /// `reason` as stored the first time it was seen.
    private mutating func shared(_ reason: String) -> String {
        if let known = reasons[reason] { return known }
        reasons[reason] = reason
        return reason
    }

    /// The samples so far as one result; `planned` when none ran (with no sample and no attempt).
    func result(planned: ProbeResult) -> ProbeResult {
        guard let last else {
            var result = planned
            result.samples.count = 0
            result.samples.completed = 0
            result.attempts = 0
            return result
        }
        let target = planned.target, count = points.count
        var result = failures.count <= target.maxFailedSamples ? lastPassed ?? last : firstFailed ?? last
        result.target = target
        result.samples.count = count
        result.samples.failed = failures.count
        result.samples.completed = completed.count
        result.attempts = attempts
        result.retriedFailures = retried
        if count > 1 { (result.samples.points, result.failedSamples) = (points, failures) }
        if count > 1, !completed.isEmpty {
            result.samples.spreads = SamplePhase.allCases.map { phase in
                PhaseSpread(phase: phase, spread: SampleSpread(completed.map { phase.time(in: $0) }))
            }
        }
        let limits = target.expect.percentileLimits
        guard !limits.isEmpty else { return result }
        let totals = result.samples.spreads.first { $0.phase == .total }?.spread
            ?? (completed.isEmpty ? nil : SampleSpread(completed.map(\.total)))
        for limit in limits {
            let expected = "≤ \(limit.ms) ms"
            guard let totals else {
                result.failures.append(AssertionFailure(assertion: limit.name, expected: expected, actual: "no completed sample"))
                continue
            }
            let value = totals[limit.name]
            if value > Int64(limit.ms) * 1000 {
                let over = completed.count == 1 ? "1 sample" : "\(completed.count) samples"
                result.failures.append(AssertionFailure(assertion: limit.name, expected: expected,
                                                        actual: "\(ReportFormat.milliseconds(value)) ms over \(over)"))
            }
        }
        return result
    }
}
