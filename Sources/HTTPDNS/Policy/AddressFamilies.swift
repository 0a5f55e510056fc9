/// Which address families a request may connect over: curl's `-4/--ipv4`, `-6/--ipv6`, or both.
///
/// Addresses are filtered *before* they become a `CURLOPT_RESOLVE` entry, because libcurl 7.88 does not apply
/// `CURLOPT_IPRESOLVE` to resolve entries. With both families, IPv4 addresses come first and libcurl's happy
/// eyeballs races the families.
/// - SeeAlso: `CURLOPT_IPRESOLVE`, curl's `-4/--ipv4` and `-6/--ipv6`.
public enum AddressFamilies: Sendable, Equatable {
    /// Both families, IPv4 first (the default).
    case both
    /// `-4/--ipv4`.
    case v4Only
    /// `-6/--ipv6`.
    case v6Only

    /// The families allowed, in preference order.
    public var families: [IPAddress.Family] {
        switch self {
        case .both: [.v4, .v6]
        case .v4Only: [.v4]
        case .v6Only: [.v6]
        }
    }

    /// `addresses` restricted to the allowed families, IPv4 first, otherwise in the provider's order.
    public func ordered(_ addresses: [IPAddress]) -> [IPAddress] {
        families.flatMap { family in addresses.filter { $0.family == family } }
    }

    /// How messages name what is missing: `IPv4`, `IPv6` or `IPv4 or IPv6`.
    public var wanted: String {
        switch self {
        case .both: "IPv4 or IPv6"
        case .v4Only: "IPv4"
        case .v6Only: "IPv6"
        }
    }

    /// The DNS record types to ask for: A, AAAA, or both.
    public var recordTypes: [DNSRecordType] {
        families.map { $0 == .v4 ? .a : .aaaa }
    }
}
