import Testing
@testable import HTTPDNS

/// Parses `message` as the answer to query 0x1234 for `name`/`type`.
private func parse(_ message: RawDNS, name: String = "a.test", type: DNSRecordType = .a) throws(DNSError) -> DNSAnswer {
    try DNSMessage.parseAnswer(message.bytes, id: 0x1234, name: name, type: type)
}

@Suite("DNS answer parsing")
struct DNSMessageTests {
    // MARK: Happy paths

    @Test func happyA() throws {
        var m = RawDNS.response(an: 1)
        m.a(.text("a.test"), [192, 0, 2, 1], ttl: 300)
        let answer = try parse(m)
        #expect(answer == DNSAnswer(addresses: [IPAddress("192.0.2.1")!], ttl: 300, canonicalName: "a.test"))
    }

    @Test func happyAAAA() throws {
        var m = RawDNS.response(type: 28, an: 1)
        m.aaaa(.pointer(12), v6Bytes, ttl: 60)
        let answer = try parse(m, type: .aaaa)
        #expect(answer.addresses == [IPAddress("2001:db8::1")!])
        #expect(answer.addresses.first?.family == .v6)
        #expect(answer.ttl == 60)
    }

    @Test func multipleAddressesKeepOrderDedupeAndMinTTL() throws {
        var m = RawDNS.response(an: 4)
        m.a(.pointer(12), [192, 0, 2, 3], ttl: 300)
        m.a(.pointer(12), [192, 0, 2, 1], ttl: 100)
        m.a(.pointer(12), [192, 0, 2, 3], ttl: 200)
        m.a(.pointer(12), [192, 0, 2, 2], ttl: 400)
        let answer = try parse(m)
        #expect(answer.addresses.map(\.description) == ["192.0.2.3", "192.0.2.1", "192.0.2.2"])
        #expect(answer.ttl == 100)
    }

    @Test func compressedAnswerNames() throws {
        // Owner "a.test" via pointer to the question; CNAME target "b" + pointer to "test" (offset 14);
        // A owner is a pointer to the CNAME target inside the first record's rdata.
        var m = RawDNS.response(an: 2)
        m.record(.pointer(12), type: 5) { $0.name(.compressed("b", pointer: 14)) }
        let target = m.count - 4  // "1 b C0 0E" starts 4 bytes before the end of the rdata
        m.a(.pointer(target), [198, 51, 100, 7])
        let answer = try parse(m)
        #expect(answer.addresses == [IPAddress("198.51.100.7")!])
        #expect(answer.canonicalName == "b.test")
    }

    @Test func namesCompareCaseInsensitivelyAndCanonicalNameIsLowercase() throws {
        var m = RawDNS()
        m.header(an: 2)
        m.question(.text("A.Test"))
        m.cname(.text("a.TEST"), .text("WWW.Example.Test"))
        m.a(.text("www.example.TEST"), [192, 0, 2, 9])
        let answer = try parse(m, name: "a.TEST.")
        #expect(answer.addresses == [IPAddress("192.0.2.9")!])
        #expect(answer.canonicalName == "www.example.test")
    }

    @Test func trailingGarbageIsIgnored() throws {
        var m = RawDNS.response(an: 1)
        m.a(.pointer(12), [192, 0, 2, 1])
        m.u8(0xFF, 0xC0, 0xFF, 0x40, 0x00)
        #expect(try parse(m).addresses == [IPAddress("192.0.2.1")!])
    }

    @Test func otherFamilyAndOtherClassAreIgnored() throws {
        var m = RawDNS.response(an: 3)
        m.aaaa(.pointer(12), v6Bytes)
        m.record(.pointer(12), type: 1, rrclass: 3) { $0.u8(10, 0, 0, 1) }  // CHAOS
        m.a(.pointer(12), [192, 0, 2, 1])
        #expect(try parse(m).addresses == [IPAddress("192.0.2.1")!])
    }

    // MARK: CNAME chains

    @Test func cnameChainOfTwoHopsIsFollowedWithMinTTL() throws {
        var m = RawDNS.response(an: 4)
        m.a(.text("c.test"), [192, 0, 2, 44], ttl: 500)  // order must not matter
        m.cname(.text("b.test"), .text("c.test"), ttl: 30)
        m.cname(.pointer(12), .text("b.test"), ttl: 900)
        m.a(.text("a.test"), [192, 0, 2, 99], ttl: 1)  // owned by a CNAME'd name: not ours
        let answer = try parse(m)
        #expect(answer.addresses == [IPAddress("192.0.2.44")!])
        #expect(answer.ttl == 30)
        #expect(answer.canonicalName == "c.test")
    }

    @Test func cnameLoopIsRejected() {
        var m = RawDNS.response(an: 3)
        m.cname(.pointer(12), .text("b.test"))
        m.cname(.text("b.test"), .text("c.test"))
        m.cname(.text("c.test"), .text("b.test"))
        #expect(throws: DNSError.cnameLoop(name: "b.test")) { try parse(m) }
    }

