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

    /// Whether the body passes every body rule.
    static func bodyPasses(_ body: [UInt8], _ settings: BlackboxHTTPSettings, log: inout ProbeLog) -> Bool {
        let text = String(decoding: body, as: UTF8.self)
        for pattern in settings.failIfBodyMatches where matches(pattern, text) {
            log.error("Body matched regular expression", ("regexp", pattern))
            return false
        }
        for pattern in settings.failIfBodyNotMatches where !matches(pattern, text) {
            log.error("Body did not match regular expression", ("regexp", pattern))
            return false
        }
        return true
    }

    private static func values(of name: String, in headers: ResponseHeaders) -> [String] {
        headers.fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    private static func matches(_ pattern: String, _ text: String) -> Bool {
        (try? ExporterRegex.compile(pattern).firstMatch(in: text)) != nil
    }
}
