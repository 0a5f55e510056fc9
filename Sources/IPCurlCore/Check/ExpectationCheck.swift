import CurlKit
import HTTPDNS

/// Checks one completed probe against its ``Expectation``, naming each assertion that failed with what it
/// expected and what came back. The address check comes first: a probe that reached another address than the
/// one it pinned tested the wrong thing.
struct ExpectationCheck {
    /// Accepted when no status is expected: 2xx, as blackbox_exporter's `valid_status_codes` default.
    static let defaultStatus = StatusSet([200...299])

    let expect: Expectation
    /// The run's start, seconds since 1970, for certificate days.
    let now: Int64
    /// How long `body_matches` may search: a backtracking pattern can take exponential time, and Swift's `Regex`
    /// has no time limit of its own, so the match runs on a thread that is abandoned after this long.
    var matchBudgetMS = CheckPlan.defaultMaxTimeMS

    func failures(of result: ProbeResult, headers: ResponseHeaders, body: [UInt8], pinned: [IPAddress]) -> [AssertionFailure] {
        var failures: [AssertionFailure] = []
        func fail(_ assertion: String, _ expected: String, _ actual: String) {
            failures.append(AssertionFailure(assertion: assertion, expected: expected, actual: actual))
        }
        if !pinned.isEmpty, !pinned.contains(where: { $0 == IPAddress(result.connectedIP) }) {
            fail("address", pinned.map(\.description).joined(separator: " or "), result.connectedIP.isEmpty ? "no connection" : result.connectedIP)
        }
        let status = expect.status ?? Self.defaultStatus
        if !status.contains(result.status) { fail("status", status.description, String(result.status)) }
        if let days = expect.minCertDays {
            if let certificate = result.certificate {
                let left = certificate.daysLeft(at: now)
                if left < days { fail("min_cert_days", "at least \(days) days", "\(left) days") }
            } else {
                fail("min_cert_days", "at least \(days) days", "no certificate")
            }
        }
        if let limit = expect.maxTimeMS, result.timings.total > Int64(limit) * 1000 {
            fail("max_time_ms", "at most \(limit) ms", "\(result.timings.total / 1000) ms")
        }
        for needle in expect.bodyContains where !Self.contains(body, Array(needle.utf8)) {
            fail("body_contains", Printable.quoted(needle), body.count >= ProbeTransfer.bodyLimit
                 ? "not in the first \(ProbeTransfer.bodyLimit) bytes" : "not in the \(body.count)-byte body")
        }
        if let pattern = expect.bodyMatches {
            let text = String(decoding: body, as: UTF8.self)
            let search = BackgroundTask { () -> Bool in (try? Regex(pattern).firstMatch(in: text)) != nil }
            switch search.wait(until: .now + .milliseconds(matchBudgetMS)) {
            case true?: break
            case false?: fail("body_matches", "/\(pattern)/", "no match")
            case nil: fail("body_matches", "/\(pattern)/", "no answer within \(matchBudgetMS) ms (the pattern backtracks too much)")
            }
        }
        for header in expect.headers {
            let value = headers.first(named: header.name)
            if value != header.value {
                fail("headers", "\(header.name): \(header.value)", value.map { "\(header.name): \($0)" } ?? "no \(header.name) header")
            }
        }
        if let minimum = expect.tlsMin, (result.tlsVersion.map { $0 < minimum } ?? true) {
            fail("tls_min", minimum.label, result.tlsVersion?.label ?? "no TLS")
        }
        // %{http_version} spells HTTP/1.0 as "1"; the expectation spells it "1.0".
        let seen = result.httpVersion == "1" ? "1.0" : result.httpVersion
        if let version = expect.httpVersion, version != seen { fail("http_version", "HTTP/\(version)", "HTTP/\(seen)") }
        return failures
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start] == needle[0] && haystack[start..<start + needle.count].elementsEqual(needle)
        }
    }
}
