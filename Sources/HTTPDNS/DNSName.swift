/// A domain name as lowercased labels (without the root label); compared case-insensitively by construction.
struct DNSName: Hashable, Sendable {
    /// Labels, ASCII-lowercased.
    let labels: [[UInt8]]

    init(labels: [[UInt8]]) {
        self.labels = labels.map { $0.map(Self.lowercased) }
    }

    /// Validates a host name to query: an optional trailing dot, labels of 1...63 bytes of
    /// `[A-Za-z0-9-_]`, at most 253 bytes in total. IDNA is the caller's job.
    init(validating text: String) throws(DNSError) {
        var bytes = Array(text.utf8)
        if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        guard !bytes.isEmpty, bytes.count <= 253 else { throw .invalidQueryName(text) }
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        for label in labels {
            guard (1...63).contains(label.count), label.allSatisfy(Self.isHostByte) else {
                throw .invalidQueryName(text)
            }
        }
        self.init(labels: labels.map(Array.init))
    }

    /// Uncompressed wire form, ending with the root label.
    var wire: [UInt8] {
        labels.flatMap { [UInt8($0.count)] + $0 } + [0]
    }

    /// Presentation form without trailing dot (`.` for the root); bytes outside `[a-z0-9-_]` are `\DDD`.
    var text: String {
        guard !labels.isEmpty else { return "." }
        return labels.map { label in
            label.map { byte in
                Self.isHostByte(byte) ? String(UnicodeScalar(byte)) : "\\" + Self.threeDigits(byte)
            }.joined()
        }.joined(separator: ".")
    }

    /// True if `self` equals `ancestor` or lies below it.
    func isSubdomain(of ancestor: DNSName) -> Bool {
        labels.count >= ancestor.labels.count && labels.suffix(ancestor.labels.count).elementsEqual(ancestor.labels)
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    private static func threeDigits(_ byte: UInt8) -> String {
        let digits = String(byte)
        return String(repeating: "0", count: 3 - digits.count) + digits
    }
}
