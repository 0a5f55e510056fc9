/// One probe's phases as an inline SVG waterfall: one row per phase (the name's lookup, shared by every address of
/// the name and labelled as the batch's when names were asked together, then connect, TLS, time to first byte,
/// transfer), each bar starting where the previous ended, on a scale shared by the whole report so addresses compare
/// by length. Each bar has its own Okabe–Ito colour and fill pattern,
/// and its name and milliseconds are written beside it. A transfer that failed before libcurl timed any phase (a
/// refused connection, a failed handshake: libcurl 7.88 reports their connect and TLS times as 0, as curl's `-w`
/// shows) gets one more row, the time until the failure with its exit code, so the bar chart is never empty.
enum HTMLWaterfall {
    /// A phase's row: label, fill colour and pattern.
    private struct Phase {
        let label: String
        let colour: String
        let pattern: String
        let micro: Int64
    }

    private static let rowHeight = 24

    static func svg(_ timings: ProbeTimings, error: ProbeError? = nil, id: String, scale: Int64) -> String {
        var phases = [
            Phase(label: timings.resolveNames > 1 ? "dns (batch of \(timings.resolveNames))" : "dns (per name)", colour: "#56B4E9",
                  pattern: "hatch", micro: timings.resolve),
            Phase(label: "connect", colour: "#E69F00", pattern: "solid", micro: timings.connect),
            Phase(label: "tls", colour: "#009E73", pattern: "dots", micro: timings.tls),
            Phase(label: "ttfb", colour: "#0072B2", pattern: "solid", micro: timings.processing),
            Phase(label: "transfer", colour: "#CC79A7", pattern: "cross", micro: timings.transfer),
        ]
        let untimed = timings.connect + timings.tls + timings.processing + timings.transfer == 0
        if let error, untimed, timings.total > 0 {
            phases.append(Phase(label: "until exit \(error.exitCode)", colour: "#D55E00", pattern: "solid", micro: timings.total))
        }
        let height = rowHeight * (phases.count + 1)
        let title = "Phases in milliseconds: " + phases.map { "\($0.label) \(ReportFormat.milliseconds($0.micro))" }.joined(separator: ", ")
        var out = HTMLChart.open(class: "waterfall", id: id, height: height, title: title) + definitions(id, phases)
        var start: Int64 = 0
        for (row, phase) in phases.enumerated() {
            let y = row * rowHeight
            let x = HTMLChart.labelWidth + HTMLChart.position(start, scale)
            let length = max(HTMLChart.position(start + phase.micro, scale) - HTMLChart.position(start, scale), phase.micro > 0 ? 1 : 0)
            let fill = phase.pattern == "solid" ? phase.colour : "url(#\(id)-\(phase.pattern))"
            out += "<text x=\"0\" y=\"\(y + 16)\">\(phase.label)</text>\n"
            out += "<rect x=\"\(x)\" y=\"\(y + 4)\" width=\"\(length)\" height=\"\(rowHeight - 8)\" fill=\"\(fill)\" stroke=\"#000\" stroke-width=\"0.5\"/>\n"
            out += "<text class=\"value\" x=\"\(x + length + 6)\" y=\"\(y + 16)\">\(ReportFormat.milliseconds(phase.micro)) ms</text>\n"
            start += phase.micro
        }
        let axis = phases.count * rowHeight + 16
        let (left, right) = (HTMLChart.labelWidth, HTMLChart.labelWidth + HTMLChart.plotWidth)
        out += HTMLChart.axisLabels(y: axis, scale: scale)
            + "<line x1=\"\(left)\" y1=\"\(axis - 12)\" x2=\"\(right)\" y2=\"\(axis - 12)\" stroke=\"#000\"/>\n"
        return out + "</svg>\n"
    }

    /// The fill patterns, drawn in each phase's colour so greyscale prints still tell the bars apart.
    private static func definitions(_ id: String, _ phases: [Phase]) -> String {
        func colour(_ pattern: String) -> String { phases.first { $0.pattern == pattern }?.colour ?? "#000" }
        return "<defs>\n"
            + "<pattern id=\"\(id)-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
            + "<rect width=\"6\" height=\"6\" fill=\"\(colour("hatch"))\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#000\" stroke-width=\"2\"/></pattern>\n"
            + "<pattern id=\"\(id)-dots\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
            + "<rect width=\"6\" height=\"6\" fill=\"\(colour("dots"))\"/><circle cx=\"3\" cy=\"3\" r=\"1.3\" fill=\"#fff\"/></pattern>\n"
            + "<pattern id=\"\(id)-cross\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
            + "<rect width=\"6\" height=\"6\" fill=\"\(colour("cross"))\"/><path d=\"M0 0L6 6M6 0L0 6\" stroke=\"#000\" stroke-width=\"0.8\"/></pattern>\n"
            + "</defs>\n"
    }
}
