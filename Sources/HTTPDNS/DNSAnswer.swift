/// The usable result of a DoH answer: the addresses of the asked family for the end of the CNAME chain.
public struct DNSAnswer: Sendable, Equatable {
    /// Addresses of the asked family, in answer order, without duplicates; empty for NODATA.
    public let addresses: [IPAddress]
    /// Seconds the answer may be cached: the minimum TTL of the records used (see `DNSMessage.parseAnswer`).
    public let ttl: UInt32
    /// The final name of the CNAME chain (the query name if there is none), lowercased, no trailing dot.
    public let canonicalName: String

    /// Creates an answer.
    public init(addresses: [IPAddress], ttl: UInt32, canonicalName: String) {
        self.addresses = addresses
        self.ttl = ttl
        self.canonicalName = canonicalName
    }
}
