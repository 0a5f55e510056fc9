// Test-only builder that emits raw DNS wire bytes, including hand-made compression pointers.

/// How a name is written: plain text, a bare pointer, labels followed by a pointer, or raw bytes.
enum RawName {
    case text(String)
    case pointer(Int)
    case compressed(String, pointer: Int)
    case raw([UInt8])
}

/// Appends DNS fields to `bytes`; no validation, so malformed messages are easy to make.
struct RawDNS {
    var bytes: [UInt8] = []
    var count: Int { bytes.count }

    mutating func u8(_ values: UInt8...) { bytes += values }
    mutating func u16(_ value: UInt16) { bytes += [UInt8(value >> 8), UInt8(value & 0xFF)] }
    mutating func u32(_ value: UInt32) { u16(UInt16(value >> 16)); u16(UInt16(value & 0xFFFF)) }

    /// Writes a name and returns its start offset.
    @discardableResult
    mutating func name(_ name: RawName) -> Int {
        let start = count
        func labels(_ text: String) {
            for label in text.split(separator: ".") {
                bytes.append(UInt8(label.utf8.count))
                bytes += label.utf8
            }
        }
        switch name {
        case .text(let text): labels(text); bytes.append(0)
        case .pointer(let target): pointer(target)
        case .compressed(let text, let target): labels(text); pointer(target)
        case .raw(let raw): bytes += raw
        }
        return start
    }

    /// A NOERROR response header (ID 0x1234) plus the question for `a.test`.
    static func response(type: UInt16 = 1, an: UInt16, ns: UInt16 = 0, ar: UInt16 = 0) -> RawDNS {
        var m = RawDNS()
        m.header(an: an, ns: ns, ar: ar)
        m.question(type: type)
        return m
    }

    mutating func pointer(_ target: Int) {
        u16(0xC000 | UInt16(target))
    }

    /// Header; default flags are a plain NOERROR response (QR=1, RD=1, RA=1).
    mutating func header(id: UInt16 = 0x1234, flags: UInt16 = 0x8180,
                         qd: UInt16 = 1, an: UInt16 = 0, ns: UInt16 = 0, ar: UInt16 = 0) {
        for field in [id, flags, qd, an, ns, ar] { u16(field) }
    }

    /// Question entry; `a.test` at offset 12 is then reachable via pointer 12 (and `test` via 14).
    mutating func question(_ qname: RawName = .text("a.test"), type: UInt16 = 1, qclass: UInt16 = 1) {
        name(qname)
        u16(type)
        u16(qclass)
    }

    /// Resource record whose rdata is written by `rdata`; RDLENGTH is patched afterwards.
    mutating func record(_ owner: RawName, type: UInt16, ttl: UInt32 = 300, rrclass: UInt16 = 1,
                         rdata: (inout RawDNS) -> Void) {
        name(owner)
        u16(type)
        u16(rrclass)
        u32(ttl)
        let lengthAt = count
        u16(0)
        rdata(&self)
        let length = count - lengthAt - 2
        bytes[lengthAt] = UInt8(length >> 8)
        bytes[lengthAt + 1] = UInt8(length & 0xFF)
    }

    mutating func a(_ owner: RawName, _ address: [UInt8], ttl: UInt32 = 300) {
        record(owner, type: 1, ttl: ttl) { $0.bytes += address }
    }

    mutating func aaaa(_ owner: RawName, _ address: [UInt8], ttl: UInt32 = 300) {
        record(owner, type: 28, ttl: ttl) { $0.bytes += address }
    }

    mutating func cname(_ owner: RawName, _ target: RawName, ttl: UInt32 = 300) {
        record(owner, type: 5, ttl: ttl) { $0.name(target) }
    }

    mutating func soa(_ owner: RawName, ttl: UInt32, minimum: UInt32) {
        record(owner, type: 6, ttl: ttl) {
            $0.name(.text("ns.test"))
            $0.name(.text("hostmaster.test"))
            for field: UInt32 in [2024_01_01, 7200, 3600, 1_209_600, minimum] { $0.u32(field) }
        }
    }
}

/// SplitMix64: a tiny deterministic PRNG so fuzz runs are reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

let v6Bytes: [UInt8] = [0x20, 0x01, 0x0d, 0xb8] + Array(repeating: 0, count: 11) + [1]  // 2001:db8::1