    @Test func cnameBackToQueryNameIsRejected() {
        var m = RawDNS.response(an: 1)
        m.cname(.pointer(12), .pointer(12))
        #expect(throws: DNSError.cnameLoop(name: "a.test")) { try parse(m) }
    }

    @Test func cnameChainOf16IsAcceptedAnd17IsRejected() throws {
        func chain(_ hops: Int) -> RawDNS {
            var m = RawDNS.response(an: UInt16(hops + 1))
            for hop in 0..<hops {
                m.cname(hop == 0 ? .pointer(12) : .text("c\(hop).test"), .text("c\(hop + 1).test"))
            }
            m.a(.text("c\(hops).test"), [192, 0, 2, 1])
            return m
        }
        #expect(try parse(chain(16)).canonicalName == "c16.test")
        #expect(throws: DNSError.cnameChainTooLong(name: "a.test")) { try parse(chain(17)) }
    }

    @Test func cnameWithDataAfterTheNameIsRejected() {
        var m = RawDNS.response(an: 1)
        m.record(.pointer(12), type: 5) { $0.name(.text("b.test")); $0.u8(0) }
        #expect(throws: DNSError.badRecordData(type: 5, length: 9)) { try parse(m) }
    }

    @Test func answerForAnotherNameIsIgnored() throws {
        var m = RawDNS.response(an: 2)
        m.a(.text("evil.test"), [203, 0, 113, 66])
        m.a(.text("a.test.evil"), [203, 0, 113, 67])
        let answer = try parse(m)
        #expect(answer.addresses.isEmpty)
        #expect(answer.ttl == 0)
        #expect(answer.canonicalName == "a.test")
    }

    // MARK: Header checks

