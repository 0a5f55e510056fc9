extension DNSMessage {
    /// Reads the DoH answer to the query built by `query(id:name:type:)`.
    ///
    /// Checks the header (ID, QR=1, opcode 0, TC=0, RCODE 0) and that the echoed question is exactly
    /// ours, then follows the CNAME chain from `name` (at most 16 hops) and returns the deduplicated
    /// A/AAAA addresses (class IN) owned by the chain's final name; records for other names are ignored.
    ///
    /// TTL: the minimum of the chain's CNAME TTLs and the address TTLs. With no addresses (NODATA) it
    /// is the minimum of the chain's CNAME TTLs, the SOA TTL and the SOA MINIMUM of the first IN SOA in
    /// the authority section that owns the final name or an ancestor of it; 0 without such an SOA.
    /// TTLs with the high bit set count as 0 (RFC 2181 §8). The additional section is never read, and
    /// bytes after the sections used are ignored.
    public static func parseAnswer(
        _ bytes: [UInt8], id: UInt16, name: String, type: DNSRecordType
    ) throws(DNSError) -> DNSAnswer {
        let qname = try DNSName(validating: name)
        var reader = DNSWireReader(bytes)
        let header = try reader.header()
        guard header.id == id else { throw .idMismatch(expected: id, got: header.id) }
        guard header.isResponse else { throw .notAResponse }
        guard header.opcode == 0 else { throw .badOpcode(header.opcode) }
        guard !header.isTruncated else { throw .truncatedAnswer }
        guard header.rcode == 0 else { throw .rcode(header.rcode, qname.text) }
        try checkQuestion(&reader, count: header.qdcount, name: qname, type: type)

        var answers: [DNSWireReader.Record] = []
        for _ in 0..<header.ancount { answers.append(try reader.record()) }

        let (canonical, chainTTL) = try followCNAMEs(from: qname, in: answers, reader: reader)
        var addresses: [IPAddress] = [], unique: Set<IPAddress> = []
        var ttl = chainTTL
        if type == .a || type == .aaaa {
            for record in answers
            where record.owner == canonical && record.type == type.rawValue && record.rrclass == classIN {
                guard record.rdata.count == (type == .a ? 4 : 16),
                      let address = IPAddress(bytes: bytes[record.rdata])
                else { throw .badRecordData(type: record.type, length: record.rdata.count) }
                ttl = min(ttl, record.ttl)
                if unique.insert(address).inserted { addresses.append(address) }
            }
        }
        if addresses.isEmpty {
            ttl = min(chainTTL, try negativeTTL(&reader, count: header.nscount, name: canonical) ?? 0)
        }
        return DNSAnswer(addresses: addresses, ttl: ttl, canonicalName: canonical.text)
    }

    private static func checkQuestion(
        _ reader: inout DNSWireReader, count: UInt16, name: DNSName, type: DNSRecordType
    ) throws(DNSError) {
        guard count == 1 else { throw .questionMismatch("QDCOUNT \(count)") }
        let echoed = try reader.name()
        let echoedType = try reader.u16(), echoedClass = try reader.u16()
        guard echoed == name else { throw .questionMismatch("name \(echoed.text)") }
        guard echoedType == type.rawValue else {
            throw .questionMismatch("type \(DNSRecordType.name(of: echoedType))")
        }
        guard echoedClass == classIN else { throw .questionMismatch("class \(echoedClass)") }
    }

    /// Follows IN CNAME records from `start`; returns the final name and the minimum CNAME TTL.
    private static func followCNAMEs(
        from start: DNSName, in answers: [DNSWireReader.Record], reader: DNSWireReader
    ) throws(DNSError) -> (DNSName, UInt32) {
        var current = start, seen: Set<DNSName> = [start], ttl = UInt32.max, hops = 0
        while let cname = answers.first(where: {
            $0.owner == current && $0.type == DNSRecordType.cname.rawValue && $0.rrclass == classIN
        }) {
            hops += 1
            guard hops <= maxCNAMEHops else { throw .cnameChainTooLong(name: start.text) }
            let (target, next) = try reader.name(at: cname.rdata.lowerBound)
            guard next == cname.rdata.upperBound else {
                throw .badRecordData(type: cname.type, length: cname.rdata.count)
            }
            guard seen.insert(target).inserted else { throw .cnameLoop(name: target.text) }
            ttl = min(ttl, cname.ttl)
            current = target
        }
        return (current, ttl)
    }

    /// Reads the authority section; returns min(SOA TTL, SOA MINIMUM) of the first IN SOA owning
    /// `name` or an ancestor, or nil if there is none.
    private static func negativeTTL(
        _ reader: inout DNSWireReader, count: UInt16, name: DNSName
    ) throws(DNSError) -> UInt32? {
        var result: UInt32?
        for _ in 0..<count {
            let record = try reader.record()
            guard result == nil, record.type == DNSRecordType.soa.rawValue, record.rrclass == classIN,
                  name.isSubdomain(of: record.owner)
            else { continue }
            let mname = try reader.name(at: record.rdata.lowerBound)
            let rname = try reader.name(at: mname.next)
            guard rname.next + 20 == record.rdata.upperBound else {
                throw .badRecordData(type: record.type, length: record.rdata.count)
            }
            var fields = reader
            fields.offset = rname.next + 16
            let minimum = try fields.u32()
            result = min(record.ttl, minimum > 0x7FFF_FFFF ? 0 : minimum)
        }
        return result
    }
}
