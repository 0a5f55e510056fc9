import CurlKit

/// The outcome of resolving one URL's host: the entry to hand to libcurl (if any) and the answer behind it.
public struct Resolution: Sendable, Equatable {
    /// The `CURLOPT_RESOLVE` entry; `nil` when the URL's host is already an IP address.
    public let entry: ResolveEntry?
    /// The answer that produced `entry`.
    public let answer: ResolverAnswer?

    /// Pairs an entry with the answer it came from.
    public init(entry: ResolveEntry?, answer: ResolverAnswer?) {
        self.entry = entry
        self.answer = answer
    }
}

/// Decides how a host:port gets its addresses: `--resolve` entries win, an IP literal needs nothing,
/// everything else goes to the HTTPDNS resolver.
///
/// It deals only in validated ``ResolveEntry`` and ``ResolverAnswer`` values, never in libcurl types.
/// - SeeAlso: curl's `--resolve`.
public struct ResolutionPolicy {
    /// The user's `--resolve` entries.
    public let pinned: StaticResolver
    /// The HTTPDNS resolver asked when no static entry matches.
    public let resolver: any Resolver

    /// A policy that consults `staticEntries` first, then `resolver`.
    public init(staticEntries: [ResolveEntry], resolver: any Resolver) {
        self.pinned = StaticResolver(staticEntries)
        self.resolver = resolver
    }

    /// Resolves `host` for a connection to `port`. Throws exit 6 for a host that is not a plain DNS name.
    public func resolve(host: String, port: Int) throws(CurlError) -> Resolution {
        try resolve(hosts: [host], port: port)[0].get()
    }

    /// Resolves several hosts for `port`, in order, letting the provider batch the ones that need asking.
    public func resolve(hosts: [String], port: Int) -> [Result<Resolution, CurlError>] {
        var results: [Result<Resolution, CurlError>?] = []
        var pending: [(index: Int, name: String)] = []
        for host in hosts {
            if IPAddress(host) != nil {
                results.append(.success(Resolution(entry: nil, answer: nil)))
            } else if let name = HostName.normalized(host) {
                if let fixed = pinned.resolution(host: name, port: port) {
                    results.append(.success(fixed))
                } else {
                    pending.append((results.count, name))
                    results.append(nil)
                }
            } else {
                results.append(.failure(CurlError.couldntResolveHost.with(
                    message: "Could not resolve host: \(ResolveEntry.quoted(host)) is not a plain DNS name")))
            }
        }
        let answers = pending.isEmpty ? [] : resolver.resolve(hosts: pending.map(\.name), port: port)
        for (slot, answer) in zip(pending, answers) {
            results[slot.index] = answer.flatMap { answer in
                guard let entry = ResolveEntry(answer, port: port) else {
                    return .failure(ResolverFailure.couldNotResolve(slot.name, "no usable address"))
                }
                return .success(Resolution(entry: entry, answer: answer))
            }
        }
        return zip(hosts, results).map { host, result in
            result ?? .failure(ResolverFailure.couldNotResolve(host, "the resolver gave no answer"))
        }
    }
}
