/// Something that turns a host name into addresses: a DoH server, a vendor HTTPDNS API, a command, the system.
///
/// Each call is one lookup with its own ``LookupBudget``. A failure is a ``ResolutionError`` whose messages
/// never contain secrets.
public protocol Resolver {
    /// Resolves `host` (already validated by ``HostName``) for a connection to `port`, or throws why not.
    /// Most providers ignore the port; a resolver command is told it.
    func resolve(_ host: String, port: Int, within budget: LookupBudget) throws(ResolutionError) -> ResolverAnswer
    /// Resolves several hosts, in order; providers with a batch API override this to ask in fewer requests.
    func resolve(hosts: [String], port: Int, within budget: LookupBudget) -> [Result<ResolverAnswer, ResolutionError>]
    /// Whether ``resolve(hosts:port:within:)`` asks several names in one query (a batch API), so no one name's time
    /// can be told apart; `false` (one lookup per name) unless a provider overriding it says so.
    var asksNamesTogether: Bool { get }
}

extension Resolver {
    public var asksNamesTogether: Bool { false }

    /// One lookup per host, each with a fresh budget of the same size (`budget` for the first).
    public func resolve(hosts: [String], port: Int, within budget: LookupBudget) -> [Result<ResolverAnswer, ResolutionError>] {
        hosts.enumerated().map { index, host in
            let own = index == 0 ? budget : budget.renewed()
            return Result { () throws(ResolutionError) in try resolve(host, port: port, within: own) }
        }
    }
}
