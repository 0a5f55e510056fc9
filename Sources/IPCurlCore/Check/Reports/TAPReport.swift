import HTTPDNS

/// `--format tap`: TAP version 13. One test line per probe (`ok 1 - api [127.0.0.2] https://a.test/`), each followed
/// by a YAML diagnostics block with the measurements and, for a failure, `message`, `severity`, `expected`, `got` and
/// every failed assertion (with `samples`, `attempts`, `flaky`, `retried_failures`, `failed_samples`, and over more than one sample `sample_timings_seconds` per phase); the summary and the system DNS comparisons follow as `#` comments.
///
/// Strings in the YAML block are double-quoted with only the escapes both YAML 1.2 and Perl's `TAP::Parser`
/// (YAMLish) read: `\\ \" \n \r \t \xHH`.
enum TAPReport {
    static func render(_ report: CheckReport) -> String {
        var out = "TAP version 13\n1..\(report.probes.count)\n"
        for (index, probe) in report.probes.enumerated() {
            out += (probe.passed ? "ok" : "not ok") + " \(index + 1) - " + description(probe.title) + "\n"
            out += "  ---\n" + diagnostics(probe, labels: report.distinctLabels, now: report.startedAt)
                .map { "  " + $0 + "\n" }.joined() + "  ...\n"
        }
        out += "# " + report.summaryLine + "\n"
        for comparison in report.comparisons {
            let system = comparison.systemError.map { "error " + $0 } ?? comparison.system.map(\.description).joined(separator: ",")
            out += "# dns " + description(comparison.host) + ": httpdns " + comparison.httpdns.map(\.description).joined(separator: ",")
                + "; system " + description(system) + (comparison.differs ? " (differs)" : " (same)") + "\n"
        }
        return out
    }

    /// A test description on one line that starts no directive: every control character (line breaks, ESC, C1)
    /// written as visible `\xNN` text by ``Printable``, then TAP 14's escapes, `\\` for a backslash and `\#` for the
    /// `#` that would start a directive.
    private static func description(_ text: String) -> String {
        var out = ""
        for scalar in Printable.escaped(text).unicodeScalars {
            switch scalar {
            case "#": out += "\\#"
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func diagnostics(_ probe: ProbeResult, labels: [(name: String, value: String)], now: Int64) -> [String] {
        var lines = [
            "name: " + yaml(probe.target.name), "url: " + yaml(probe.target.url), "method: " + yaml(probe.target.method),
            "address: " + optional(probe.address?.description), "family: " + optional(probe.family),
            "answer_source: " + optional(probe.answerSource), "connected_ip: " + optional(probe.connectedIP),
            "reason: " + yaml(probe.reason),
            "status: " + (probe.status == 0 ? "~" : String(probe.status)),
            "http_version: " + optional(probe.httpVersion == "0" ? nil : probe.httpVersion),
            "tls_version: " + optional(probe.tlsVersion?.number), "timings_seconds:",
        ]
        let t = probe.timings
        lines += [("resolve", t.resolve), ("connect", t.connect), ("tls", t.tls), ("processing", t.processing),
                  ("transfer", t.transfer), ("total", t.total)].map { "  \($0.0): " + ReportFormat.seconds($0.1) }
        if let cert = probe.certificate {
            lines += [
                "certificate:", "  subject: " + yaml(cert.subject), "  issuer: " + yaml(cert.issuer),
                "  subject_alternative_names:" + (cert.subjectAlternativeNames.isEmpty ? " []" : ""),
            ]
            lines += cert.subjectAlternativeNames.map { "    - " + yaml($0) }
            lines += ["  not_after: " + yaml(ReportFormat.timestamp(cert.notAfter)),
                      "  earliest_not_after: " + yaml(ReportFormat.timestamp(cert.earliestNotAfter)),
                      "  days_left: \(cert.daysLeft(at: now))"]
        } else {
            lines.append("certificate: ~")
        }
        lines += ["samples:", "  count: \(probe.samples.count)", "  failed: \(probe.samples.failed)"]
        lines += ["attempts: \(probe.attempts)", "flaky: \(probe.flaky)",
                  "retried_failures:" + (probe.retriedFailures.isEmpty ? " []" : "")]
        lines += attempts(probe.retriedFailures)
        lines.append("failed_samples:" + (probe.failedSamples.isEmpty ? " []" : ""))
        lines += attempts(probe.failedSamples)
        if !probe.samples.spreads.isEmpty {
            lines.append("sample_timings_seconds:")
            for item in probe.samples.spreads {
                lines.append("  \(item.phase.rawValue):")
                lines += item.spread.named.map { "    \($0.name): " + ReportFormat.seconds($0.value) }
            }
        }
        lines.append("labels:" + (labels.isEmpty ? " {}" : ""))
        lines += labels.map { "  " + yaml($0.name) + ": " + yaml($0.value) }
        if !probe.passed { lines += failure(probe) }
        return lines
    }

    /// A YAML list of `sample`, `attempt`, `reason` mappings.
    private static func attempts(_ failures: [FailedAttempt]) -> [String] {
        failures.flatMap { ["  - sample: \($0.sample)", "    attempt: \($0.attempt)", "    reason: " + yaml($0.reason)] }
    }

    private static func failure(_ probe: ProbeResult) -> [String] {
        var lines = ["message: " + yaml(probe.reason), "severity: fail"]
        if let error = probe.error {
            lines += ["expected: " + yaml("a completed transfer"), "got: " + yaml("curl exit \(error.exitCode): \(error.message)")]
            if probe.failures.isEmpty { return lines }
        } else if let first = probe.failures.first {
            lines += ["expected: " + yaml(first.expected), "got: " + yaml(first.actual)]
        }
        lines.append("failures:")
        for failure in probe.failures {
            lines += ["  - assertion: " + yaml(failure.assertion), "    expected: " + yaml(failure.expected),
                      "    got: " + yaml(failure.actual)]
        }
        return lines
    }

    private static func optional(_ text: String?) -> String {
        guard let text, !text.isEmpty else { return "~" }
        return yaml(text)
    }

    /// A YAML double-quoted scalar: `"` and `\` escaped, line feed, carriage return and TAB as `\n \r \t`, every
    /// other control (C0, DEL, C1) as `\xHH`, which YAML 1.2 and YAMLish both read back as that character.
    static func yaml(_ text: String) -> String {
        JSONString.backslashQuoted(text) { value in
            guard value < 0x20 || (0x7F...0x9F).contains(value) else { return nil }
            return "\\x" + (value < 0x10 ? "0" : "") + String(value, radix: 16)
        }
    }
}
