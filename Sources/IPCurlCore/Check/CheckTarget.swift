import HTTPDNS

/// One thing `ipcurl check` probes: a URL, how to ask for it, and what the answer must look like.
/// A target becomes one probe, or one per address HTTPDNS returned when ``allIPs`` is set.
/// - SeeAlso: curl's `-X`, `-H`, `-d`; `CURLOPT_FRESH_CONNECT`, `CURLOPT_FORBID_REUSE`.
public struct CheckTarget: Sendable, Equatable {
    /// The name reports use (JUnit testsuite, metric `target` label); the URL when none is given.
    public var name: String
    /// An `http://` or `https://` URL.
    public var url: String
    /// The request method; `GET` unless given.
    public var method = "GET"
    /// Extra request header lines, `Name: value`.
    public var headers: [String] = []
    /// A request body (sent as with `--data-binary`); `nil` sends none.
    public var body: String?
    /// Probe every address HTTPDNS returned instead of the first.
    public var allIPs = false
    /// What every probe of this target must see.
    public var expect = Expectation()
    /// `--samples`: how many times each address is probed, each on a fresh connection (1...1000).
    public var samples = 1
    /// `--max-failed-samples`: how many of an address's samples may fail with the address still passing.
    public var maxFailedSamples = 0
    /// `--retries`: how many times a failed probe (each sample) is tried again on a fresh connection before it
    /// counts as failed; any failure is retried, a failed assertion included.
    public var retries = 0
    /// `--retry-interval`: milliseconds between a failed attempt's end and the next attempt's start.
    public var retryIntervalMS = CheckTarget.defaultRetryIntervalMS

    /// What ``samples``, ``maxFailedSamples`` and ``retries`` may be, on the command line and in a targets file.
    public static let samplesRange = 1...1000, maxFailedSamplesRange = 0...1000, retriesRange = 0...100

    /// The pause between attempts when `--retry-interval` is not given: one second, as Hurl's.
    public static let defaultRetryIntervalMS = 1000

    /// A GET of `url` named after it.
    public init(url: String, name: String? = nil) {
        self.url = url
        self.name = name ?? url
    }
}

/// The assertions a probe must pass. Each is optional; an empty expectation passes any completed transfer
/// (a transfer error always fails).
public struct Expectation: Sendable, Equatable {
    /// Accepted status codes (`200,204`, `2xx`, `200-299`); `nil` accepts 2xx (blackbox_exporter's default).
    public var status: StatusSet?
    /// The certificate chain's earliest notAfter must be at least this many days away.
    public var minCertDays: Int?
    /// The whole probe (connect to last byte) must take at most this many milliseconds.
    public var maxTimeMS: Int?
    /// Strings the body must contain (bytes, case-sensitive).
    public var bodyContains: [String] = []
    /// A regular expression (Swift `Regex` syntax) that must match somewhere in the body.
    public var bodyMatches: String?
    /// Response headers that must be present with exactly this value (names case-insensitive, values trimmed).
    public var headers: [HeaderExpectation] = []
    /// The lowest TLS version accepted (`1.2`, `1.3`).
    public var tlsMin: TLSVersion?
    /// The HTTP version the response must use: `1.0`, `1.1`, `2`, `3`.
    public var httpVersion: String?
    /// The nearest-rank 50th percentile of an address's samples' total times must be at most this many milliseconds.
    public var p50MS: Int?
    /// The same for the 95th percentile.
    public var p95MS: Int?
    /// The same for the 99th percentile.
    public var p99MS: Int?

    /// No assertions.
    public init() {}

    /// What a millisecond limit (`max_time_ms`, `p95_ms`, …) may be: limits are compared in microseconds, which a
    /// larger one would overflow.
    public static let millisecondsRange = 1...Int(Int32.max)
    /// What `min_cert_days` may be.
    public static let certificateDaysRange = 0...100_000

    /// The percentile limits that are set, as reports name them: `p50`, `p95`, `p99`.
    var percentileLimits: [(name: String, ms: Int)] {
        [("p50", p50MS), ("p95", p95MS), ("p99", p99MS)].compactMap { name, limit in limit.map { (name, $0) } }
    }

    /// Whether any assertion needs the response body kept.
    public var needsBody: Bool { !bodyContains.isEmpty || bodyMatches != nil }

