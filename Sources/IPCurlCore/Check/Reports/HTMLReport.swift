import HTTPDNS

/// `--format html`: one self-contained page (inline `<style>` with a print stylesheet, inline SVG, no script and no
/// URL fetched from anywhere) that reads without JavaScript. It shows the summary (verdict, run time, names with
/// their resolver and lookup time, labels), a table of every probe, then one section per address, failures first:
/// the reason, the phase waterfall (``HTMLWaterfall``), with samples their distribution (``HTMLDistribution``), the certificate with its days left (highlighted under the
/// target's `min_cert_days`) and the answer. Every string from a server or a user goes through ``HTMLText``.
/// Colours are the Okabe–Ito palette, and every colour has the words PASS or FAIL (or the phase's name) beside it,
/// so neither colour vision nor a colour printer is needed.
enum HTMLReport {
    static func render(_ report: CheckReport) -> String {
        let ordered = report.probes.filter { !$0.passed } + report.probes.filter(\.passed)
        let scale = report.probes.map { $0.timings.resolve + $0.timings.total }.max() ?? 0
        let sampleScale = HTMLDistribution.scale(report.probes)
        let verdict = report.passed ? "PASS" : "FAIL", summary = HTMLText.escape(report.summaryLine)
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            + "<title>ipcurl check: \(verdict), \(summary)</title>\n"
            + "<style>\n" + HTMLStyle.sheet + "</style>\n</head>\n<body>\n"
        out += "<header>\n<h1>ipcurl check " + badge(report.passed) + "</h1>\n"
        out += "<p class=\"summary\">" + summary + ", started "
            + ReportFormat.timestamp(report.startedAt) + "</p>\n" + summaryList(report) + "</header>\n"
        out += probeTable(ordered, now: report.startedAt)
        out += "<main>\n"
        for (index, probe) in ordered.enumerated() {
            out += section(probe, index: index, scale: scale, sampleScale: sampleScale, now: report.startedAt)
        }
        out += "</main>\n"
        if !report.comparisons.isEmpty { out += comparisons(report.comparisons) }
        return out + "</body>\n</html>\n"
    }

    /// `PASS` on Okabe–Ito blue with a tick, `FAIL` on vermillion with a cross: the word and the mark carry the meaning.
    static func badge(_ passed: Bool) -> String {
        passed ? "<span class=\"badge pass\">&#10003; PASS</span>" : "<span class=\"badge fail\">&#10007; FAIL</span>"
    }

    /// A pass that needed a retry or had a failed sample: the word, on yellow with a border.
    static let flakyMark = "<mark class=\"short\">&#9888; FLAKY</mark>"

    private static func summaryList(_ report: CheckReport) -> String {
        let names = report.probesByName
        var out = "<table class=\"names\">\n<caption>Names: resolved once each, every address probed</caption>\n"
            + "<thead><tr><th>Result</th><th>Name</th><th>Addresses</th><th>Resolver</th><th>Lookup (ms)</th></tr></thead>\n<tbody>\n"
        for entry in names {
            let passed = entry.probes.allSatisfy(\.passed)
            let addresses = entry.probes.map { $0.addressForm ?? "not resolved" }
            let sources = entry.probes.map { $0.address == nil ? "none" : $0.answerSource.isEmpty ? "IP literal" : $0.answerSource }
            out += "<tr class=\"\(passed ? "pass" : "fail")\"><td>" + badge(passed) + "</td><td>" + HTMLText.escape(entry.name)
                + "</td><td>" + HTMLText.escape(addresses.joined(separator: ", ")) + "</td><td>"
                + HTMLText.escape(unique(sources).joined(separator: ", ")) + "</td><td class=\"number\">"
                + lookupTime(entry.probes[0].timings) + "</td></tr>\n"
        }
        out += "</tbody>\n</table>\n"
        let labels = report.distinctLabels
        if !labels.isEmpty {
            out += "<dl class=\"labels\">\n" + labels.map {
                "<dt>" + HTMLText.escape($0.name) + "</dt><dd>" + HTMLText.escape($0.value) + "</dd>\n"
            }.joined() + "</dl>\n"
        }
        return out
    }

    /// A name's lookup milliseconds, and when it is a batch's, the size of the batch.
    private static func lookupTime(_ timings: ProbeTimings) -> String {
        ReportFormat.milliseconds(timings.resolve)
            + (timings.resolveNames > 1 ? " (lookup of the batch of \(timings.resolveNames) names)" : "")
    }

