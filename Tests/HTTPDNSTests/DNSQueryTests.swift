import Testing
@testable import HTTPDNS

@Suite("DNS query encoding")
struct DNSQueryTests {
    @Test func queryForATestMatchesKnownBytes() throws {
        let bytes = try DNSMessage.query(id: 0x1234, name: "a.test", type: .a)
        #expect(bytes == [
            0x12, 0x34, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // ID, RD, QDCOUNT=1
            0x01, 0x61, 0x04, 0x74, 0x65, 0x73, 0x74, 0x00,  // 1 "a" 4 "test" root
            0x00, 0x01, 0x00, 0x01,  // QTYPE A, QCLASS IN
        ])
    }

    @Test func queryForAAAAUsesType28() throws {
        let bytes = try DNSMessage.query(id: 0, name: "a.test", type: .aaaa)
        #expect(bytes.suffix(4) == [0x00, 0x1C, 0x00, 0x01])
        #expect(bytes.prefix(2) == [0, 0])
    }

    @Test func trailingDotAndCaseAreNormalized() throws {
        let plain = try DNSMessage.query(id: 7, name: "a.test", type: .a)
        #expect(try DNSMessage.query(id: 7, name: "a.test.", type: .a) == plain)
        #expect(try DNSMessage.query(id: 7, name: "A.TeSt", type: .a) == plain)
    }

    @Test func boundaryNamesAreAccepted() throws {
        let label63 = String(repeating: "a", count: 63)
        let name253 = [label63, label63, label63, String(repeating: "b", count: 61)].joined(separator: ".")
        #expect(name253.utf8.count == 253)
        let bytes = try DNSMessage.query(id: 1, name: name253, type: .a)
        #expect(bytes.count == 12 + 255 + 4)
        #expect(try DNSMessage.query(id: 1, name: name253 + ".", type: .a) == bytes)
        _ = try DNSMessage.query(id: 1, name: "_dns-x.Host-1.test", type: .a)
    }

    static let invalidNames: [String] = [
        "", ".", "..", "a..test", ".a.test", "a.test..",
        String(repeating: "a", count: 64) + ".test",
        Array(repeating: String(repeating: "a", count: 63), count: 4).joined(separator: "."),  // 255 bytes
        Array(repeating: "a", count: 127).joined(separator: ".") + ".a",  // 255 bytes of 1-byte labels
        "a b.test", "a,b.test", "a\nb.test", "a\u{0}b.test", "a\tb", "bücher.test", "a/b", "a@b", "a:b",
    ]

    @Test(arguments: invalidNames)
    func invalidQueryNameIsRejected(_ name: String) {
        #expect(throws: DNSError.invalidQueryName(name)) {
            try DNSMessage.query(id: 1, name: name, type: .a)
        }
    }

    @Test func name254BytesIsRejected() {
        let label63 = String(repeating: "a", count: 63)
        let name = [label63, label63, label63, String(repeating: "b", count: 62)].joined(separator: ".")
        #expect(name.utf8.count == 254)
        #expect(throws: DNSError.invalidQueryName(name)) { try DNSMessage.query(id: 1, name: name, type: .a) }
        #expect(throws: DNSError.invalidQueryName(name + ".")) {
            try DNSMessage.query(id: 1, name: name + ".", type: .a)
        }
    }

    @Test func invalidNameDescriptionIsOneLine() {
        let text = DNSError.invalidQueryName("a\nb").description
        #expect(!text.contains("\n"))
        #expect(text.hasPrefix("DNS query: invalid name"))
    }
}
