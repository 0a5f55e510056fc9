import CurlKit
import HTTPDNS

/// The resolver choice shared by every subcommand: `--doh` servers and `--resolve` entries.
public struct ResolverSettings: Sendable {
    /// `--doh URL`: DoH servers to ask, in order; the embedded public defaults when the user names none.
    public var dohServers: [String] = DoHResolver.defaultServers
    /// `--resolve HOST:PORT:ADDR[,ADDR]` entries; they win over HTTPDNS.
    public var staticEntries: [ResolveEntry] = []

    /// Defaults: the embedded DoH servers and no static entries.
    public init() {}

    /// The policy these settings describe; HTTPDNS queries use `transport` for TLS and timeouts.
    public func policy(transport: TransportOptions) throws(CurlError) -> ResolutionPolicy {
        ResolutionPolicy(staticEntries: staticEntries, resolver: try DoHResolver(servers: dohServers, transport: transport))
    }
}