    private static func probeTable(_ probes: [ProbeResult], now: Int64) -> String {
        var out = "<table class=\"probes\">\n<caption>Probes, failures first</caption>\n<thead><tr><th>Result</th><th>Name</th>"
            + "<th>Address</th><th>Status</th><th>HTTP</th><th>TLS</th><th>Total (ms)</th><th>Cert days</th><th>Reason</th></tr></thead>\n<tbody>\n"
        for (index, probe) in probes.enumerated() {
            let cells = [
                HTMLText.escape(probe.target.name), HTMLText.escape(probe.addressForm ?? "-"),
                probe.status == 0 ? "-" : String(probe.status),
                probe.httpVersion == "0" ? "-" : HTMLText.escape(probe.httpVersion), probe.tlsVersion?.number ?? "-",
                ReportFormat.milliseconds(probe.timings.total), certificateDays(probe, now: now, long: false),
                HTMLText.escape(probe.reason),
            ]
            out += "<tr class=\"\(probe.passed ? "pass" : "fail")\"><td>" + badge(probe.passed) + (probe.flaky ? " " + flakyMark : "")
                + " <a href=\"#probe-\(index)\">details</a></td>"
                + cells.map { "<td>" + $0 + "</td>" }.joined() + "</tr>\n"
        }
        return out + "</tbody>\n</table>\n"
    }

    private static func section(_ probe: ProbeResult, index: Int, scale: Int64, sampleScale: Int64, now: Int64) -> String {
        var out = "<section id=\"probe-\(index)\" class=\"probe \(probe.passed ? "pass" : "fail")\">\n<h2>" + badge(probe.passed)
            + " " + HTMLText.escape(probe.title) + "</h2>\n"
        out += "<p class=\"reason\"><strong>\(probe.passed ? "PASS" : "FAIL"):</strong> " + HTMLText.escape(probe.reason) + "</p>\n"
        out += HTMLWaterfall.svg(probe.timings, error: probe.error, id: "w\(index)", scale: scale)
        out += HTMLDistribution.html(probe, id: "d\(index)", scale: sampleScale)
        var facts: [(String, String)] = []
        let source = probe.address == nil ? "not resolved" : probe.answerSource.isEmpty ? "IP literal" : probe.answerSource
        facts.append(("Answer", HTMLText.escape(source) + (probe.family.isEmpty ? "" : ", " + probe.family)))
        facts.append(("Connected to", HTMLText.escape(probe.connectedIP.isEmpty ? "no connection" : probe.connectedIP)))
        facts.append(("Method", HTMLText.escape(probe.target.method)))
        if !probe.failedSamples.isEmpty {
            facts.append(("Failed samples", "<ul class=\"retried\">" + probe.failedSampleLines().map { "<li>" + HTMLText.escape($0) + "</li>" }
                .joined() + "</ul>"))
        }
        if probe.showsAttempts {
            facts.append(("Attempts", "\(probe.attempts)" + (probe.flaky ? " " + flakyMark : "")))
            if !probe.retriedFailures.isEmpty {
                facts.append(("Retried", "<ul class=\"retried\">" + probe.retriedLines().map { "<li>" + HTMLText.escape($0) + "</li>" }
                    .joined() + "</ul>"))
            }
        }
        if let cert = probe.certificate {
            facts.append(("Certificate subject", HTMLText.escape(cert.subject)))
            facts.append(("Issuer", HTMLText.escape(cert.issuer)))
            facts.append(("SANs", HTMLText.escape(cert.subjectAlternativeNames.joined(separator: ", "))))
            facts.append(("Chain expires", ReportFormat.timestamp(cert.earliestNotAfter) + ", " + certificateDays(probe, now: now, long: true)))
        }
        out += "<dl class=\"facts\">\n" + facts.map { "<dt>\($0.0)</dt><dd>\($0.1)</dd>\n" }.joined() + "</dl>\n"
        return out + "</section>\n"
    }

    /// Days left, marked `below N` (and highlighted) under the target's `min_cert_days`, `expired` below zero.
    static func certificateDays(_ probe: ProbeResult, now: Int64, long: Bool) -> String {
        guard let days = probe.daysLeft(at: now) else { return "-" }
        let text = long ? "\(days) days \(days < 0 ? "ago" : "left")" : String(days)
        if let minimum = probe.target.expect.minCertDays, days < minimum {
            return "<mark class=\"short\">" + text + " &#9888; FAIL: below \(minimum)</mark>"
        }
        if days < 0 { return "<mark class=\"short\">" + text + " &#9888; expired</mark>" }
        return text
    }

    private static func comparisons(_ comparisons: [NameComparison]) -> String {
        var out = "<section class=\"comparisons\">\n<h2>System DNS beside HTTPDNS</h2>\n<table>\n<thead><tr><th>Same?</th>"
            + "<th>Name</th><th>HTTPDNS</th><th>System</th></tr></thead>\n<tbody>\n"
        for comparison in comparisons {
            let system = comparison.systemError.map { "error: " + $0 } ?? list(comparison.system)
            out += "<tr><td>" + (comparison.differs ? "<span class=\"badge fail\">&#8800; DIFFERS</span>" : "<span class=\"badge pass\">= SAME</span>")
                + "</td><td>" + HTMLText.escape(comparison.host) + "</td><td>" + list(comparison.httpdns) + "</td><td>"
                + HTMLText.escape(system) + "</td></tr>\n"
        }
        return out + "</tbody>\n</table>\n</section>\n"
    }

    private static func list(_ addresses: [IPAddress]) -> String {
        addresses.isEmpty ? "none" : addresses.map(\.description).joined(separator: ", ")
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}
