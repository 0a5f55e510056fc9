/// One address's samples (`--samples N`) as an inline SVG strip plot of their total times, on a scale shared by the
/// whole report so addresses compare by position: a filled circle per sample that passed, a cross per sample that
/// failed (shape, not only colour, tells them apart), spread over the strip's height at golden-ratio steps so equal
/// times stay apart; a line per nearest-rank percentile (p50 solid, p95 dashed, p99 dotted) with its name and
/// milliseconds above the strip (no band for them when no sample completed); and the target's
/// `p50_ms`/`p95_ms`/`p99_ms` limits as marked lines. Below it, a table of every phase's spread, which is also what a
/// reader without SVG gets.
enum HTMLDistribution {
    private static let labelWidth = HTMLChart.labelWidth, plotWidth = HTMLChart.plotWidth
    /// The band above the strip holding the percentile labels, the strip's height, and the margin inside it.
    private static let labelBand = 40, stripHeight = 52, stripMargin = 5
    /// 1/φ: successive multiples of it modulo 1 fill [0, 1) evenly (Weyl's equidistribution; for 5 samples the
    /// closest two are 0.146 of the height apart, 6 px of the strip's 42).
    private static let goldenStep = 0.618_033_988_749_894_8

    /// The plot and the table, or one line for a single sample.
    static func html(_ probe: ProbeResult, id: String, scale: Int64) -> String {
        let samples = probe.samples
        guard samples.count > 1 else {
            return "<p class=\"distribution\">Latency: 1 sample, total " + ReportFormat.milliseconds(probe.timings.total) + " ms</p>\n"
        }
        var out = "<p class=\"distribution\">Latency over \(samples.count) samples, \(samples.failed) failed"
            + (samples.completed < samples.count ? ", \(samples.count - samples.completed) without a completed transfer" : "") + "</p>\n"
        out += svg(probe, id: id, scale: scale)
        out += table(samples.spreads)
        return out
    }

    /// The largest sample total or percentile limit over the sampled `probes`: the report's shared scale.
    static func scale(_ probes: [ProbeResult]) -> Int64 {
        probes.filter { $0.samples.count > 1 }.map { probe in
            let limits = probe.target.expect.percentileLimits.map { Int64($0.ms) * 1000 }
            return (probe.samples.points.map(\.total) + limits).max() ?? 0
        }.max() ?? 0
    }

    private static func svg(_ probe: ProbeResult, id: String, scale: Int64) -> String {
        let points = probe.samples.points
        let total = probe.samples.spreads.first { $0.phase == .total }?.spread
        let stripTop = (total == nil ? 0 : labelBand) + 4
        let height = stripTop + stripHeight + 24
        var title = "Total time of \(points.count) samples"
        if let total {
            title += ": " + total.named.map { "\($0.name) \(ReportFormat.milliseconds($0.value)) ms" }.joined(separator: ", ")
        }
        title += "; \(probe.samples.failed) failed"
        var out = HTMLChart.open(class: "distribution", id: id, height: height, title: title)
        out += "<text x=\"0\" y=\"\(stripTop + 16)\">total (ms)</text>\n"
        out += "<text x=\"0\" y=\"\(stripTop + 32)\">&#9679; pass &#10005; fail</text>\n"
        out += "<rect x=\"\(labelWidth)\" y=\"\(stripTop)\" width=\"\(plotWidth)\" height=\"\(stripHeight)\" fill=\"#f4f4f4\" stroke=\"#999\" stroke-width=\"0.5\"/>\n"
        for (index, point) in points.enumerated() {
            let x = labelWidth + HTMLChart.position(point.total, scale)
            // Sample k at the fractional part of k/φ of the usable height: a low-discrepancy scatter, so equal times
            // stay apart however many there are.
            let usable = Double(stripHeight - 2 * stripMargin)
            let fraction = (Double(index) * goldenStep).truncatingRemainder(dividingBy: 1)
            let y = stripTop + stripMargin + Int((fraction * usable).rounded())
            out += point.passed
                ? "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"3\" fill=\"#0072B2\" fill-opacity=\"0.6\" stroke=\"#000\" stroke-width=\"0.4\"/>\n"
                : "<path d=\"M\(x - 4) \(y - 4)L\(x + 4) \(y + 4)M\(x + 4) \(y - 4)L\(x - 4) \(y + 4)\" stroke=\"#D55E00\" stroke-width=\"2\"/>\n"
        }
        if let total {
            let marks: [(String, Int64, String)] = [("p50", total.p50, ""), ("p95", total.p95, "6 3"), ("p99", total.p99, "2 2")]
            for (row, mark) in marks.enumerated() {
                let x = labelWidth + HTMLChart.position(mark.1, scale)
                out += "<line x1=\"\(x)\" y1=\"\(12 * row + 4)\" x2=\"\(x)\" y2=\"\(stripTop + stripHeight)\" stroke=\"#000\""
                    + (mark.2.isEmpty ? "" : " stroke-dasharray=\"\(mark.2)\"") + "/>\n"
                out += "<text class=\"value\" x=\"\(x + 4)\" y=\"\(12 * row + 12)\">\(mark.0) \(ReportFormat.milliseconds(mark.1)) ms</text>\n"
            }
        }
        for (row, limit) in probe.target.expect.percentileLimits.enumerated() {
            let x = labelWidth + HTMLChart.position(Int64(limit.ms) * 1000, scale)
            out += "<line x1=\"\(x)\" y1=\"\(stripTop - 4)\" x2=\"\(x)\" y2=\"\(stripTop + stripHeight + 4)\" stroke=\"#D55E00\" stroke-width=\"2\" stroke-dasharray=\"1 3\"/>\n"
            // A legend key: the limit line's own stroke beside its name.
            let keyY = stripTop + 14 * row
            out += "<line x1=\"\(labelWidth + plotWidth + 10)\" y1=\"\(keyY)\" x2=\"\(labelWidth + plotWidth + 10)\" y2=\"\(keyY + 12)\" stroke=\"#D55E00\" stroke-width=\"2\" stroke-dasharray=\"1 3\"/>\n"
            out += "<text class=\"value\" x=\"\(labelWidth + plotWidth + 16)\" y=\"\(keyY + 10)\">\(limit.name) limit \(limit.ms) ms</text>\n"
        }
        let axis = stripTop + stripHeight + 18
        out += HTMLChart.axisLabels(y: axis, scale: scale)
        return out + "</svg>\n"
    }

    /// Per phase, the completed samples' min, p50, p95, p99 and max in milliseconds.
    private static func table(_ spreads: [PhaseSpread]) -> String {
        guard !spreads.isEmpty else { return "" }
        var out = "<table class=\"spread\">\n<caption>Phases over the completed samples (ms, nearest rank)</caption>\n"
            + "<thead><tr><th>Phase</th><th>min</th><th>p50</th><th>p95</th><th>p99</th><th>max</th></tr></thead>\n<tbody>\n"
        for item in spreads {
            out += "<tr><th>" + item.phase.label + "</th>"
                + item.spread.named.map { "<td class=\"number\">" + ReportFormat.milliseconds($0.value) + "</td>" }.joined() + "</tr>\n"
        }
        return out + "</tbody>\n</table>\n"
    }
}
