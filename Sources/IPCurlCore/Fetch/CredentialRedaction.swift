/// The one redaction of every dump (`-v`, `--trace`, `--trace-ascii`): the values of `Authorization`,
/// `Proxy-Authorization` and `Cookie` in every shape libcurl prints a request header, a header line
/// (`Name: value`, any letter case, blanks before the colon) and HTTP/2's info line (`h2h3 [name: value]`), become
/// `[redacted]`; the name, the colon and the line ending stay.
public enum CredentialRedaction {
    /// Header names (lowercase) whose values are never dumped, and are blanked from the process list when given
    /// with `-H`.
    public static let secretHeaderNames = ["authorization", "proxy-authorization", "cookie"]
    static let secretHeaders: [[UInt8]] = secretHeaderNames.map { Array($0.utf8) }

    /// `block` (lines ending in LF or CR LF, the last one possibly without) with every line redacted.
    static func redacted(block: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(block.count)
        for (index, line) in block.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            if index > 0 { out.append(0x0A) }
            let carriage = line.last == 0x0D
            out += redacted(line: carriage ? line.dropLast() : line[...])
            if carriage { out.append(0x0D) }
        }
        return out
    }

    /// One line without its line ending, with a secret header's value replaced by `[redacted]`.
    static func redacted<Line: Collection<UInt8>>(line: Line) -> [UInt8] {
        let bytes = Array(line)
        // A header line: the name at the start (after blanks), blanks, the colon; the rest of the line is the value.
        if let colon = secretName(in: bytes, at: skipBlanks(bytes, from: 0)) {
            return Array(bytes[...colon]) + Array(" [redacted]".utf8)
        }
        // libcurl's HTTP/2 info line: `[name: value]` anywhere; the value runs to the line's last `]`, since a
        // cookie may hold a `]` itself.
        for open in bytes.indices where bytes[open] == UInt8(ascii: "[") {
            guard let colon = secretName(in: bytes, at: skipBlanks(bytes, from: open + 1)) else { continue }
            let close = bytes[(colon + 1)...].lastIndex(of: UInt8(ascii: "]")) ?? bytes.endIndex
            return Array(bytes[...colon]) + Array(" [redacted]".utf8) + Array(bytes[close...])
        }
        return bytes
    }

    /// The index of the colon when a secret header's name (any letter case) starts at `start`, followed by blanks
    /// and a colon.
    private static func secretName(in bytes: [UInt8], at start: Int) -> Int? {
        for name in secretHeaders where start + name.count <= bytes.count {
            let matches = zip(bytes[start..<(start + name.count)], name).allSatisfy { byte, lower in
                (0x41...0x5A).contains(byte) ? byte | 0x20 == lower : byte == lower
            }
            guard matches else { continue }
            let colon = skipBlanks(bytes, from: start + name.count)
            if colon < bytes.count, bytes[colon] == UInt8(ascii: ":") { return colon }
        }
        return nil
    }

    /// The first index at or after `start` that is not a blank (space or TAB).
    private static func skipBlanks(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        return index
    }
}
