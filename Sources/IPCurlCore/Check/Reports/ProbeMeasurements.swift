/// A probe's measurements as `key: value` lines (JUnit's `<system-out>`), unescaped: the caller escapes for its
/// format. Times are in seconds, timestamps RFC 3339. `attempts: N` (marked flaky when it passed after a failed
/// attempt) and a `retried:` line per failed attempt `--retries` tried again. Over more than one sample a `failed:`
/// line per reason a sample failed for, and, the sample counts and per phase
/// `sample_time_<phase>: min …s, p50 …s, p95 …s, p99 …s, max …s`.
enum ProbeMeasurements {
    static func lines(_ probe: ProbeResult, now: Int64) -> [String] {
        var lines = [
            "result: " + (probe.passed ? "pass" : "fail") + " (" + probe.reason + ")",
            "target: " + probe.target.name, "url: " + probe.target.url, "method: " + probe.target.method,
            "address: " + (probe.address?.description ?? "none") + (probe.family.isEmpty ? "" : " (\(probe.family))"),
            "answer_source: " + (probe.answerSource.isEmpty ? "none" : probe.answerSource),
            "connected_ip: " + (probe.connectedIP.isEmpty ? "none" : probe.connectedIP),
        ]
        let t = probe.timings
        let phases = [("resolve", t.resolve), ("connect", t.connect), ("tls", t.tls), ("processing", t.processing),
                      ("transfer", t.transfer), ("total", t.total)]
        lines += phases.map { "time_\($0.0): " + ReportFormat.seconds($0.1) + "s" }
        lines += [
            "status: " + (probe.status == 0 ? "none" : String(probe.status)),
            "http_version: " + (probe.httpVersion == "0" ? "none" : probe.httpVersion),
            "tls_version: " + (probe.tlsVersion?.number ?? "none"),
        ]
        lines.append("attempts: \(probe.attempts)" + (probe.flaky ? " (flaky: passed after a failed attempt)" : ""))
        lines += probe.retriedLines().map { "retried: " + $0 }
        if probe.samples.count > 1 {
            lines += ["samples: \(probe.samples.count)", "failed_samples: \(probe.samples.failed)"]
            lines += probe.failedSampleLines().map { "failed: " + $0 }
            lines += probe.samples.spreads.map { item in
                "sample_time_\(item.phase.rawValue): " + item.spread.named.map { "\($0.name) " + ReportFormat.seconds($0.value) + "s" }
                    .joined(separator: ", ")
            }
        }
        if let cert = probe.certificate {
            lines += [
                "cert_subject: " + cert.subject, "cert_issuer: " + cert.issuer,
                "cert_sans: " + cert.subjectAlternativeNames.joined(separator: ", "),
                "cert_not_after: " + ReportFormat.timestamp(cert.notAfter),
                "cert_earliest_not_after: " + ReportFormat.timestamp(cert.earliestNotAfter),
                "cert_days_left: \(cert.daysLeft(at: now))",
            ]
        }
        return lines
    }
}