    /// `self` with every assertion `other` sets replacing this one's (the more specific level wins).
    public func overridden(by other: Expectation) -> Expectation {
        var merged = self
        if let status = other.status { merged.status = status }
        if let days = other.minCertDays { merged.minCertDays = days }
        if let ms = other.maxTimeMS { merged.maxTimeMS = ms }
        if !other.bodyContains.isEmpty { merged.bodyContains = other.bodyContains }
        if let pattern = other.bodyMatches { merged.bodyMatches = pattern }
        if !other.headers.isEmpty { merged.headers = other.headers }
        if let tls = other.tlsMin { merged.tlsMin = tls }
        if let version = other.httpVersion { merged.httpVersion = version }
        if let ms = other.p50MS { merged.p50MS = ms }
        if let ms = other.p95MS { merged.p95MS = ms }
        if let ms = other.p99MS { merged.p99MS = ms }
        return merged
    }
}

/// One header a response must carry.
public struct HeaderExpectation: Sendable, Equatable {
    /// The header name, matched case-insensitively.
    public var name: String
    /// The exact value (after trimming blanks).
    public var value: String

    /// `name: value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A set of HTTP status codes: single codes, `Nxx` classes and `A-B` ranges.
/// - SeeAlso: `CURLINFO_RESPONSE_CODE`.
public struct StatusSet: Sendable, Equatable, CustomStringConvertible {
    /// The accepted ranges, in the order given.
    public private(set) var ranges: [ClosedRange<Int>]

    /// The given ranges.
    public init(_ ranges: [ClosedRange<Int>]) { self.ranges = ranges }

    /// Parses `200,204`, `2xx`, `200-299` and mixtures; `nil` for anything else.
    public init?(parsing text: String) {
        var ranges: [ClosedRange<Int>] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let range = Self.range(item.filter { $0 != " " }) else { return nil }
            ranges.append(range)
        }
        guard !ranges.isEmpty else { return nil }
        self.ranges = ranges
    }

    /// Whether `code` is accepted.
    public func contains(_ code: Int) -> Bool { ranges.contains { $0.contains(code) } }

    /// The set as it would be typed: `200,204`, `2xx`, `200-299`.
    public var description: String {
        ranges.map { range in
            if range.count == 1 { return String(range.lowerBound) }
            if range.lowerBound % 100 == 0, range.upperBound == range.lowerBound + 99 { return "\(range.lowerBound / 100)xx" }
            return "\(range.lowerBound)-\(range.upperBound)"
        }.joined(separator: ",")
    }

    private static func range(_ item: String) -> ClosedRange<Int>? {
        if item.count == 3, item.hasSuffix("xx"), let first = item.first?.wholeNumberValue, (1...5).contains(first) {
            return first * 100...first * 100 + 99
        }
        let bounds = item.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(bounds.count), let low = code(bounds[0]), let high = code(bounds[bounds.count - 1]),
              low <= high else { return nil }
        return low...high
    }

    private static func code(_ text: Substring) -> Int? {
        guard text.count == 3, let value = Int(text), (100...599).contains(value) else { return nil }
        return value
    }
}

/// A TLS protocol version, ordered.
/// - SeeAlso: `CURLINFO_TLS_SSL_PTR`, OpenSSL's `SSL_get_version`.
public enum TLSVersion: Int, Sendable, Comparable, CaseIterable {
    case tls1_0 = 0x0301, tls1_1 = 0x0302, tls1_2 = 0x0303, tls1_3 = 0x0304

    /// Parses `1.2`, `TLSv1.2`, `TLS 1.2` (any case).
    public init?(parsing text: String) {
        var rest = Substring(text.lowercased())
        if rest.hasPrefix("tls") { rest = rest.dropFirst(3) }
        if rest.hasPrefix("v") || rest.hasPrefix(" ") { rest = rest.dropFirst() }
        guard let version = Self.allCases.first(where: { $0.number == rest }) else { return nil }
        self = version
    }

    /// OpenSSL's name, as `SSL_get_version` spells it: `TLSv1.3`.
    public init?(openSSLName: String) {
        guard openSSLName.hasPrefix("TLSv"), let version = TLSVersion(parsing: openSSLName) else { return nil }
        self = version
    }

    /// `1.3`.
    public var number: String {
        switch self {
        case .tls1_0: "1.0"
        case .tls1_1: "1.1"
        case .tls1_2: "1.2"
        case .tls1_3: "1.3"
        }
    }

    /// blackbox_exporter's `probe_tls_version_info{version}` spelling: `TLS 1.3`.
    public var label: String { "TLS \(number)" }

    public static func < (lhs: TLSVersion, rhs: TLSVersion) -> Bool { lhs.rawValue < rhs.rawValue }
}
