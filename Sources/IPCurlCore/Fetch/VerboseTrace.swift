import CurlKit

/// Prints libcurl's trace the way curl's `-v` does (`* `, `> `, `< ` prefixes), with credentials redacted:
/// the values of `Authorization`, `Proxy-Authorization` and `Cookie` never reach the terminal or a CI log.
public enum VerboseTrace {
    /// Header names (lower case) whose values are replaced by `[redacted]`, and blanked from the process list when
    /// given with `-H`.
    public static let secretHeaders = ["authorization", "proxy-authorization", "cookie"]

    /// The printable form of one trace callback: every line prefixed, secrets redacted.
    public static func render(_ kind: TraceKind, _ bytes: UnsafeRawBufferPointer) -> String {
        let prefix: String
        switch kind {
        case .text: prefix = "* "
        case .headerOut: prefix = "> "
        case .headerIn: prefix = "< "
        case .dataOut, .dataIn, .tlsDataOut, .tlsDataIn: return ""  // -v shows no bytes
        }
        // Split on LF bytes: as Characters, "\r\n" is one grapheme and would not split on "\n".
        var out = ""
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if bytes.last == UInt8(ascii: "\n") { lines.removeLast() }
        for line in lines {
            let text = String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...], as: UTF8.self)
            out += prefix + redacted(Substring(text)) + "\n"
        }
        return out
    }

    /// `line` (without its line ending) with the value of a secret header (plain, or as libcurl's HTTP/2 `[name: value]` text) replaced.
    static func redacted(_ line: Substring) -> String {
        // ASCII-only lowercasing keeps byte offsets identical between `line` and `lower`.
        let bytes = Array(line.utf8)
        let lower = bytes.map { (0x41...0x5a).contains($0) ? $0 | 0x20 : $0 }
        for name in secretHeaders {
            let plain = Array((name + ":").utf8), bracketed = Array(("[" + name + ":").utf8)
            if lower.starts(with: plain) {
                return String(decoding: bytes[..<plain.count], as: UTF8.self) + " [redacted]"
            }
            if let at = lower.firstRange(of: bracketed) {
                let close = bytes[at.upperBound...].firstIndex(of: UInt8(ascii: "]")) ?? bytes.endIndex
                return String(decoding: bytes[..<at.upperBound], as: UTF8.self) + " [redacted]"
                    + String(decoding: bytes[close...], as: UTF8.self)
            }
        }
        return String(line)
    }
}
