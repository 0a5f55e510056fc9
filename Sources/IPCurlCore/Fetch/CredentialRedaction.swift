import CurlKit

/// The one redaction of every dump (`-v`, `--trace`, `--trace-ascii`): the values of `Authorization`,
/// `Proxy-Authorization`, `Cookie` and a server's `Set-Cookie` (a session is a credential) in every shape libcurl
/// prints a header, and the user info of a proxy libcurl
/// took from the environment, become `[redacted]`; the name, the colon and the line ending stay. One function per
/// shape: a header line (``headerValue(_:)``: any letter case, blanks before the name and before the colon), the
/// lines that continue its value (``continuation(_:after:)``: obs-fold, a line starting with a blank), HTTP/2's
/// info line (``infoValue(_:whole:)``: `h2h3 [name: value]`), libcurl's proxy note (``proxyUserInfo(_:whole:)``).
///
/// A line, or a value folded over several lines, may span trace callbacks: libcurl hands over a response header
/// per callback and a request header block sent in part (a full socket buffer) in pieces. A ``Stream``, one per
/// handle, carries into each callback what the last one left open.
public enum CredentialRedaction {
    /// Header names (lowercase) whose values are never dumped, and are blanked from the process list when given
    /// with `-H`.
    public static let secretHeaderNames = ["authorization", "proxy-authorization", "cookie", "set-cookie"]
    static let secretHeaders: [[UInt8]] = secretHeaderNames.map { Array($0.utf8) }

    /// One handle's dump, callback after callback: what each kind of trace text (info, request header, response
    /// header) left open at the end of the last callback.
    public final class Stream {
        private var states: [TraceKind: LineState] = [:]

        /// A dump with nothing open.
        public init() {}

        /// `block`, one trace callback of `kind`, with every secret redacted.
        public func redacted(_ kind: TraceKind, _ block: UnsafeRawBufferPointer) -> [UInt8] {
            CredentialRedaction.redacted(block: block, continuing: &states[kind, default: LineState()])
        }
    }

    /// Where a dump's text stands between two callbacks.
    struct LineState {
        /// The bytes of the line the last callback ended without its line feed, as libcurl passed them.
        var open: [UInt8] = []
        /// Whether `[redacted]` already stands in the output for the open line's secret.
        var shown = false
        /// Whether the last whole line held a header's secret value, which a line starting with a blank continues.
        var inValue = false
    }

    /// A secret part of a line: its bytes, and whether `[redacted]` follows a blank there (a header value does).
    struct Part {
        var bytes: Range<Int>
        var blank = true
        /// Whether a next line starting with a blank continues it (a header value).
        var folds = false
    }

    /// `block` (lines ending in LF or CR LF, the last one possibly open) with every secret redacted, read as the
    /// continuation of `state`, which it updates.
    static func redacted(block: UnsafeRawBufferPointer, continuing state: inout LineState) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(block.count)
        var rest = block[...]
        while !rest.isEmpty {
            let newline = rest.firstIndex(of: 0x0A)
            let from = state.open.count
            state.open += rest[..<(newline ?? rest.endIndex)]
            let text = state.open.last == 0x0D ? Array(state.open.dropLast()) : state.open
            let part = secretPart(of: text, after: state.inValue, whole: newline != nil)
            let end = state.open.count
            func clamped(_ index: Int) -> Int { min(max(index, from), end) }
            if let part {
                out += state.open[from..<clamped(part.bytes.lowerBound)]
                if !state.shown { out += Array((part.blank ? " [redacted]" : "[redacted]").utf8) }
                state.shown = true
                out += state.open[clamped(part.bytes.upperBound)..<end]
            } else {
                out += state.open[from..<end]
            }
            guard let newline else { break }
            out.append(0x0A)
            state = LineState(inValue: part?.folds == true)
            rest = rest[(newline + 1)...]
        }
        return out
    }

    /// The secret values in `bytes` read as header lines (an `-H` value may hold several, joined by CR LF): each
    /// secret header's value and the lines continuing it, as byte ranges; what the process list blanks.
    public static func headerValues(in bytes: [UInt8]) -> [Range<Int>] {
        var found: [Range<Int>] = [], inValue = false
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let text = Array(line.last == 0x0D ? line.dropLast() : line)
            let value = continuation(text, after: inValue) ?? headerValue(text)
            if let bytes = value?.bytes { found.append((line.startIndex + bytes.lowerBound)..<(line.startIndex + bytes.upperBound)) }
            inValue = value != nil
        }
        return found
    }

    /// The secret part of `line` (without its line ending), by the first rule that applies; `after` when the line
    /// before held a header's secret value, `whole` when the line has ended.
    static func secretPart(of line: [UInt8], after inValue: Bool, whole: Bool) -> Part? {
        continuation(line, after: inValue) ?? headerValue(line) ?? infoValue(line, whole: whole)
            ?? proxyUserInfo(line, whole: whole)
    }

    /// A line continuing a secret header's value (obs-fold, RFC 9112 section 5.2): it starts with a blank right after
    /// that header's line or another continuation; all of it is the value.
    static func continuation(_ line: [UInt8], after inValue: Bool) -> Part? {
        guard inValue, let first = line.first, first == 0x20 || first == 0x09 else { return nil }
        return Part(bytes: 0..<line.count, folds: true)
    }

    /// A header line (`Name: value`): the name at the start after blanks, blanks, the colon; the rest of the line
    /// is the value.
    static func headerValue(_ line: [UInt8]) -> Part? {
        guard let colon = secretName(in: line, at: skipBlanks(line, from: 0)) else { return nil }
        return Part(bytes: (colon + 1)..<line.count, folds: true)
    }

    /// libcurl's HTTP/2 info line: `[name: value]` anywhere; the value runs to the line's last `]`, since a cookie
    /// may hold a `]` itself (to the end of what there is while the line is not `whole`).
    static func infoValue(_ line: [UInt8], whole: Bool) -> Part? {
        for open in line.indices where line[open] == UInt8(ascii: "[") {
            guard let colon = secretName(in: line, at: skipBlanks(line, from: open + 1)) else { continue }
            let close = whole ? line[(colon + 1)...].lastIndex(of: UInt8(ascii: "]")) ?? line.count : line.count
            return Part(bytes: (colon + 1)..<close)
        }
        return nil
    }

    /// libcurl's note on a proxy from the environment, `Uses proxy env variable NAME == 'URL'`: the URL's user info
    /// (``CurlKit/CurlURL/userInfoBytes(in:)``; all of the URL while the line is not `whole`).
    static func proxyUserInfo(_ line: [UInt8], whole: Bool) -> Part? {
        guard line.starts(with: proxyNote), let quote = line.firstIndex(of: UInt8(ascii: "'")) else { return nil }
        let start = quote + 1
        guard whole else { return Part(bytes: start..<line.count, blank: false) }
        let end = line.lastIndex(of: UInt8(ascii: "'")).flatMap { $0 > quote ? $0 : nil } ?? line.count
        let userInfo = CurlURL.userInfoBytes(in: String(decoding: line[start..<end], as: UTF8.self))
        return userInfo.map { Part(bytes: (start + $0.lowerBound)..<(start + $0.upperBound), blank: false) }
    }

    private static let proxyNote = Array("Uses proxy env variable ".utf8)

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
