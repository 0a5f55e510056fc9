#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CheckReport {
    /// The report in `format`; `colour` adds ANSI colours to the text table only (see ``wantsColour(fileDescriptor:)``).
    public func rendered(as format: CheckFormat, colour: Bool) -> String {
        switch format {
        case .text: TextReport.render(self, colour: colour)
        case .json: JSONReport.render(self)
        case .junit: JUnitReport.render(self)
        case .tap: TAPReport.render(self)
        case .openmetrics: OpenMetricsReport.render(self)
        case .html: HTMLReport.render(self)
        }
    }

    /// Whether the text report written to `fileDescriptor` should be coloured: it is a terminal and `NO_COLOR` is
    /// unset or empty (https://no-color.org).
    public static func wantsColour(fileDescriptor: Int32) -> Bool {
        wantsColour(fileDescriptor: fileDescriptor, noColor: getenv("NO_COLOR").map { String(cString: $0) })
    }

    /// The rule of ``wantsColour(fileDescriptor:)`` with `NO_COLOR`'s value given.
    static func wantsColour(fileDescriptor: Int32, noColor: String?) -> Bool {
        isatty(fileDescriptor) == 1 && (noColor ?? "").isEmpty
    }

    /// ``labels`` with repeated names dropped: the first occurrence wins (`--label` before the targets file's).
    var distinctLabels: [(name: String, value: String)] {
        var seen = Set<String>()
        return labels.filter { seen.insert($0.name).inserted }
    }

    /// The probes grouped by target name, names in the order they first appear.
    var probesByName: [(name: String, probes: [ProbeResult])] {
        var groups: [(name: String, probes: [ProbeResult])] = []
        var index: [String: Int] = [:]
        for probe in probes {
            if let at = index[probe.target.name] {
                groups[at].probes.append(probe)
            } else {
                index[probe.target.name] = groups.count
                groups.append((probe.target.name, [probe]))
            }
        }
        return groups
    }

    /// How many probes failed.
    var failedCount: Int { probes.count { !$0.passed } }

    /// `3 probes, 1 passed, 2 failed in 1.23s`; `2 passed (1 flaky)` when a passing probe had a failed attempt.
    var summaryLine: String {
        let failed = failedCount, flaky = probes.count(where: \.flaky)
        return (probes.count == 1 ? "1 probe" : "\(probes.count) probes") + ", \(probes.count - failed) passed"
            + (flaky > 0 ? " (\(flaky) flaky)" : "") + ", \(failed) failed in "
            + ReportFormat.fixed(durationMicroseconds, unit: 1_000_000, digits: 2) + "s"
    }
}

extension ProbeResult {
    /// Whether the people's formats (text, HTML) show the attempts: a retry happened, or the probe is flaky.
    var showsAttempts: Bool { attempts > samples.count || flaky }

    /// The retried failures for people: one line per attempt number and reason, the samples it happened in folded
    /// into ranges (`attempt 1 of samples 1-3, 7: status: expected 2xx, got 503`; `attempt 1: …` without sampling),
    /// at most `limit` lines and then how many more.
    func retriedLines(limit: Int = 20) -> [String] {
        folded(retriedFailures, byAttempt: true, limit: limit)
    }

    /// The failed samples for people, one line per reason: `samples 2, 5: exit 7: …`; at most `limit` lines.
    func failedSampleLines(limit: Int = 20) -> [String] {
        folded(failedSamples, byAttempt: false, limit: limit)
    }

    /// `failures` grouped by reason (and attempt number, `byAttempt`) in the order first seen, each group's samples
    /// as ranges. Grouped through a dictionary: 1000 samples × 100 retries, each reason distinct (a header value that
    /// changes per response), must not compare every failure with every group.
    private func folded(_ failures: [FailedAttempt], byAttempt: Bool, limit: Int) -> [String] {
        var groups: [(attempt: Int, reason: String, samples: [Int])] = []
        var index: [FailedAttempt.Group: Int] = [:]
        for failure in failures {
            let key = FailedAttempt.Group(attempt: byAttempt ? failure.attempt : 0, reason: failure.reason)
            if let found = index[key] {
                groups[found].samples.append(failure.sample)
            } else {
                index[key] = groups.count
                groups.append((key.attempt, failure.reason, [failure.sample]))
            }
        }
        var lines = groups.prefix(limit).map { group in
            let which = (group.samples.count == 1 ? "sample " : "samples ") + ranges(group.samples)
            guard byAttempt else { return which + ": " + group.reason }
            return "attempt \(group.attempt)" + (samples.count > 1 ? " of " + which : "") + ": " + group.reason
        }
        if groups.count > limit { lines.append("and \(groups.count - limit) more") }
        return lines
    }

    /// `1-3, 7` for ascending `numbers`.
    private func ranges(_ numbers: [Int]) -> String {
        var parts: [String] = [], start = numbers[0], end = numbers[0]
        for number in numbers.dropFirst() + [Int.min] {
            if number == end + 1 { end = number; continue }
            parts.append(start == end ? "\(start)" : "\(start)-\(end)")
            (start, end) = (number, number)
        }
        return parts.joined(separator: ", ")
    }

    /// The address as reports name it: `127.0.0.2`, `[::1]`; `nil` when the name did not resolve.
    var addressForm: String? { address?.resolveEntryForm }

    /// `api [127.0.0.2] https://a.test/`; no brackets without an address, no name when it is the URL.
    var title: String {
        let parts = [target.name == target.url ? nil : target.name, address.map { "[\($0)]" }, target.url]
        return parts.compactMap { $0 }.joined(separator: " ")
    }

    /// Whole days to the chain's earliest expiry at `now`; `nil` without a certificate.
    func daysLeft(at now: Int64) -> Int? { certificate?.daysLeft(at: now) }

    /// The failure's type: the first failed assertion's name, or `curl_error_<exit code>`; `nil` when passed.
    var failureType: String? {
        if let error { return "curl_error_\(error.exitCode)" }
        return failures.first?.assertion
    }
}

extension FailedAttempt {
    /// What failed attempts fold by for people: the attempt number (0 when it does not matter) and the reason.
    struct Group: Hashable {
        let attempt: Int
        let reason: String
    }
}

/// Number and time spellings shared by the report formats.
enum ReportFormat {
    /// `micro` divided by `unit`, rounded half away from zero to `digits` decimals: `fixed(1_234_567, unit: 1_000_000,
    /// digits: 3)` is `1.235`.
    static func fixed(_ micro: Int64, unit: Int64, digits: Int) -> String {
        var step: UInt64 = 1
        for _ in 0..<digits { step *= 10 }
        let scaled = (micro.magnitude * step + UInt64(unit) / 2) / UInt64(unit)
        let sign = micro < 0 && scaled > 0 ? "-" : ""
        guard digits > 0 else { return sign + String(scaled) }
        let fraction = String(scaled % step)
        return sign + String(scaled / step) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    /// Seconds with microsecond precision: `0.001234`.
    static func seconds(_ micro: Int64) -> String { fixed(micro, unit: 1_000_000, digits: 6) }

    /// Milliseconds with one decimal: `12.3`.
    static func milliseconds(_ micro: Int64) -> String { fixed(micro, unit: 1_000, digits: 1) }

    /// RFC 3339 UTC: `2026-07-01T00:00:00Z`.
    static func timestamp(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        var buffer = [CChar](repeating: 0, count: 32)
        guard gmtime_r(&time, &parts) != nil, strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts) > 0 else {
            return String(seconds)
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
