/// Text from servers and users made safe for one terminal line, the one escaping every stderr line and `-v` line
/// goes through: C0 controls (TAB, CR and LF included), DEL, C1 controls, invisible formatting characters
/// (bidirectional overrides, zero-width joiners, line separators) and bytes that are not UTF-8 are written as `\xNN`,
/// one per byte, so a `Location`, a header, a Content-Type or a vendor error code can neither move the cursor,
/// retitle the window, open a link nor reorder what follows it. Everything else, multi-byte UTF-8 text included, is
/// kept. A backslash is kept too: `\x1b` in the output is either an escaped ESC or those four characters as sent.
public enum Printable {
    /// `text` with control and format characters escaped (`\x1b`), nothing else changed.
    public static func escaped(_ text: some StringProtocol) -> String {
        let plain = text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        return plain ? String(text) : escaped(bytes: text.utf8)
    }

    /// `bytes` read as UTF-8 with every byte of a control or format character, and every byte that is not part of
    /// valid UTF-8 (a lone continuation byte, an overlong form, a surrogate, a cut sequence), escaped as `\xNN`.
    public static func escaped(bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var out = ""
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte < 0x20 || byte == 0x7F { hex(byte, into: &out) } else { out.unicodeScalars.append(Unicode.Scalar(byte)) }
                index += 1
                continue
            }
            // The standard library's parser: the scalar's bytes, or the length of the invalid subsequence.
            var parser = Unicode.UTF8.ForwardParser()
            var iterator = bytes[index...].makeIterator()
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if needsEscape(scalar) { encoded.forEach { hex($0, into: &out) } } else { out.unicodeScalars.append(scalar) }
                index += encoded.count
            case .error(let length):
                bytes[index..<index + length].forEach { hex($0, into: &out) }
                index += length
            case .emptyInput:
                index = bytes.count
            }
        }
        return out
    }

    /// `text` with each line escaped and its line feeds kept: whole `-v` lines.
    public static func escapedLines(_ text: some StringProtocol) -> String {
        let plain = text.utf8.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A }
        return plain ? String(text) : text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped($0) }.joined(separator: "\n")
    }

    /// `text` escaped and in single quotes, so an error line stays one line and shows where the value ends.
    public static func quoted(_ text: some StringProtocol) -> String { "'" + escaped(text) + "'" }

    /// At most `limit` characters of `text`, escaped; `...` marks a cut.
    public static func excerpt(_ text: some StringProtocol, limit: Int) -> String {
        let (kept, isCut) = prefix(text, limit)
        return escaped(kept) + (isCut ? "..." : "")
    }

    /// ``excerpt(_:limit:)`` in single quotes, `...` after the closing quote marking a cut.
    public static func quotedExcerpt(_ text: some StringProtocol, limit: Int) -> String {
        let (kept, isCut) = prefix(text, limit)
        return quoted(kept) + (isCut ? "..." : "")
    }

    /// The first `limit` scalars of `text`, and whether anything was cut.
    private static func prefix(_ text: some StringProtocol, _ limit: Int) -> (String, Bool) {
        let scalars = text.unicodeScalars
        guard scalars.count > limit else { return (String(text), false) }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars.prefix(limit))
        return (String(kept), true)
    }

    private static func hex(_ byte: UInt8, into out: inout String) {
        let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
        out += "\\x"
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0xF)])
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: true
        default: false
        }
    }
}
