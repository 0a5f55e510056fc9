import FuzzSupport
import HTTPDNS

/// RFC 8484 wire answers: the question is taken from the message itself (so mutations of it still reach the
/// answer sections), the ID from its header.
@_cdecl("FuzzDNSMessage_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let message = bytes(data, size)
        guard message.count >= 12 else { return 0 }
        let id = UInt16(message[0]) << 8 | UInt16(message[1])
        let (name, type) = question(message) ?? ("example.com", .a)
        do {
            let answer = try DNSMessage.parseAnswer(message, id: id, name: name, type: type)
            requireValid(answer.addresses, family: type == .a ? .v4 : type == .aaaa ? .v6 : nil, unique: true,
                         host: name, "DNS answer")
            require(type == .a || type == .aaaa || answer.addresses.isEmpty, "addresses for a \(type) question")
            requireOneLine(answer.canonicalName, "canonical name")
            require(answer.ttl <= 0x7FFF_FFFF, "TTL \(answer.ttl) has the high bit set")
        } catch {
            requireOneLine("\(error)", "DNS error")
        }
        return 0
    }
}

/// The first question's name (uncompressed, host-name bytes only) and type, when it is one `query` could ask.
func question(_ message: [UInt8]) -> (String, DNSRecordType)? {
    var offset = 12, labels: [String] = []
    while offset < message.count, message[offset] != 0 {
        let length = Int(message[offset])
        guard length <= 63, offset + 1 + length < message.count else { return nil }
        labels.append(String(decoding: message[(offset + 1)...(offset + length)], as: UTF8.self))
        offset += 1 + length
    }
    guard offset + 2 < message.count, !labels.isEmpty,
          let type = DNSRecordType(rawValue: UInt16(message[offset + 1]) << 8 | UInt16(message[offset + 2])),
          (try? DNSMessage.query(id: 0, name: labels.joined(separator: "."), type: type)) != nil
    else { return nil }
    return (labels.joined(separator: "."), type)
}
