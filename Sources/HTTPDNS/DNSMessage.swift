/// RFC 1035 wire-format codec for RFC 8484 DNS-over-HTTPS: builds queries and reads answers.
///
/// Queries carry no EDNS0 OPT record: over HTTPS there is no UDP size limit to advertise, and the
/// plain form keeps GET URLs short and cache-friendly.
public enum DNSMessage {
    /// The class IN.
    static let classIN: UInt16 = 1
    /// Most compression pointers one name may follow.
    static let maxPointerHops = 128
    /// Most CNAME records one answer chain may follow.
    static let maxCNAMEHops = 16

    /// Builds a standard query for `name`: the given ID, RD=1, one question of class IN, no EDNS.
    ///
    /// The name is validated (optional trailing dot; labels of 1...63 bytes of `[A-Za-z0-9-_]`;
    /// at most 253 bytes) and sent lowercased. Non-ASCII names must be IDNA-encoded by the caller.
    public static func query(id: UInt16, name: String, type: DNSRecordType) throws(DNSError) -> [UInt8] {
        let qname = try DNSName(validating: name)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(12 + qname.wire.count + 4)
        for field in [id, 0x0100, 1, 0, 0, 0] as [UInt16] {  // ID, flags (RD), QD/AN/NS/AR counts
            bytes += [UInt8(field >> 8), UInt8(field & 0xFF)]
        }
        bytes += qname.wire
        for field in [type.rawValue, classIN] {
            bytes += [UInt8(field >> 8), UInt8(field & 0xFF)]
        }
        return bytes
    }
}
