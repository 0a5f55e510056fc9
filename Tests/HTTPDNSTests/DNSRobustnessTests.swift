import Testing
@testable import HTTPDNS

/// Hostile and truncated messages: every outcome must be a `DNSError` or a sane answer, never a trap.
@Suite("DNS answer robustness")
struct DNSRobustnessTests {
    /// A positive answer using compression and a CNAME, followed by authority and additional records.
    /// Returns the message and the offset where the answer section ends.
    static func positiveAnswer() -> (RawDNS, answerEnd: Int) {
        var m = RawDNS()
        m.header(an: 3, ns: 1, ar: 1)
        m.question()
        m.cname(.pointer(12), .compressed("www", pointer: 14), ttl: 600)
        let target = m.count - 6
        m.a(.pointer(target), [192, 0, 2, 1], ttl: 300)
        m.a(.pointer(target), [192, 0, 2, 2], ttl: 200)
        let answerEnd = m.count
        m.record(.pointer(14), type: 2) { $0.name(.compressed("ns", pointer: 14)) }  // NS in authority
        m.a(.text("ns.test"), [192, 0, 2, 53])  // glue in additional
        return (m, answerEnd)
    }

    @Test func positiveAnswerParses() throws {
        let (m, _) = Self.positiveAnswer()
        let answer = try DNSMessage.parseAnswer(m.bytes, id: 0x1234, name: "a.test", type: .a)
        #expect(answer == DNSAnswer(addresses: [IPAddress("192.0.2.1")!, IPAddress("192.0.2.2")!],
                                    ttl: 200, canonicalName: "www.test"))
    }

    @Test func truncationAtEveryOffsetOfPositiveAnswer() throws {
        let (m, answerEnd) = Self.positiveAnswer()
        let full = try DNSMessage.parseAnswer(m.bytes, id: 0x1234, name: "a.test", type: .a)
        for cut in 0..<m.count {
            let result = Result { () throws(DNSError) in
                try DNSMessage.parseAnswer(Array(m.bytes[..<cut]), id: 0x1234, name: "a.test", type: .a)
            }
            if cut < answerEnd {
                #expect(throws: DNSError.messageTruncated, "cut at \(cut)") { try result.get() }
            } else {
                #expect(try result.get() == full, "cut at \(cut) is inside trailing sections")
            }
        }
    }

    @Test func truncationAtEveryOffsetOfNodataAnswer() throws {
        var m = RawDNS()
        m.header(an: 0, ns: 1, ar: 1)
        m.question(type: 28)
        m.soa(.pointer(14), ttl: 900, minimum: 60)
        let authorityEnd = m.count
        m.a(.text("ns.test"), [192, 0, 2, 53])
        let full = try DNSMessage.parseAnswer(m.bytes, id: 0x1234, name: "a.test", type: .aaaa)
        #expect(full.ttl == 60)
        for cut in 0..<m.count {
            let result = Result { () throws(DNSError) in
                try DNSMessage.parseAnswer(Array(m.bytes[..<cut]), id: 0x1234, name: "a.test", type: .aaaa)
            }
            if cut < authorityEnd {
                #expect(throws: DNSError.messageTruncated, "cut at \(cut)") { try result.get() }
            } else {
                #expect(try result.get() == full, "cut at \(cut)")
            }
        }
    }

    // MARK: Compression pointers

    @Test func selfPointerIsRejected() {
        var m = RawDNS()
        m.header(an: 0)
        m.pointer(12)  // question name at 12 points at itself
        m.u16(1); m.u16(1)
        #expect(throws: DNSError.pointerLoop(offset: 12)) {
            try DNSMessage.parseAnswer(m.bytes, id: 0x1234, name: "a.test", type: .a)
        }
    }

    @Test func selfPointerInAnswerOwnerIsRejected() {
        var m = RawDNS()
        m.header(an: 1)
        m.question()
        let owner = m.count
        m.a(.pointer(owner), [192, 0, 2, 1])
        #expect(throws: DNSError.pointerLoop(offset: owner)) {
            try DNSMessage.parseAnswer(m.bytes, id: 0x1234, name: "a.test", type: .a)
        }
    }

    @Test func mutuallyPointingPointersInQuestionAreRejected() {
        var m = RawDNS()
        m.header(an: 0)
        m.pointer(14)  // offset 12 -> 14
        m.pointer(12)  // offset 14 -> 12
        m.u16(1); m.u16(1)
        #expect(throws: DNSError.pointerLoop(offset: 12)) {
            try DNSMessage.parseAnswer(m.bytes, id: 0x1234, name: "a.test", type: .a)
        }
    }

    @Test func mutuallyPointingPointersInAnswerAreRejected() {
        // Bytes at P: C0 P+2, at P+2: C0 P. Decoding from P+2 jumps back to P, whose pointer then goes forward.
        var m = RawDNS()
        m.header(an: 2)
        m.question()
        let p = m.count + 2 + 2 + 2 + 4 + 2  // rdata start of the first record (owner is a 2-byte pointer)
        m.record(.pointer(12), type: 99) { $0.pointer(p + 2); $0.pointer(p) }
        m.a(.pointer(p + 2), [192, 0, 2, 1])
        #expect(throws: DNSError.pointerLoop(offset: p)) {
            try DNSMessage.parseAnswer(m.bytes, id: 0x1234, name: "a.test", type: .a)
        }
    }

    @Test func pointerOutOfRangeIsRejected() {
        var m = RawDNS.response(an: 1)
        let owner = m.count
        m.a(.pointer(0x3FFF), [192, 0, 2, 1])
        #expect(throws: DNSError.pointerOutOfRange(offset: owner)) {
            try DNSMessage.parseAnswer(m.bytes, id: 0x1234, name: "a.test", type: .a)
        }
    }

    @Test func forwardPointerIsRejected() {
        // Owner of the first record points forward to a valid name in the second record.
        var m = RawDNS.response(an: 2)
        let owner = m.count
        m.a(.pointer(owner + 2 + 10 + 4), [192, 0, 2, 1])
        m.a(.text("a.test"), [192, 0, 2, 2])
        #expect(throws: DNSError.pointerLoop(offset: owner)) {
            try DNSMessage.parseAnswer(m.bytes, id: 0x1234, name: "a.test", type: .a)
        }
    }

    @Test func pointerChainLongerThan128IsRejected() throws {
        func message(pointers: Int) -> RawDNS {
            var m = RawDNS.response(an: 2)
            var last = 0
            m.record(.pointer(12), type: 99) {
                last = $0.name(.text("z"))
                for _ in 0..<pointers {
                    let here = $0.count
                    $0.pointer(last)
                    last = here
                }
            }
            m.a(.pointer(last), [192, 0, 2, 1])  // +1 hop for this pointer
            return m
        }
        let ok = message(pointers: 127)
        #expect(try DNSMessage.parseAnswer(ok.bytes, id: 0x1234, name: "a.test", type: .a).addresses.isEmpty)
        #expect(throws: DNSError.tooManyPointers) {
            try DNSMessage.parseAnswer(message(pointers: 128).bytes, id: 0x1234, name: "a.test", type: .a)
        }
    }

    @Test(arguments: [UInt8(0x40), 0x80, 0x7F, 0xBF])
    func reservedLabelTypesAreRejected(_ byte: UInt8) {
        var m = RawDNS.response(an: 1)
        m.a(.raw([byte, 0]), [192, 0, 2, 1])
        #expect(throws: DNSError.invalidLabel(byte)) {
            try DNSMessage.parseAnswer(m.bytes, id: 0x1234, name: "a.test", type: .a)
        }
    }

    @Test func decodedNameLongerThan255IsRejected() {
        func owner(lastLabel: Int) -> RawName {
            let label: [UInt8] = [63] + Array(repeating: UInt8(ascii: "q"), count: 63)
            let last: [UInt8] = [UInt8(lastLabel)] + Array(repeating: UInt8(ascii: "q"), count: lastLabel)
            return .raw(label + label + label + last + [0])
        }
        var ok = RawDNS.response(an: 1)
        ok.a(owner(lastLabel: 61), [1, 2, 3, 4])  // 3 * 64 + 62 + 1 = 255 wire bytes
        #expect((try? DNSMessage.parseAnswer(ok.bytes, id: 0x1234, name: "a.test", type: .a)) != nil)

        var m = RawDNS.response(an: 1)
        m.a(owner(lastLabel: 62), [1, 2, 3, 4])  // 256 wire bytes
        #expect(throws: DNSError.nameTooLong) {
            try DNSMessage.parseAnswer(m.bytes, id: 0x1234, name: "a.test", type: .a)
        }
    }

    @Test func nameTooLongThroughPointersIsRejected() {
        // 64-byte segment reused through pointers: label + pointer back to the previous segment.
        var m = RawDNS.response(an: 2)
        var previous = 0
        m.record(.pointer(12), type: 99) {
            previous = $0.name(.raw([63] + Array(repeating: UInt8(ascii: "p"), count: 63) + [0]))
            for _ in 0..<4 {
                let here = $0.count
                $0.bytes += [63] + Array(repeating: UInt8(ascii: "p"), count: 63)
                $0.pointer(previous)
                previous = here
            }
        }
        m.a(.pointer(previous), [192, 0, 2, 1])
        #expect(throws: DNSError.nameTooLong) {
            try DNSMessage.parseAnswer(m.bytes, id: 0x1234, name: "a.test", type: .a)
        }
    }

    // MARK: Fuzzing

    @Test func randomMutationsNeverCrash() throws {
        var v6 = RawDNS()
        v6.header(an: 2, ns: 1)
        v6.question(type: 28)
        v6.cname(.pointer(12), .compressed("v6", pointer: 14))
        v6.aaaa(.pointer(v6.count - 5), v6Bytes)
        v6.soa(.pointer(14), ttl: 10, minimum: 5)
        var soaOnly = RawDNS()
        soaOnly.header(an: 0, ns: 1)
        soaOnly.question()
        soaOnly.soa(.pointer(14), ttl: 10, minimum: 5)
        let seeds: [([UInt8], DNSRecordType)] = [
            (Self.positiveAnswer().0.bytes, .a), (v6.bytes, .aaaa), (soaOnly.bytes, .a),
        ]
        for (bytes, type) in seeds {
            _ = try DNSMessage.parseAnswer(bytes, id: 0x1234, name: "a.test", type: type)
        }

        var rng = SplitMix64(state: 0xD0_5EED)
        var successes = 0, failures = 0
        for _ in 0..<20_000 {
            let (seed, type) = seeds[Int.random(in: 0..<seeds.count, using: &rng)]
            var bytes = seed
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                mutate(&bytes, using: &rng)
            }
            do {
                let answer = try DNSMessage.parseAnswer(bytes, id: 0x1234, name: "a.test", type: type)
                successes += 1
                let family: IPAddress.Family = type == .a ? .v4 : .v6
                #expect(answer.addresses.allSatisfy { $0.family == family })
                #expect(Set(answer.addresses).count == answer.addresses.count)
            } catch {
                failures += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(successes > 100)
        #expect(failures > 100)
    }

    private func mutate(_ bytes: inout [UInt8], using rng: inout SplitMix64) {
        let index = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &rng)
        switch Int.random(in: 0..<7, using: &rng) {
        case 0 where !bytes.isEmpty: bytes[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
        case 1 where !bytes.isEmpty: bytes[index] = UInt8.random(in: 0...255, using: &rng)
        case 2 where !bytes.isEmpty: bytes[index] = [0x00, 0x3F, 0x40, 0x80, 0xC0, 0xFF].randomElement(using: &rng)!
        case 3: bytes.removeLast(min(bytes.count, Int.random(in: 1...8, using: &rng)))
        case 4: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: index)
        case 5 where !bytes.isEmpty: bytes.remove(at: index)
        case 6 where index + 1 < bytes.count:  // plant a compression pointer anywhere
            bytes[index] = 0xC0 | UInt8.random(in: 0...1, using: &rng)
            bytes[index + 1] = UInt8.random(in: 0...255, using: &rng)
        default: bytes.append(UInt8.random(in: 0...255, using: &rng))
        }
    }
}
