/// Where a set of addresses came from; printed by `-v` and, later, `%{dns_source}`.
public enum AnswerSource: Sendable, Equatable, CustomStringConvertible {
    /// An RFC 8484 DNS-over-HTTPS server, named by its URL with any query string removed.
    case doh(server: String)
    /// A `--resolve HOST:PORT:ADDR` entry from the command line.
    case staticEntry

    /// The short name: `doh` or `static`.
    public var name: String {
        switch self {
        case .doh: "doh"
        case .staticEntry: "static"
        }
    }

    /// The name plus the server, e.g. `doh https://1.1.1.1/dns-query`.
    public var description: String {
        switch self {
        case .doh(let server): "doh \(server)"
        case .staticEntry: "static --resolve"
        }
    }
}

/// A resolver's typed answer for one host: validated addresses, how long they may be used, and who said so.
public struct ResolverAnswer: Sendable, Equatable {
    /// The host asked about, lowercased, without a trailing dot.
    public let host: String
    /// Addresses in the order they should be tried; never empty.
    public let addresses: [IPAddress]
    /// Seconds the answer may be cached.
    public let ttl: UInt32
    /// The provider that answered.
    public let source: AnswerSource
    /// Servers tried before `source` and why each was skipped (one line each, no secrets), for `-v`.
    public let skipped: [String]

    /// Creates an answer; callers guarantee `addresses` is non-empty.
    public init(host: String, addresses: [IPAddress], ttl: UInt32, source: AnswerSource, skipped: [String] = []) {
        self.host = host
        self.addresses = addresses
        self.ttl = ttl
        self.source = source
        self.skipped = skipped
    }
}
