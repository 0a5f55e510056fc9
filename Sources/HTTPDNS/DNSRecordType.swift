/// A DNS resource-record TYPE (RFC 1035 §3.2.2, RFC 3596) that the DoH client asks for or reads.
public enum DNSRecordType: UInt16, Sendable, CustomStringConvertible {
    case a = 1, cname = 5, soa = 6, aaaa = 28

    /// What an answer without addresses of `types` is called: `no A records`, `no AAAA records`, `no A or AAAA
    /// records`.
    public static func noRecords(of types: [DNSRecordType]) -> String {
        "no " + types.filter { $0 == .a || $0 == .aaaa }.map(\.description).joined(separator: " or ") + " records"
    }

    /// The mnemonic, e.g. `AAAA`.
    public var description: String {
        switch self {
        case .a: "A"
        case .cname: "CNAME"
        case .soa: "SOA"
        case .aaaa: "AAAA"
        }
    }

    /// The mnemonic for a known type, else RFC 3597 `TYPEnn`.
    static func name(of raw: UInt16) -> String {
        DNSRecordType(rawValue: raw)?.description ?? "TYPE\(raw)"
    }
}