    @Test func wrongIDIsRejected() {
        var m = RawDNS.response(an: 1)
        m.a(.pointer(12), [192, 0, 2, 1])
        #expect(throws: DNSError.idMismatch(expected: 0x4321, got: 0x1234)) {
            try DNSMessage.parseAnswer(m.bytes, id: 0x4321, name: "a.test", type: .a)
        }
    }

    @Test func queryMessageIsRejected() throws {
        let query = try DNSMessage.query(id: 0x1234, name: "a.test", type: .a)
        #expect(throws: DNSError.notAResponse) {
            try DNSMessage.parseAnswer(query, id: 0x1234, name: "a.test", type: .a)
        }
    }

    @Test func nonZeroOpcodeIsRejected() {
        var m = RawDNS()
        m.header(flags: 0x8180 | 2 << 11)  // STATUS
        m.question()
        #expect(throws: DNSError.badOpcode(2)) { try parse(m) }
    }

    @Test func truncatedAnswerFlagIsRejected() {
        var m = RawDNS.response(an: 1)
        m.bytes[2] |= 0x02
        m.a(.pointer(12), [192, 0, 2, 1])
        #expect(throws: DNSError.truncatedAnswer) { try parse(m) }
    }

    @Test(arguments: [(UInt8(3), "NXDOMAIN"), (2, "SERVFAIL"), (5, "REFUSED"), (1, "FORMERR"), (4, "NOTIMP"), (15, "RCODE 15")])
    func rcodeIsReported(rcode: UInt8, mnemonic: String) {
        var m = RawDNS()
        m.header(flags: 0x8180 | UInt16(rcode))
        m.question()
        let error = #expect(throws: DNSError.rcode(rcode, "a.test")) { try parse(m, name: "A.test.") }
        #expect(error?.description == "DNS answer: \(mnemonic) for a.test")
    }

    @Test func nxdomainWithoutQuestionIsStillNXDOMAIN() {
        var m = RawDNS()
        m.header(flags: 0x8183, qd: 0)
        #expect(throws: DNSError.rcode(3, "a.test")) { try parse(m) }
    }

    @Test func shortHeaderIsTruncated() {
        #expect(throws: DNSError.messageTruncated) {
            try DNSMessage.parseAnswer([0x12, 0x34, 0x81, 0x80], id: 0x1234, name: "a.test", type: .a)
        }
        #expect(throws: DNSError.messageTruncated) {
            try DNSMessage.parseAnswer([], id: 0x1234, name: "a.test", type: .a)
        }
    }

    // MARK: Question checks

    @Test func questionWithOtherNameIsRejected() {
        var m = RawDNS()
        m.header(an: 1)
        m.question(.text("b.test"))
        m.a(.pointer(12), [192, 0, 2, 1])
        #expect(throws: DNSError.questionMismatch("name b.test")) { try parse(m) }
    }

    @Test func questionWithOtherTypeIsRejected() {
        var m = RawDNS.response(type: 28, an: 1)
        m.a(.pointer(12), [192, 0, 2, 1])
        #expect(throws: DNSError.questionMismatch("type AAAA")) { try parse(m) }
    }

    @Test func questionWithOtherClassIsRejected() {
        var m = RawDNS()
        m.header(an: 0)
        m.question(qclass: 3)
        #expect(throws: DNSError.questionMismatch("class 3")) { try parse(m) }
    }

    @Test func questionCountZeroIsRejected() {
        var m = RawDNS()
        m.header(qd: 0, an: 1)
        m.a(.text("a.test"), [192, 0, 2, 1])
        #expect(throws: DNSError.questionMismatch("QDCOUNT 0")) { try parse(m) }
    }

    @Test func questionCountTwoIsRejected() {
        var m = RawDNS()
        m.header(qd: 2, an: 1)
        m.question()
        m.question(.pointer(12))
        m.a(.pointer(12), [192, 0, 2, 1])
        #expect(throws: DNSError.questionMismatch("QDCOUNT 2")) { try parse(m) }
    }

    // MARK: Record data

    @Test func aRecordWithFiveBytesIsRejected() {
        var m = RawDNS.response(an: 1)
        m.a(.pointer(12), [192, 0, 2, 1, 0])
        let error = #expect(throws: DNSError.badRecordData(type: 1, length: 5)) { try parse(m) }
        #expect(error?.description == "DNS answer: A record with 5-byte data")
    }

    @Test func aaaaRecordWithFourBytesIsRejected() {
        var m = RawDNS.response(type: 28, an: 1)
        m.aaaa(.pointer(12), [192, 0, 2, 1])
        #expect(throws: DNSError.badRecordData(type: 28, length: 4)) { try parse(m, type: .aaaa) }
    }

    @Test func rdataPastTheEndIsTruncated() {
        var m = RawDNS.response(an: 1)
        m.a(.pointer(12), [192, 0, 2, 1])
        m.bytes[m.count - 5] = 40  // RDLENGTH 40 with 4 bytes present
        #expect(throws: DNSError.messageTruncated) { try parse(m) }
    }

    // MARK: TTLs

    @Test func nodataWithSOAGivesEmptyAndSOATTL() throws {
        var m = RawDNS.response(type: 28, an: 0, ns: 1)
        m.soa(.pointer(14), ttl: 900, minimum: 120)  // owner "test"
        let answer = try parse(m, type: .aaaa)
        #expect(answer == DNSAnswer(addresses: [], ttl: 120, canonicalName: "a.test"))

        var lowTTL = RawDNS.response(type: 28, an: 0, ns: 1)
        lowTTL.soa(.pointer(14), ttl: 45, minimum: 3600)
        #expect(try parse(lowTTL, type: .aaaa).ttl == 45)
    }

    @Test func nodataAfterCNAMEUsesChainAndSOA() throws {
        var m = RawDNS.response(an: 1, ns: 2)
        m.cname(.pointer(12), .text("b.other"), ttl: 50)
        m.soa(.text("unrelated.test"), ttl: 1, minimum: 1)  // not an ancestor of b.other: ignored
        m.soa(.text("other"), ttl: 600, minimum: 300)
        let answer = try parse(m)
        #expect(answer == DNSAnswer(addresses: [], ttl: 50, canonicalName: "b.other"))
    }

    @Test func nodataWithoutSOAHasZeroTTL() throws {
        let answer = try parse(RawDNS.response(an: 0))
        #expect(answer == DNSAnswer(addresses: [], ttl: 0, canonicalName: "a.test"))
    }

    @Test func ttlWithHighBitCountsAsZero() throws {
        var m = RawDNS.response(an: 2)
        m.a(.pointer(12), [192, 0, 2, 1], ttl: 0x8000_0001)
        m.a(.pointer(12), [192, 0, 2, 2], ttl: 300)
        let answer = try parse(m)
        #expect(answer.ttl == 0)
        #expect(answer.addresses.count == 2)

        var max = RawDNS.response(an: 1)
        max.a(.pointer(12), [192, 0, 2, 1], ttl: 0x7FFF_FFFF)
        #expect(try parse(max).ttl == 0x7FFF_FFFF)
    }

    @Test func soaMinimumWithHighBitCountsAsZero() throws {
        var m = RawDNS.response(an: 0, ns: 1)
        m.soa(.pointer(14), ttl: 900, minimum: 0xFFFF_FFFF)
        #expect(try parse(m).ttl == 0)
    }

    // MARK: Presentation

    @Test func canonicalNameEscapesOddBytes() throws {
        var m = RawDNS.response(an: 1)
        m.cname(.pointer(12), .raw([3, UInt8(ascii: "x"), UInt8(ascii: "."), 0x0A, 0]))
        #expect(try parse(m).canonicalName == "x\\046\\010")
    }

    @Test func dottedLabelIsNotTheSameNameAsTwoLabels() throws {
        // One label "a.test" must not match the two labels "a" "test".
        var m = RawDNS.response(an: 1)
        m.a(.raw([6] + Array("a.test".utf8) + [0]), [203, 0, 113, 1])
        #expect(try parse(m).addresses.isEmpty)
    }
}
