/// A bounds-checked cursor over a DNS message; every read throws `DNSError` instead of trapping.
struct DNSWireReader {
    /// The fixed 12-byte message header.
    struct Header {
        let id: UInt16
        let flags: UInt16
        let qdcount: UInt16, ancount: UInt16, nscount: UInt16

        var isResponse: Bool { flags & 0x8000 != 0 }
        var opcode: UInt8 { UInt8((flags >> 11) & 0x0F) }
        var isTruncated: Bool { flags & 0x0200 != 0 }
        var rcode: UInt8 { UInt8(flags & 0x000F) }
    }

    /// A resource record with its rdata left in place (as a range of the message).
    struct Record {
        let owner: DNSName
        let type: UInt16
        let rrclass: UInt16
        /// TTL with RFC 2181 §8 applied: values with the high bit set read as 0.
        let ttl: UInt32
        let rdata: Range<Int>
    }

    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func u16() throws(DNSError) -> UInt16 {
        guard offset + 2 <= bytes.count else { throw .messageTruncated }
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func u32() throws(DNSError) -> UInt32 {
        let high = try u16()
        return UInt32(high) << 16 | UInt32(try u16())
    }

    /// Reads the header; ARCOUNT is read and dropped (the additional section is never used).
    mutating func header() throws(DNSError) -> Header {
        guard bytes.count >= 12 else { throw .messageTruncated }
        let header = Header(id: try u16(), flags: try u16(), qdcount: try u16(), ancount: try u16(), nscount: try u16())
        _ = try u16()
        return header
    }

    mutating func record() throws(DNSError) -> Record {
        let owner = try name()
        let type = try u16(), rrclass = try u16(), rawTTL = try u32()
        let length = Int(try u16())
        guard offset + length <= bytes.count else { throw .messageTruncated }
        defer { offset += length }
        return Record(owner: owner, type: type, rrclass: rrclass,
                      ttl: rawTTL > 0x7FFF_FFFF ? 0 : rawTTL, rdata: offset..<offset + length)
    }

    /// Reads a possibly compressed name at the cursor and moves past it.
    ///
    /// Each pointer must target a position strictly before the start of the segment being decoded
    /// (so loops are impossible) and inside the message; at most 128 pointers and 255 wire bytes.
    mutating func name() throws(DNSError) -> DNSName {
        var position = offset, segmentStart = offset, hops = 0, wireLength = 1
        var end: Int?
        var labels: [[UInt8]] = []
        while true {
            guard position < bytes.count else { throw .messageTruncated }
            let length = bytes[position]
            switch length & 0xC0 {
            case 0x00 where length == 0:
                offset = end ?? position + 1
                return DNSName(labels: labels)
            case 0x00:
                let count = Int(length)
                guard position + 1 + count <= bytes.count else { throw .messageTruncated }
                wireLength += 1 + count
                guard wireLength <= 255 else { throw .nameTooLong }
                labels.append(Array(bytes[position + 1...position + count]))
                position += 1 + count
            case 0xC0:
                guard position + 1 < bytes.count else { throw .messageTruncated }
                let target = Int(length & 0x3F) << 8 | Int(bytes[position + 1])
                guard target < bytes.count else { throw .pointerOutOfRange(offset: position) }
                guard target < segmentStart else { throw .pointerLoop(offset: position) }
                hops += 1
                guard hops <= DNSMessage.maxPointerHops else { throw .tooManyPointers }
                if end == nil { end = position + 2 }
                position = target
                segmentStart = target
            default:
                throw .invalidLabel(length)
            }
        }
    }

    /// Reads a name at `start` (e.g. inside rdata) without moving the cursor; returns the offset after it.
    func name(at start: Int) throws(DNSError) -> (name: DNSName, next: Int) {
        var reader = self
        reader.offset = start
        let name = try reader.name()
        return (name, reader.offset)
    }
}
