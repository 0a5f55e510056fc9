/// The provider behind curl's `--resolve HOST:PORT:ADDR[,ADDR]`: answers a host and port match, with the
/// user's addresses in the user's order. Names match as DNS names (case and a trailing dot do not matter); the
/// entry handed on is spelled as the request spells its host.
/// - SeeAlso: curl's `--resolve`, `CURLOPT_RESOLVE`.
public struct StaticResolver: Sendable {
    /// The parsed entries, in command-line order; the first match wins.
    public let entries: [ResolveEntry]

    /// A resolver over `entries`.
    public init(_ entries: [ResolveEntry]) { self.entries = entries }

    /// The entry and answer for `host` (normalized) on `port`, or `nil` when the user pinned nothing for it.
    public func resolution(host: String, port: Int) -> Resolution? {
        guard let entry = entries.first(where: { HostName.normalized($0.host) == host && $0.port == port }) else { return nil }
        return Resolution(entry: entry, answer: ResolverAnswer(host: host, addresses: entry.addresses, ttl: 0, source: .staticEntry))
    }
}
