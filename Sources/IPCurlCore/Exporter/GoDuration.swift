/// Go's `time.ParseDuration`, which blackbox_exporter reads a module's `timeout` with: a sign, then one or more
/// decimal numbers each with a unit (`5s`, `1m30s`, `.5s`, `1.5h`, `500ms`); `0` alone needs no unit. Units are
/// `ns`, `us` (or `µs`, `μs`), `ms`, `s`, `m` and `h`: no days, and no upper case. A duration beyond Go's
/// `int64` nanoseconds (about 292 years) is an error, as in Go.
/// - SeeAlso: Go's `src/time/format.go`, `ParseDuration`.
enum GoDuration {
    /// Seconds per unit.
    static let units: [String: Double] = [
        "ns": 1e-9, "us": 1e-6, "\u{B5}s": 1e-6, "\u{3BC}s": 1e-6, "ms": 1e-3, "s": 1, "m": 60, "h": 3600,
    ]

    /// The most seconds a Go duration holds: `(1 << 63 - 1)` nanoseconds.
    static let maximumSeconds = 9_223_372_036.854_775_807

    /// The seconds `text` says, negative with `-`; `nil` when Go refuses it.
    static func seconds(_ text: String) -> Double? {
        var rest = Substring(text)
        var sign = 1.0
        if let first = rest.first, first == "-" || first == "+" {
            sign = first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        if rest == "0" { return 0 }
        guard !rest.isEmpty else { return nil }
        var total = 0.0
        while !rest.isEmpty {
            let whole = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(whole.count)
            var fraction: Substring = ""
            if rest.first == "." {
                rest = rest.dropFirst()
                fraction = rest.prefix { $0.isASCII && $0.isNumber }
                rest = rest.dropFirst(fraction.count)
            }
            guard !whole.isEmpty || !fraction.isEmpty else { return nil }
            let unitText = rest.prefix { $0 != "." && !($0.isASCII && $0.isNumber) }
            rest = rest.dropFirst(unitText.count)
            guard let unit = units[String(unitText)], let number = Double("0\(whole).\(fraction)0") else { return nil }
            total += number * unit
        }
        // Go compares whole nanoseconds; a Double's rounding only matters within a nanosecond of the limit.
        guard total <= maximumSeconds + (sign < 0 ? 1e-9 : 0) else { return nil }
        return sign * total
    }
}
