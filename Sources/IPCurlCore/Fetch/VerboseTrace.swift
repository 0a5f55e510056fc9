import CurlKit
import HTTPDNS

/// Prints libcurl's trace the way curl's `-v` does (`* `, `> `, `< ` prefixes), with credentials redacted
/// (``CredentialRedaction``) and every line escaped by ``Printable``: a header a server sent can hold any byte,
/// and none of them reaches the terminal raw (curl prints them as received).
public enum VerboseTrace {
    /// The printable form of one trace callback: every line prefixed, secrets redacted (`redaction`: the handle's
    /// dump so far, so a line or a folded value that spans callbacks is redacted whole), controls escaped.
    public static func render(_ kind: TraceKind, _ bytes: UnsafeRawBufferPointer,
                              redaction: CredentialRedaction.Stream = CredentialRedaction.Stream()) -> String {
        let prefix: String
        switch kind {
        case .text: prefix = "* "
        case .headerOut: prefix = "> "
        case .headerIn: prefix = "< "
        case .dataOut, .dataIn, .tlsDataOut, .tlsDataIn: return ""  // -v shows no bytes
        }
        // Split on LF bytes: as Characters, "\r\n" is one grapheme and would not split on "\n".
        let redacted = redaction.redacted(kind, bytes)
        var out = ""
        var lines = redacted.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if redacted.last == UInt8(ascii: "\n") { lines.removeLast() }
        for line in lines {
            let text = line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...]
            out += prefix + Printable.escaped(bytes: text) + "\n"
        }
        return out
    }

    /// Whether a trace callback is libcurl's note that a `CURLOPT_RESOLVE` entry replaced one its DNS cache held
    /// (`RESOLVE host:port is - old addresses discarded`).
    static func isPinReload(_ kind: TraceKind, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard kind == .text, bytes.starts(with: "RESOLVE ".utf8) else { return false }
        let suffix = " is - old addresses discarded\n".utf8
        return bytes.count >= suffix.count && bytes.suffix(suffix.count).elementsEqual(suffix)
    }
}
