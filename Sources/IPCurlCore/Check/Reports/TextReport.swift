import HTTPDNS

/// `--format text`: the labels, a table with one row per probe, each probe's details (over more than one sample, the
/// sample counts and per phase min, p50, p95, p99 and max), the summary line and, with
/// `--compare-system`, the names whose system DNS answer differs. Every value from a server or a user goes through
/// ``Printable`` so it cannot move the cursor; colour (green PASS, red FAIL) only when asked.
enum TextReport {
    private static let header = ["RESULT", "TARGET", "ADDRESS", "STATUS", "HTTP", "TLS", "TOTAL(ms)", "CERT-DAYS", "REASON"]

    static func render(_ report: CheckReport, colour: Bool) -> String {
        var out = ""
        let labels = report.distinctLabels
        if !labels.isEmpty {
            out += "labels: " + labels.map { Printable.escaped($0.name) + "=" + Printable.quoted($0.value) }
                .joined(separator: ", ") + "\n\n"
        }
        out += table(report.probes.map { row($0, now: report.startedAt) }, colour: colour)
        out += "\n"
        for probe in report.probes { out += details(probe, now: report.startedAt) + "\n" }
        out += report.summaryLine + "\n"
        if !report.comparisons.isEmpty { out += comparisons(report.comparisons) }
        return out
    }

    private static func row(_ probe: ProbeResult, now: Int64) -> [String] {
        [
            probe.passed ? "PASS" : "FAIL", Printable.escaped(probe.target.name), probe.addressForm ?? "-",
            probe.status == 0 ? "-" : String(probe.status), probe.httpVersion == "0" ? "-" : Printable.escaped(probe.httpVersion),
            probe.tlsVersion?.number ?? "-", ReportFormat.milliseconds(probe.timings.total),
            probe.daysLeft(at: now).map(String.init) ?? "-", Printable.escaped(probe.reason),
        ]
    }

    /// Left-aligned columns two blanks apart; the last column is not padded.
    private static func table(_ rows: [[String]], colour: Bool) -> String {
        var widths = header.map(\.count)
        for row in rows { for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) } }
        func line(_ cells: [String], coloured: Bool) -> String {
            var text = ""
            for (column, cell) in cells.enumerated() {
                let shown = coloured && column == 0 ? paint(cell) : cell
                let padding = column == cells.count - 1 ? "" : String(repeating: " ", count: widths[column] - cell.count + 2)
                text += shown + padding
            }
            return text + "\n"
        }
        return line(header, coloured: false) + rows.map { line($0, coloured: colour) }.joined()
    }

    private static func paint(_ result: String) -> String {
        (result == "PASS" ? "\u{1B}[32m" : "\u{1B}[31m") + result + "\u{1B}[0m"
    }

    private static func details(_ probe: ProbeResult, now: Int64) -> String {
        var lines = [Printable.escaped(probe.title)]
        let source = probe.address == nil ? "not resolved" : probe.answerSource.isEmpty ? "IP literal" : "source " + Printable.escaped(probe.answerSource)
        var answer = [source]
        if !probe.family.isEmpty { answer.append(probe.family) }
        if !probe.connectedIP.isEmpty { answer.append("connected to " + Printable.escaped(probe.connectedIP)) }
        lines.append("answer: " + answer.joined(separator: ", "))
        let t = probe.timings
        let phases = [("dns", t.resolve), ("connect", t.connect), ("tls", t.tls), ("ttfb", t.processing),
                      ("transfer", t.transfer), ("total", t.total)]
        lines.append("timings (ms): " + phases.map { "\($0.0) \(ReportFormat.milliseconds($0.1))" }.joined(separator: ", "))
        if probe.showsAttempts {
            lines.append("attempts: \(probe.attempts)" + (probe.flaky ? ", flaky: passed after a failed attempt" : ""))
            lines += probe.retriedLines().map { "retried " + Printable.escaped($0) }
        }
        if probe.samples.count > 1 {
            lines.append("samples: \(probe.samples.count), \(probe.samples.failed) failed")
            lines += probe.failedSampleLines().map { "failed " + Printable.escaped($0) }
            lines += probe.samples.spreads.map { item in
                item.phase.label + " (ms): "
                    + item.spread.named.map { "\($0.name) " + ReportFormat.milliseconds($0.value) }.joined(separator: ", ")
            }
        }
        if let cert = probe.certificate {
            let days = cert.daysLeft(at: now)
            lines.append("certificate: subject " + Printable.quoted(cert.subject) + ", issuer " + Printable.quoted(cert.issuer))
            lines.append("SANs: " + (cert.subjectAlternativeNames.isEmpty ? "none"
                : cert.subjectAlternativeNames.map { Printable.escaped($0) }.joined(separator: ", ")))
            lines.append("notAfter \(ReportFormat.timestamp(cert.notAfter)), chain expires "
                + "\(ReportFormat.timestamp(cert.earliestNotAfter)) (\(days) days \(days < 0 ? "ago" : "left"))")
        }
        return lines[0] + "\n" + lines.dropFirst().map { "    " + $0 + "\n" }.joined()
    }

    private static func comparisons(_ comparisons: [NameComparison]) -> String {
        let differing = comparisons.filter(\.differs)
        guard !differing.isEmpty else { return "\nSystem DNS agrees with HTTPDNS for all \(comparisons.count) names.\n" }
        var out = "\nSystem DNS differs from HTTPDNS for \(differing.count) of \(comparisons.count) names:\n"
        for comparison in differing {
            let system = comparison.systemError.map { "error " + Printable.quoted($0) } ?? list(comparison.system)
            out += "  " + Printable.escaped(comparison.host) + "  httpdns " + list(comparison.httpdns) + "  system " + system + "\n"
        }
        return out
    }

    private static func list(_ addresses: [IPAddress]) -> String {
        addresses.isEmpty ? "none" : addresses.map(\.description).joined(separator: ", ")
    }
}
