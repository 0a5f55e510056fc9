/// `expect:` in a targets file (in `defaults:` or a target), read into an ``Expectation``.
extension TargetsFileDecoder {
    /// The keys of `expect:`.
    static let expectKeys = ["status", "min_cert_days", "max_time_ms", "body_contains", "body_matches", "headers", "tls_min",
                             "http_version", "p50_ms", "p95_ms", "p99_ms"]
    /// What `http_version` accepts, as `%{http_version}` prints it.
    static let httpVersions = ["1.0", "1.1", "2", "3"]

    /// The assertions `node` sets; the others stay unset.
    /// A time limit in milliseconds within the command line's range (1 to `Int32.max`): limits are compared in
    /// microseconds, which a larger one would overflow.
    private func milliseconds(_ node: YAMLNode, key: String) throws(TargetsFileError) -> Int {
        let range = Expectation.millisecondsRange
        return try integer(node, in: range, message: "\"\(key)\" must be a whole number of milliseconds from 1 to \(range.upperBound)")
    }

    func expectation(_ node: YAMLNode) throws(TargetsFileError) -> Expectation {
        var expect = Expectation()
        for entry in try entries(node, key: "expect", context: "in expect", allowed: Self.expectKeys) {
            let value = entry.value
            switch entry.key {
            case "status":
                expect.status = try status(value)
            case "min_cert_days":
                let range = Expectation.certificateDaysRange
                expect.minCertDays = try integer(value, in: range,
                                                 message: "\"min_cert_days\" must be a whole number of days from 0 to \(range.upperBound)")
            case "max_time_ms":
                expect.maxTimeMS = try milliseconds(value, key: entry.key)
            case "body_contains":
                expect.bodyContains = try strings(value, key: entry.key)
            case "body_matches":
                expect.bodyMatches = try regex(value)
            case "headers":
                expect.headers = try headers(value, key: entry.key).map { HeaderExpectation(name: $0.name, value: $0.value) }
            case "tls_min":
                guard let text = value.text, let version = TLSVersion(parsing: text) else {
                    throw error(value, "\"tls_min\" must be a TLS version: 1.0, 1.1, 1.2 or 1.3")
                }
                expect.tlsMin = version
            case "p50_ms", "p95_ms", "p99_ms":
                let ms = try milliseconds(value, key: entry.key)
                switch entry.key {
                case "p50_ms": expect.p50MS = ms
                case "p95_ms": expect.p95MS = ms
                default: expect.p99MS = ms
                }
            default:
                guard let text = value.text, Self.httpVersions.contains(text) else {
                    throw error(value, "\"http_version\" must be one of \(Self.httpVersions.joined(separator: ", "))")
                }
                expect.httpVersion = text
            }
        }
        return expect
    }

    /// A code, a class (`2xx`), a range (`200-299`), a comma list of those, or a YAML list of any of them.
    private func status(_ node: YAMLNode) throws(TargetsFileError) -> StatusSet {
        let items: [YAMLNode]
        if case let .sequence(list) = node.content { items = list } else { items = [node] }
        var ranges: [ClosedRange<Int>] = []
        for item in items {
            guard let text = item.text, let set = StatusSet(parsing: text) else { throw statusError(item) }
            ranges += set.ranges
        }
        guard !ranges.isEmpty else { throw statusError(node) }
        return StatusSet(ranges)
    }

    private func statusError(_ node: YAMLNode) -> TargetsFileError {
        error(node, "\"status\" must be a status code, a class like 2xx, a range, or a list of them")
    }

    /// A pattern that compiles as a Swift `Regex`.
    private func regex(_ node: YAMLNode) throws(TargetsFileError) -> String {
        let pattern = try string(node, key: "body_matches")
        do {
            _ = try Regex(pattern)
        } catch {
            let reason = String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
            throw self.error(node, "\"body_matches\" is not a valid regular expression: \(reason)")
        }
        return pattern
    }
}
