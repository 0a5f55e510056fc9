/// What the report's inline SVG charts (``HTMLWaterfall``, ``HTMLDistribution``) share: 720 pixels wide, a
/// 150-pixel label column, then a 440-pixel plot of microseconds on a scale shared by the whole report.
enum HTMLChart {
    static let width = 720, labelWidth = 150, plotWidth = 440

    /// Pixels from the plot's left edge for `micro` on a scale of `scale` microseconds.
    static func position(_ micro: Int64, _ scale: Int64) -> Int {
        scale <= 0 ? 0 : Int(min(micro, scale) * Int64(plotWidth) / scale)
    }

    /// The chart's opening `<svg>` (an image labelled by its `<title>`, which says in words what it draws).
    static func open(class name: String, id: String, height: Int, title: String) -> String {
        "<svg class=\"\(name)\" role=\"img\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\""
            + " aria-labelledby=\"\(id)-title\">\n<title id=\"\(id)-title\">\(title)</title>\n"
    }

    /// `0` under the plot's left edge and the scale's milliseconds under its right, at `y`.
    static func axisLabels(y: Int, scale: Int64) -> String {
        "<text class=\"axis\" x=\"\(labelWidth)\" y=\"\(y)\">0</text>\n"
            + "<text class=\"axis\" x=\"\(labelWidth + plotWidth)\" y=\"\(y)\" text-anchor=\"end\">\(ReportFormat.milliseconds(scale)) ms</text>\n"
    }
}
