import HTTPDNS

/// blackbox_exporter's `fail_if_header_*` and `fail_if_body_*` rules over a response, matched as Go's RE2 matches
/// (`ExporterRegex`), unanchored as Go's
/// `Regexp.MatchString`.
/// - SeeAlso: blackbox_exporter `prober/http.go` (`matchRegularExpressions`, `matchRegularExpressionsOnHeaders`).
enum RegexRules {
    /// Whether the headers pass every header rule (a missing header fails unless `allow_missing`).
    static func headersPass(_ headers: ResponseHeaders, _ settings: BlackboxHTTPSettings, log: inout ProbeLog) -> Bool {
        for rule in settings.failIfHeaderMatches {
            let values = values(of: rule.header, in: headers)
            if values.isEmpty {
                if rule.allowMissing { continue }
                log.error("Missing required header", ("header", rule.header))
                return false
            }
            if values.contains(where: { matches(rule.regexp, $0) }) {
                log.error("Header matched regular expression", ("header", rule.header), ("regexp", rule.regexp))
                return false
            }
        }
        for rule in settings.failIfHeaderNotMatches {
            let values = values(of: rule.header, in: headers)
            if values.isEmpty {
                if rule.allowMissing { continue }
                log.error("Missing required header", ("header", rule.header))
                return false
            }
            if !values.contains(where: { matches(rule.regexp, $0) }) {
                log.error("Header did not match regular expression", ("header", rule.header), ("regexp", rule.regexp))
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

    private static func values(of name: String, in headers: ResponseHeaders) -> [String] {
        headers.fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    private static func matches(_ pattern: String, _ text: String) -> Bool {
        (try? ExporterRegex.compile(pattern).firstMatch(in: text)) != nil
    }
}
