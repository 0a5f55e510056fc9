/// Why a DNS query could not be built or a DNS answer could not be used.
///
/// Malformed input of any kind surfaces as one of these cases; the codec never traps.
public enum DNSError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The message ends before a field it announces (header, question, record or rdata).
    case messageTruncated
    /// A name-compression pointer at `offset` points past the end of the message.
    case pointerOutOfRange(offset: Int)
    /// A name-compression pointer at `offset` does not point strictly backward (self, forward or
    /// mutual pointers: the only ways to build a loop).
    case pointerLoop(offset: Int)
    /// A name needs more than 128 compression pointers.
    case tooManyPointers
    /// A decoded name exceeds 255 wire bytes.
    case nameTooLong
    /// A label length byte uses a reserved type (0x40 or 0x80 prefix).
    case invalidLabel(UInt8)
    /// The name to query is not a plain ASCII host name (see `DNSMessage.query`).
    case invalidQueryName(String)
    /// The answer's ID is not the query's.
    case idMismatch(expected: UInt16, got: UInt16)
    /// QR=0: the message is a query, not a response.
    case notAResponse
    /// The OPCODE is not 0 (standard query).
    case badOpcode(UInt8)
    /// TC=1: a DoH answer must be complete.
    case truncatedAnswer
    /// The server answered with a non-zero RCODE (first value) for the query name (second value).
    case rcode(UInt8, String)
    /// The echoed question is not ours; the payload says what differs.
    case questionMismatch(String)
    /// The CNAME chain from `name` is longer than 16 hops.
    case cnameChainTooLong(name: String)
    /// The CNAME chain revisits `name`.
    case cnameLoop(name: String)
    /// A record we would use has malformed data, e.g. an A record that is not 4 bytes.
    case badRecordData(type: UInt16, length: Int)

    /// The RFC 1035/6895 mnemonic of an RCODE, e.g. `NXDOMAIN`.
    public static func rcodeName(_ rcode: UInt8) -> String {
        switch rcode {
        case 0: "NOERROR"
        case 1: "FORMERR"
        case 2: "SERVFAIL"
        case 3: "NXDOMAIN"
        case 4: "NOTIMP"
        case 5: "REFUSED"
        case 6: "YXDOMAIN"
        case 7: "YXRRSET"
        case 8: "NXRRSET"
        case 9: "NOTAUTH"
        case 10: "NOTZONE"
        default: "RCODE \(rcode)"
        }
    }

    /// One short line, e.g. `DNS answer: NXDOMAIN for a.test`.
    public var description: String {
        switch self {
        case .messageTruncated: "DNS answer: message truncated"
        case .pointerOutOfRange(let at): "DNS answer: compression pointer at \(at) points outside the message"
        case .pointerLoop(let at): "DNS answer: compression pointer at \(at) does not point backward (loop)"
        case .tooManyPointers: "DNS answer: too many compression pointers in a name"
        case .nameTooLong: "DNS answer: name longer than 255 bytes"
        case .invalidLabel(let byte): "DNS answer: reserved label type 0x\(String(byte, radix: 16))"
        case .invalidQueryName(let name): "DNS query: invalid name \(name.debugDescription)"
        case .idMismatch(let expected, let got): "DNS answer: ID \(got) does not match query ID \(expected)"
        case .notAResponse: "DNS answer: message is a query (QR=0)"
        case .badOpcode(let opcode): "DNS answer: unexpected opcode \(opcode)"
        case .truncatedAnswer: "DNS answer: truncated (TC=1)"
        case .rcode(let code, let name): "DNS answer: \(Self.rcodeName(code)) for \(name)"
        case .questionMismatch(let what): "DNS answer: question does not match the query (\(what))"
        case .cnameChainTooLong(let name): "DNS answer: CNAME chain from \(name) longer than 16"
        case .cnameLoop(let name): "DNS answer: CNAME loop at \(name)"
        case .badRecordData(let type, let length):
            "DNS answer: \(DNSRecordType.name(of: type)) record with \(length)-byte data"
        }
    }
}
