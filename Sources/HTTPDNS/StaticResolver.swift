/// The provider behind curl's `--resolve HOST:PORT:ADDR[,ADDR]`: answers a host and port match, with the
/// user's addresses in the user's order. Names match as DNS names (case and a trailing dot do not matter); the
/// entry handed on is spelled as the request spells its host. A wildcard entry (`*:PORT:ADDR`) answers every host
/// on its port that no entry names, whatever the order, as in libcurl.
/// - SeeAlso: curl's `--resolve`, `CURLOPT_RESOLVE`.
public struct StaticResolver: Sendable {
    /// The parsed entries, in command-line order; the first match by name wins, then the first wildcard.
    public let entries: [ResolveEntry]

    /// A resolver over `entries`.
    public init(_ entries: [ResolveEntry]) { self.entries = entries }

    /// The entry and answer for `host` (normalized) on `port`, or `nil` when the user pinned nothing for it.
    public func resolution(host: String, port: Int) -> Resolution? {
        guard let entry = Self.first(pinning: host, port: port, in: entries) else { return nil }
        return Resolution(entry: entry, answer: ResolverAnswer(host: host, addresses: entry.addresses, ttl: 0, source: .staticEntry))
    }

    /// The entry of `entries` that pins `host` (normalized) on `port`: the first naming it, else the first
    /// wildcard of that port.
    public static func first(pinning host: String, port: Int, in entries: [ResolveEntry]) -> ResolveEntry? {
        entries.first { !$0.isWildcard && $0.pins(host, port: port) } ?? entries.first { $0.isWildcard && $0.port == port }
    }
}
