import HTTPDNS

/// `--format json`: one JSON document with snake_case keys, numbers as numbers, times in seconds (microsecond
/// precision), timestamps in RFC 3339, and `null` where a value is absent (no address, no response, no TLS).
///
///     {"labels":{..},"started_at":"..","duration_seconds":1.2,"passed":false,
///      "summary":{"probes":3,"passed":1,"failed":2},"probes":[{..,"labels":{..},"samples":{"count":1,"failed":0}}],
///      "names":[{"host":"a.test","httpdns":[..],"system":[..],"system_error":null,"differs":true}]}
///
/// Every record says how many transfers it took (`attempts`, retries included), whether it passed only after a
/// failed attempt (`flaky`), which attempts `--retries` tried again (`retried_failures`: sample, attempt, reason) and,
/// over more than one sample, why each failed sample failed (`failed_samples`, the same fields).
/// With `--samples N` above 1 a record also has `sample_timings`: per phase (`total`, `connect`, `tls`,
/// `processing`, `transfer`) the completed samples' `min_seconds`, `p50_seconds`, `p95_seconds`, `p99_seconds`, `max_seconds`.
enum JSONReport {
    static func render(_ report: CheckReport) -> String {
        let failed = report.failedCount
        let labels = "{" + report.distinctLabels.map { quoted($0.name) + ":" + quoted($0.value) }.joined(separator: ",") + "}"
        let members = [
            "\"labels\":" + labels,
            "\"started_at\":" + quoted(ReportFormat.timestamp(report.startedAt)),
            "\"duration_seconds\":" + ReportFormat.seconds(report.durationMicroseconds),
            "\"passed\":\(report.passed)",
            "\"summary\":{\"probes\":\(report.probes.count),\"passed\":\(report.probes.count - failed),\"failed\":\(failed)}",
            "\"probes\":[" + report.probes.map { probe($0, labels: labels, now: report.startedAt) }.joined(separator: ",") + "]",
            "\"names\":[" + report.comparisons.map(name).joined(separator: ",") + "]",
        ]
        return "{" + members.joined(separator: ",") + "}\n"
    }

    /// One probe's record; `labels` (the report's, as a JSON object) go on every record, so records gathered from
    /// many reports can still be told apart.
    private static func probe(_ probe: ProbeResult, labels: String, now: Int64) -> String {
        let t = probe.timings
        let timings: [(String, Int64)] = [("resolve", t.resolve), ("connect", t.connect), ("tls", t.tls), ("processing", t.processing),
                       ("transfer", t.transfer), ("total", t.total)]
        let error = probe.error.map { "{\"exit_code\":\($0.exitCode),\"message\":\(quoted($0.message))}" } ?? "null"
        let failures = probe.failures.map {
            "{\"assertion\":\(quoted($0.assertion)),\"expected\":\(quoted($0.expected)),\"actual\":\(quoted($0.actual))}"
        }
        var fields: [(String, String)] = [
            ("passed", "\(probe.passed)"), ("reason", quoted(probe.reason)), ("name", quoted(probe.target.name)),
            ("url", quoted(probe.target.url)), ("method", quoted(probe.target.method)),
            ("address", optional(probe.address?.description)), ("family", optional(probe.family)),
            ("answer_source", optional(probe.answerSource)), ("connected_ip", optional(probe.connectedIP)),
            ("error", error), ("failures", "[" + failures.joined(separator: ",") + "]"),
            ("timings", "{" + timings.map { "\"\($0.0)_seconds\":" + ReportFormat.seconds($0.1) }.joined(separator: ",") + "}"),
            ("status", probe.status == 0 ? "null" : String(probe.status)),
            ("http_version", optional(probe.httpVersion == "0" ? "" : probe.httpVersion)),
            ("tls_version", optional(probe.tlsVersion?.number)),
            ("certificate", probe.certificate.map { certificate($0, now: now) } ?? "null"), ("labels", labels),
            ("samples", "{\"count\":\(probe.samples.count),\"failed\":\(probe.samples.failed)}"),
            ("attempts", String(probe.attempts)), ("flaky", "\(probe.flaky)"),
            ("retried_failures", attempts(probe.retriedFailures)), ("failed_samples", attempts(probe.failedSamples)),
        ]
        if !probe.samples.spreads.isEmpty { fields.append(("sample_timings", sampleTimings(probe.samples.spreads))) }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// `[{"sample":1,"attempt":1,"reason":".."}]`.
    private static func attempts(_ failures: [FailedAttempt]) -> String {
        "[" + failures.map { "{\"sample\":\($0.sample),\"attempt\":\($0.attempt),\"reason\":\(quoted($0.reason))}" }
            .joined(separator: ",") + "]"
    }

    /// `{"total":{"min_seconds":..,"p50_seconds":..,"p95_seconds":..,"p99_seconds":..,"max_seconds":..},"connect":..}`.
    private static func sampleTimings(_ spreads: [PhaseSpread]) -> String {
        "{" + spreads.map { item in
            "\"\(item.phase.rawValue)\":{" + item.spread.named.map { "\"\($0.name)_seconds\":" + ReportFormat.seconds($0.value) }
                .joined(separator: ",") + "}"
        }.joined(separator: ",") + "}"
    }

    private static func certificate(_ cert: CertificateSummary, now: Int64) -> String {
        let fields: [(String, String)] = [
            ("subject", quoted(cert.subject)),
            ("subject_alternative_names", "[" + cert.subjectAlternativeNames.map(quoted).joined(separator: ",") + "]"),
            ("issuer", quoted(cert.issuer)), ("not_after", quoted(ReportFormat.timestamp(cert.notAfter))),
            ("earliest_not_after", quoted(ReportFormat.timestamp(cert.earliestNotAfter))),
            ("days_left", String(cert.daysLeft(at: now))),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    private static func name(_ comparison: NameComparison) -> String {
        let addresses = { (list: [IPAddress]) in "[" + list.map { quoted($0.description) }.joined(separator: ",") + "]" }
        return "{\"host\":\(quoted(comparison.host)),\"httpdns\":\(addresses(comparison.httpdns)),"
            + "\"system\":\(addresses(comparison.system)),\"system_error\":\(optional(comparison.systemError)),"
            + "\"differs\":\(comparison.differs)}"
    }

    private static func quoted(_ text: String) -> String { JSONString.quoted(text) }

    /// A JSON string, or `null` for `nil` and the empty string.
    private static func optional(_ text: String?) -> String {
        guard let text, !text.isEmpty else { return "null" }
        return quoted(text)
    }
}
