import CurlKit

/// One `-F/--form` argument in curl's syntax: `name=value`, `name=@file` (a file upload, streamed) or
/// `name=<file` (a field whose value is the file's contents); a value or file name in double quotes may hold `;`
/// and `,` (`\"` and `\\` escape); parameters follow after `;`: `type=` (which keeps `;charset=...` and other
/// parameters that are not ipcurl's), `filename=`, `headers=` (a header line, or `@file` of lines) and
/// `encoder=`. `@-` and `<-` read stdin. `--form-string` parts are taken literally.
/// - SeeAlso: curl's `-F/--form`, `--form-string`, `src/tool_formparse.c`, `CURLOPT_MIMEPOST`.
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
    /// `;headers=`: extra header lines of the part.
    public var headers: [String] = []
    /// `;encoder=`: the part's Content-Transfer-Encoding (`binary`, `8bit`, `7bit`, `base64`, `quoted-printable`).
    public var encoder: String?

    /// `--form-string name=value`: the value exactly as given.
    public init(literal argument: String) throws(CurlError) {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
            throw CurlError.usage("--form-string needs name=value, got '\(argument)'")
        }
        name = String(argument[..<equals])
        content = .text(String(argument[argument.index(after: equals)...]))
    }

    /// Parses one `-F` argument; a missing `=` is a usage error (exit 2), an unreadable file exit 26.
    public init(parsing argument: String) throws(CurlError) {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
            throw CurlError.usage("-F needs name=content, got '\(argument)'")
        }
        name = String(argument[..<equals])
        var rest = argument[argument.index(after: equals)...]
        let marker = rest.first
        if marker == "@" || marker == "<" { rest = rest.dropFirst() }
        let value = Self.word(&rest)
        content = .text(value)
        try parameters(&rest, argument: argument)
        guard marker == "@" || marker == "<" else { return }
        if value == "-" {
            content = .bytes(try LocalFiles.read("-"), filename: marker == "@" ? "-" : nil)
        } else {
            guard LocalFiles.isReadableFile(value) else {
                throw CurlError.readError.with(message: "Failed to open/read local data from file/application: \(value)")
            }
            content = marker == "@" ? .file(path: value) : .fileContents(path: value)
        }
    }

    /// The parameters after the value: each `;` followed by blanks and `name=value`.
    private mutating func parameters(_ rest: inout Substring, argument: String) throws(CurlError) {
        while rest.first == ";" {
            rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            if rest.hasPrefix("type=") {
                rest = rest.dropFirst(5)
                type = String(Self.typeValue(&rest))
            } else if rest.hasPrefix("filename=") {
                rest = rest.dropFirst(9)
                filename = Self.word(&rest)
            } else if rest.hasPrefix("headers=") {
                rest = rest.dropFirst(8)
                if rest.first == "@" {
                    rest = rest.dropFirst()
                    let path = Self.word(&rest)
                    let text = String(decoding: try LocalFiles.read(path), as: UTF8.self)
                    headers += text.split(whereSeparator: \.isNewline).map(String.init)
                        .filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }
                } else {
                    headers.append(Self.word(&rest))
                }
            } else if rest.hasPrefix("encoder=") {
                rest = rest.dropFirst(8)
                encoder = Self.word(&rest)
            } else {
                // curl warns and skips a parameter it does not know; ipcurl refuses it, so a typo cannot pass.
                let unknown = rest.prefix { $0 != ";" }
                throw CurlError.usage("-F: unknown parameter '\(unknown)' in '\(argument)'")
            }
        }
    }

    /// A quoted word (`\"` and `\\` escapes; text after the closing quote up to `;` is dropped, as curl does) or
    /// the text up to the next `;`.
    private static func word(_ rest: inout Substring) -> String {
        guard rest.first == "\"" else {
            let end = rest.firstIndex(of: ";") ?? rest.endIndex
            defer { rest = rest[end...] }
            return String(rest[..<end])
        }
        var result = ""
        var index = rest.index(after: rest.startIndex)
        while index < rest.endIndex, rest[index] != "\"" {
            if rest[index] == "\\", let next = rest.index(index, offsetBy: 1, limitedBy: rest.endIndex), next < rest.endIndex,
               rest[next] == "\"" || rest[next] == "\\" {
                index = next
            }
            result.append(rest[index])
            index = rest.index(after: index)
        }
        rest = rest[index...]
        rest = rest[(rest.firstIndex(of: ";") ?? rest.endIndex)...]
        return result
    }

    /// `type=`'s value: up to the `;` that starts one of the part parameters, so `text/html;charset=utf-8` stays whole.
    private static func typeValue(_ rest: inout Substring) -> Substring {
        var end = rest.startIndex
        while let semicolon = rest[end...].firstIndex(of: ";") {
            let next = rest[rest.index(after: semicolon)...].drop { $0 == " " || $0 == "\t" }
            if ["type=", "filename=", "headers=", "encoder="].contains(where: { next.hasPrefix($0) }) {
                defer { rest = rest[semicolon...] }
                return rest[..<semicolon]
            }
            end = rest.index(after: semicolon)
        }
        defer { rest = rest[rest.endIndex...] }
        return rest
    }

    /// Adds this part to `form`.
    func add(to form: MimeForm) throws(CurlError) {
        let extra = MimeForm.PartExtras(headers: headers, encoder: encoder)
        switch content {
        case .text(let text): try form.add(name: name, bytes: Array(text.utf8), type: type, extras: extra)
        case .bytes(let bytes, let sent): try form.add(name: name, bytes: bytes, type: type, filename: filename ?? sent, extras: extra)
        case .file(let path): try form.add(name: name, path: path, type: type, filename: filename, extras: extra)
        case .fileContents(let path): try form.add(name: name, path: path, type: type, sendsFilename: false, extras: extra)
        }
    }
}
