#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CurlKit

/// The operating system's resolver (`getaddrinfo`): the fallback when every HTTPDNS server failed.
///
/// Its answers carry no TTL, so they are used for this run only and never cached. Certificate verification is
/// unchanged on this path: the addresses still go into a `CURLOPT_RESOLVE` entry for the URL's own host name.
/// - SeeAlso: `getaddrinfo(3)`, `CURLOPT_RESOLVE`.
public struct SystemResolver: Resolver, Sendable {
    /// A resolver over the system's `getaddrinfo`.
    public init() {}

    public func resolve(_ host: String, port: Int) throws(CurlError) -> ResolverAnswer {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            throw ResolverFailure.couldNotResolve(host, "system DNS: \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var node = list
        while let info = node?.pointee {
            if let address = Self.address(info), !addresses.contains(address) { addresses.append(address) }
            node = info.ai_next
        }
        guard !addresses.isEmpty else { throw ResolverFailure.couldNotResolve(host, "system DNS: no addresses") }
        return ResolverAnswer(host: host, addresses: addresses, ttl: 0, source: .system)
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
