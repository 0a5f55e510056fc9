import CurlKit

/// One `-F/--form` argument: `name=value`, `name=@file` (a file upload, streamed) or `name=<file` (a field
/// whose value is the file's contents), each optionally followed by `;type=TYPE` and, for files,
/// `;filename=NAME`. `@-` and `<-` read stdin.
/// - SeeAlso: curl's `-F/--form`, `CURLOPT_MIMEPOST`.
public struct FormPart: Sendable, Equatable {
    /// Where the part's content comes from.
    public enum Content: Sendable, Equatable {
        case text(String)
        case file(path: String)
        case fileContents(path: String)
        case bytes([UInt8], filename: String?)
    }

    public var name: String
    public var content: Content
    public var type: String?
    public var filename: String?

    /// Parses one `-F` argument; a missing `=` is a usage error (exit 2), an unreadable file exit 26.
    public init(parsing argument: String) throws(CurlError) {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
            throw CurlError.usage("-F needs name=content, got '\(argument)'")
        }
        name = String(argument[..<equals])
        var value = Substring(argument[argument.index(after: equals)...])
        let marker = value.first
        if marker == "@" || marker == "<" {
            value = value.dropFirst()
            var pieces = value.split(separator: ";", omittingEmptySubsequences: false)
            let path = String(pieces.removeFirst())
            for piece in pieces {
                if piece.hasPrefix("type=") { type = String(piece.dropFirst(5)) }
                else if piece.hasPrefix("filename=") { filename = String(piece.dropFirst(9)) }
                else { throw CurlError.usage("-F: unknown parameter '\(piece)' in '\(argument)'") }
            }
            if path == "-" {
                content = .bytes(try LocalFiles.read("-"), filename: marker == "@" ? "-" : nil)
            } else {
                guard LocalFiles.isReadableFile(path) else {
                    throw CurlError.readError.with(message: "Failed to open/read local data from file/application: \(path)")
                }
                content = marker == "@" ? .file(path: path) : .fileContents(path: path)
            }
        } else {
            if let semicolon = value.firstRange(of: ";type=") {
                type = String(value[semicolon.upperBound...])
                value = value[..<semicolon.lowerBound]
            }
            content = .text(String(value))
        }
    }

    /// Adds this part to `form`.
    func add(to form: MimeForm) throws(CurlError) {
        switch content {
        case .text(let text): try form.add(name: name, bytes: Array(text.utf8), type: type)
        case .bytes(let bytes, let sent): try form.add(name: name, bytes: bytes, type: type, filename: filename ?? sent)
        case .file(let path): try form.add(name: name, path: path, type: type, filename: filename)
        case .fileContents(let path): try form.add(name: name, path: path, type: type, sendsFilename: false)
        }
    }
}
