import HTTPDNS

/// blackbox_exporter's `fail_if_header_*` and `fail_if_body_*` rules over a response, matched as Go's RE2 matches
/// (`ExporterRegex`), unanchored as Go's
/// `Regexp.MatchString`.
/// - SeeAlso: blackbox_exporter `prober/http.go` (`matchRegularExpressions`, `matchRegularExpressionsOnHeaders`).
enum RegexRules {
    /// Whether the headers pass every header rule (a missing header fails unless `allow_missing`); each pattern is
    /// compiled once, whatever number of values its header has.
    static func headersPass(_ headers: ResponseHeaders, _ settings: BlackboxHTTPSettings, log: inout ProbeLog) -> Bool {
        let rules = settings.failIfHeaderMatches.map { ($0, true) } + settings.failIfHeaderNotMatches.map { ($0, false) }
        for (rule, failsOnMatch) in rules {
            let values = headers.fields.filter { $0.name.lowercased() == rule.header.lowercased() }.map(\.value)
            if values.isEmpty {
                if rule.allowMissing { continue }
                log.error("Missing required header", ("header", rule.header))
                return false
            }
            let pattern = try? ExporterRegex.compile(rule.regexp)
            let matched = values.contains { value in (pattern.flatMap { try? $0.firstMatch(in: value) }) != nil }
            if matched == failsOnMatch {
                log.error(failsOnMatch ? "Header matched regular expression" : "Header did not match regular expression",
                          ("header", rule.header), ("regexp", rule.regexp))
                return false
            }
        }
        return true
    }

    /// Whether the body passes every body rule by `deadline` (the probe's end): the patterns run on a thread of their
    /// own, left behind when a pattern that backtracks outlives the probe, which then fails.
    static func bodyPasses(_ body: [UInt8], _ settings: BlackboxHTTPSettings, deadline: ContinuousClock.Instant,
                           log: inout ProbeLog) -> Bool {
        let text = String(decoding: body, as: UTF8.self)
        let (forbidden, required) = (settings.failIfBodyMatches, settings.failIfBodyNotMatches)
        let search = BackgroundTask { () -> (pattern: String, matched: Bool)? in
            if let pattern = forbidden.first(where: { matches($0, text) }) { return (pattern, true) }
            if let pattern = required.first(where: { !matches($0, text) }) { return (pattern, false) }
            return nil
        }
        guard let outcome = search.wait(until: deadline) else {
            log.error("Body regular expressions did not finish within the probe's time")
            return false
        }
        guard let failed = outcome else { return true }
        log.error(failed.matched ? "Body matched regular expression" : "Body did not match regular expression", ("regexp", failed.pattern))
        return false
    }

    private static func matches(_ pattern: String, _ text: String) -> Bool {
        (try? ExporterRegex.compile(pattern).firstMatch(in: text)) != nil
    }
}
