#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The operating system's resolver (`getaddrinfo`): the fallback when HTTPDNS gave no usable address.
///
/// `getaddrinfo` cannot be interrupted, so it runs on its own thread and the lookup gives up when its budget is
/// spent (the thread is left to finish and its answer dropped): a resolver that never answers costs the budget,
/// not forever. Its answers carry no TTL, so they are used for this run only and never cached. Certificate
/// verification is unchanged on this path: the addresses still go into an entry for the URL's own host name.
/// - SeeAlso: `getaddrinfo(3)`, `CURLOPT_RESOLVE`.
public struct SystemResolver: Resolver, Sendable {
    /// What `-v` and messages call this resolver.
    public static let label = "system DNS"

    /// A resolver over the system's `getaddrinfo`.
    public init() {}

    public func resolve(_ host: String, port: Int, within budget: LookupBudget) throws(ResolutionError) -> ResolverAnswer {
        let lookup = BackgroundTask { Self.lookup(host) }
        guard let result = lookup.wait(until: budget.deadline) else {
            let spent = budget.initialMS.map { "\($0) ms" } ?? "its time"
            throw ResolutionError.unavailable(host, [.init(server: Self.label, phase: .timeout, cause: "no answer within \(spent)")])
        }
        return try result.get()
    }

    private static func lookup(_ host: String) -> Result<ResolverAnswer, ResolutionError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            let cause = String(cString: gai_strerror(status))
            return .failure(.unavailable(host, [.init(server: label, phase: .answer, cause: cause)]))
        }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var node = list
        while let info = node?.pointee {
            if let address = Self.address(info), !addresses.contains(address) { addresses.append(address) }
            node = info.ai_next
        }
        guard !addresses.isEmpty else { return .failure(.noAddress(host, source: label, "no addresses")) }
        // Asked as spelled (an absolute `foo.` keeps its dot), answered for the plain name, as every answer is.
        return .success(ResolverAnswer(host: HostName.normalized(host) ?? host, addresses: addresses, ttl: 0, source: .system))
    }

    private static func address(_ info: addrinfo) -> IPAddress? {
        guard let raw = info.ai_addr else { return nil }
        switch info.ai_family {
        case AF_INET:
            return raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin_addr) { IPAddress(bytes: $0) }
            }
        case AF_INET6:
            return raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { IPAddress(bytes: $0) }
            }
        default:
            return nil
        }
    }
}
