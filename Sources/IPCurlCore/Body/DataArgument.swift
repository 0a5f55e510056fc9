import CurlKit

/// One `-d`-family argument as typed, in command-line order; curl joins them with `&`, except that a `--json`
/// argument is appended as it is.
/// - SeeAlso: curl's `-d/--data`, `--data-raw`, `--data-binary`, `--data-urlencode`, `--json`.
public struct DataArgument: Sendable, Equatable {
    /// Which option gave the argument.
    public enum Kind: String, Sendable, CaseIterable {
        /// `-d/--data`, `--data-ascii`: `@file` is read with CR and LF removed.
        case ascii = "data"
        /// `--data-raw`: never reads a file, `@` is literal.
        case raw = "data-raw"
        /// `--data-binary`: `@file` is sent byte for byte (streamed when it is a regular file).
        case binary = "data-binary"
        /// `--data-urlencode`: `content`, `=content`, `name=content`, `@file`, `name@file`, URL-encoded.
        case urlencode = "data-urlencode"
        /// `--json`: like `--data-binary`, appended without `&`; the request gets JSON's Content-Type and Accept.
        case json = "json"
    }

    /// The option the argument came from.
    public var kind: Kind
    /// The argument as typed.
    public var text: String

    /// One argument of `kind`.
    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }

    /// The body the arguments describe. `--data-binary @file` on a regular file becomes a file segment that is
    /// read while sending; everything else is read now, as curl reads it. Unreadable files are exit 26.
    public static func body(_ arguments: [DataArgument]) throws(CurlError) -> [BodySegment] {
        var segments: [BodySegment] = []
        var pending: [UInt8] = []
        for (index, argument) in arguments.enumerated() {
            if index > 0, argument.kind != .json { pending.append(UInt8(ascii: "&")) }
            if argument.kind == .binary || argument.kind == .json, argument.text.hasPrefix("@"), argument.text != "@-",
               let size = LocalFiles.regularFileSize(String(argument.text.dropFirst())),
               LocalFiles.isReadableFile(String(argument.text.dropFirst())) {
                if !pending.isEmpty { segments.append(.bytes(pending)) }
                pending = []
                segments.append(.file(path: String(argument.text.dropFirst()), size: size))
                continue
            }
            pending += try argument.bytes()
        }
        if !pending.isEmpty || segments.isEmpty { segments.append(.bytes(pending)) }
        return segments
    }

    /// The query string `-G` appends: every argument's bytes joined with `&`, files read in full.
    public static func query(_ arguments: [DataArgument]) throws(CurlError) -> String {
        var bytes: [UInt8] = []
        for (index, argument) in arguments.enumerated() {
            if index > 0, argument.kind != .json { bytes.append(UInt8(ascii: "&")) }
            bytes += try argument.bytes()
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// This argument's bytes, files read in full.
    func bytes() throws(CurlError) -> [UInt8] {
        switch kind {
        case .raw:
            return Array(text.utf8)
        case .ascii, .binary, .json:
            guard text.hasPrefix("@") else { return Array(text.utf8) }
            let content = try LocalFiles.read(String(text.dropFirst()))
            return kind != .ascii ? content : Self.asTextLines(content)
        case .urlencode:
            return try urlEncoded()
        }
    }

    /// `-d @file` as curl 7.88 reads it (`file2string`): in chunks of at most 255 bytes ending at each newline,
    /// each cut at its first CR, LF or NUL.
    static func asTextLines(_ content: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        while start < content.count {
            var end = start
            while end < content.count, end - start < 255 {
                end += 1
                if content[end - 1] == 0x0A { break }
            }
            out += content[start..<end].prefix { $0 != 0x0D && $0 != 0x0A && $0 != 0 }
            start = end
        }
        return out
    }

    /// curl's `--data-urlencode` forms: the part after the first `=` is encoded, or a file after `@` (an empty
    /// file adds nothing).
    private func urlEncoded() throws(CurlError) -> [UInt8] {
        let equals = text.firstIndex(of: "="), at = text.firstIndex(of: "@")
        if let at, equals.map({ at < $0 }) ?? true {
            let name = text[..<at]
            let content = try LocalFiles.read(String(text[text.index(after: at)...]))
            // As curl's data_urlencode: an empty file (stdin another option read first) adds nothing, not "name=".
            guard !content.isEmpty else { return [] }
            return (name.isEmpty ? [] : Array(name.utf8) + [UInt8(ascii: "=")]) + Self.formEncoded(content)
        }
        guard let equals else { return Self.formEncoded(Array(text.utf8)) }
        let name = text[..<equals]
        let content = Self.formEncoded(Array(text[text.index(after: equals)...].utf8))
        return name.isEmpty ? content : Array(name.utf8) + [UInt8(ascii: "=")] + content
    }

    /// `--data-urlencode`'s encoding in curl 7.88: `curl_easy_escape` (upper-case `%XX` for every byte but the
    /// RFC 3986 unreserved characters), then `+` for each space (what signed requests are computed over).
    public static func formEncoded(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for byte in bytes {
            if byte == UInt8(ascii: " ") { out.append(UInt8(ascii: "+")) } else { out += percentEncoded([byte]) }
        }
        return out
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters, as `curl_easy_escape` does.
    public static func percentEncoded(_ bytes: [UInt8]) -> [UInt8] { CurlURL.escaped(bytes) }
}
