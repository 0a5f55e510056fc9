/// Where a set of addresses came from; printed by `-v` and `%{dns_source}`.
public enum AnswerSource: Sendable, Equatable, CustomStringConvertible {
    /// An HTTPDNS provider of `kind`, named by the server that answered: a DoH URL with any query string removed,
    /// a vendor server's scheme, host and port only (never the query), or a resolver program's first word.
    case provider(ProviderKind, server: String)
    /// A static `HOST:PORT:ADDR` entry (curl's `--resolve`).
    case staticEntry
    /// The operating system's resolver, the fallback when HTTPDNS gave no usable address.
    case system
    /// ipcurl's answer cache; the text is the description of the provider that gave the answer.
    case cached(String)

    /// Which kind of provider this is.
    public var kind: ProviderKind {
        switch self {
        case .provider(let kind, _): kind
        case .staticEntry: .staticEntry
        case .system: .system
        case .cached: .cache
        }
    }

    /// The short name `%{dns_source}` prints: `doh`, `doh-json`, `aliyun`, `dnspod`, `command`, `static`, `system`
    /// or `cache`.
    public var name: String { kind.rawValue }

    /// The name plus the server, e.g. `doh https://1.1.1.1/dns-query` or `command my-dns`.
    public var description: String {
        switch self {
        case .provider(_, let server): "\(name) \(server)"
        case .staticEntry: "static entry"
        case .system: "system getaddrinfo"
        case .cached(let original): original
        }
    }
}

/// The kind of an answer's source, as `%{dns_source}` and cache files name it: a word of lowercase letters, digits
/// and `-`. Each HTTPDNS provider's resolver file declares its own (``doh`` beside ``DoHResolver``), so a provider
/// adds its kind without editing this file; ``staticEntry``, ``system`` and ``cache`` name the sources that are no
/// provider. Encoded (`Codable`) as the word.
public struct ProviderKind: RawRepresentable, Hashable, Sendable, Codable {
    /// The word: `doh`, `doh-json`, `aliyun`, `dnspod`, `command`, `static`, `system` or `cache`.
    public let rawValue: String

    /// The kind named `rawValue` (a cache file's `source` line), or `nil` when it is not a word of 1 to 32
    /// lowercase letters, digits and `-`.
    public init?(rawValue: String) {
        guard (1...32).contains(rawValue.utf8.count), rawValue.utf8.allSatisfy(Self.isWordByte) else { return nil }
        self.rawValue = rawValue
    }

    /// The kind a resolver declares, named by `word`, which must be such a word.
    public init(_ word: StaticString) {
        guard let kind = Self(rawValue: "\(word)") else { preconditionFailure("not a provider kind: \(word)") }
        self = kind
    }

    /// A static `--resolve` entry.
    public static let staticEntry = ProviderKind("static")
    /// ``SystemResolver``.
    public static let system = ProviderKind("system")
    /// The answer cache.
    public static let cache = ProviderKind("cache")

    /// Whether answers of this kind go into the answer cache: every HTTPDNS provider's do; static entries, the
    /// system resolver and the cache itself do not.
    public var isCacheable: Bool { self != .staticEntry && self != .system && self != .cache }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "-")
    }
}

/// A resolver's typed answer for one host: validated addresses, how long they may be used, and who said so.
public struct ResolverAnswer: Sendable, Equatable {
    /// The longest TTL any provider may claim (one day); longer or negative values are clamped.
    public static let maximumTTL: UInt32 = 86_400

    /// The host asked about, lowercased, without a trailing dot.
    public let host: String
    /// Addresses in the order they should be tried; never empty.
    public let addresses: [IPAddress]
    /// Seconds the answer may be cached, already clamped to `0...maximumTTL`.
    public let ttl: UInt32
    /// The authoritative TTL when the provider reports it separately (Alibaba's `origin_ttl`), clamped the same way.
    public let originTTL: UInt32?
    /// The provider that answered.
    public let source: AnswerSource
    /// How the answer was reached, one line per event (servers that failed, hedges, cancelled exchanges; no
    /// secrets), for `-v`.
    public let trail: [String]

    /// Creates an answer; callers guarantee `addresses` is non-empty.
    public init(host: String, addresses: [IPAddress], ttl: UInt32, originTTL: UInt32? = nil,
                source: AnswerSource, trail: [String] = []) {
        self.host = host
        self.addresses = addresses
        self.ttl = min(ttl, Self.maximumTTL)
        self.originTTL = originTTL.map { min($0, Self.maximumTTL) }
        self.source = source
        self.trail = trail
    }

    /// A provider's TTL number made sane: negative becomes 0, more than ``maximumTTL`` becomes ``maximumTTL``.
    public static func clampedTTL(_ seconds: Int64) -> UInt32 {
        UInt32(min(max(seconds, 0), Int64(maximumTTL)))
    }
}
