import CurlKit

/// One `-F/--form` argument in curl's syntax: `name=value`, `name=@file` (a file upload, streamed) or
/// `name=<file` (a field whose value is the file's contents); a value or file name in double quotes may hold `;`
/// and `,` (`\"` and `\\` escape); parameters follow after `;`: `type=` (which keeps `;charset=...` and other
/// parameters that are not ipcurl's), `filename=`, `headers=` (a header line, or `@file` of lines) and
/// `encoder=`. `name=@a,b` (each file with parameters of its own, `name=@a;type=x/y,b`) sends the files as one
/// `multipart/mixed` part named `name`. A regular file is opened when the form is sent; stdin (`@-`, `<-`) and
/// other files that are not regular (a pipe, a FIFO, `/dev/stdin`) are read once, when the operation starts, and
/// sent to every URL. `--form-string` parts are taken literally.
/// - SeeAlso: curl's `-F/--form`, `--form-string`, `src/tool_formparse.c`, `CURLOPT_MIMEPOST`.
public struct FormPart: Sendable, Equatable {
    /// Where the part's content comes from.
    public enum Content: Sendable, Equatable {
        case text(String)
        case file(path: String)
        case fileContents(path: String)
        case bytes([UInt8], filename: String?)
        /// `name=@a,b`: each file a part of its own (with its own parameters), sent as one `multipart/mixed` part.
        case files([FormPart])
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
        let list: Character? = marker == "@" ? "," : nil
        let value = Self.word(&rest, stop: list)
        content = .text(value)
        try parameters(&rest, argument: argument, stop: list)
        guard marker == "@" || marker == "<" else { return }
        try readFile(value, uploaded: marker == "@")
        guard rest.first == "," else { return }
        var files = [FormPart(name: "", content: content, type: type, filename: filename, headers: headers, encoder: encoder)]
        (type, filename, headers, encoder) = (nil, nil, [], nil)
        while rest.first == "," {
            rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            var file = FormPart(name: "", content: .text(Self.word(&rest, stop: ",")))
            try file.parameters(&rest, argument: argument, stop: ",")
            if case .text(let path) = file.content { try file.readFile(path, uploaded: true) }
            files.append(file)
        }
        content = .files(files)
    }

    private init(name: String, content: Content, type: String? = nil, filename: String? = nil, headers: [String] = [],
                 encoder: String? = nil) {
        (self.name, self.content, self.type, self.filename, self.headers, self.encoder) = (name, content, type, filename, headers, encoder)
    }

    /// `@path` (`uploaded`) or `<path`: a regular file is opened when the form is sent; stdin and any other file
    /// (a pipe, a FIFO, `/dev/stdin`) are read while parsing, so every URL and a replay (307/308, retry) get the
    /// same bytes, with the Content-Type libcurl gives a file part of that name.
    private mutating func readFile(_ path: String, uploaded: Bool) throws(CurlError) {
        if path == "-" {
            content = .bytes(try LocalFiles.read("-"), filename: uploaded ? "-" : nil)
            return
        }
        guard LocalFiles.isReadable(path) else {
            throw CurlError.readError.with(message: "Failed to open/read local data from file/application: \(path)")
        }
        if LocalFiles.regularFileSize(path) != nil {
            content = uploaded ? .file(path: path) : .fileContents(path: path)
            return
        }
        let base = String(path.split(separator: "/").last ?? Substring(path))
        content = .bytes(try LocalFiles.read(path), filename: uploaded ? base : nil)
        if type == nil {
            type = Self.contentType(of: uploaded ? filename ?? base : nil) ?? Self.contentType(of: path)
                ?? (uploaded ? "application/octet-stream" : nil)
        }
    }

    /// libcurl's Content-Type for a file part's name (`Curl_mime_contenttype`), by its extension.
    static func contentType(of name: String?) -> String? {
        guard let name = name?.lowercased() else { return nil }
        let types = [(".gif", "image/gif"), (".jpg", "image/jpeg"), (".jpeg", "image/jpeg"), (".png", "image/png"),
                     (".svg", "image/svg+xml"), (".txt", "text/plain"), (".htm", "text/html"), (".html", "text/html"),
                     (".pdf", "application/pdf"), (".xml", "application/xml")]
        return types.first { name.hasSuffix($0.0) }?.1
    }

    /// `stop` (`,` in a list of files) ends the parameters as `;` ends a value.
    private mutating func parameters(_ rest: inout Substring, argument: String, stop: Character? = nil) throws(CurlError) {
        while rest.first == ";" {
            rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            if rest.hasPrefix("type=") {
                rest = rest.dropFirst(5)
                type = String(Self.typeValue(&rest, stop: stop))
            } else if rest.hasPrefix("filename=") {
                rest = rest.dropFirst(9)
                filename = Self.word(&rest, stop: stop)
            } else if rest.hasPrefix("headers=") {
                rest = rest.dropFirst(8)
                if rest.first == "@" {
                    rest = rest.dropFirst()
                    let path = Self.word(&rest, stop: stop)
                    let text = String(decoding: try LocalFiles.read(path), as: UTF8.self)
                    headers += text.split(whereSeparator: \.isNewline).map(String.init)
                        .filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }
                } else {
                    headers.append(Self.word(&rest, stop: stop))
                }
            } else if rest.hasPrefix("encoder=") {
                rest = rest.dropFirst(8)
                encoder = Self.word(&rest, stop: stop)
            } else {
                // curl warns and skips a parameter it does not know; ipcurl refuses it, so a typo cannot pass.
                let unknown = rest.prefix { $0 != ";" && $0 != stop }
                throw CurlError.usage("-F: unknown parameter '\(unknown)' in '\(argument)'")
            }
        }
    }

    /// A quoted word (`\"` and `\\` escapes; text after the closing quote up to `;` or `stop` is dropped, as curl
    /// does) or the text up to the next `;` or `stop`.
    private static func word(_ rest: inout Substring, stop: Character? = nil) -> String {
        guard rest.first == "\"", rest.dropFirst().contains("\"") else {
            let end = rest.firstIndex { $0 == ";" || $0 == stop } ?? rest.endIndex
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
        rest = rest[(rest.firstIndex { $0 == ";" || $0 == stop } ?? rest.endIndex)...]
        return result
    }

    /// `type=`'s value: up to the `;` that starts one of the part parameters, so `text/html;charset=utf-8` stays
    /// whole, or up to `stop`.
    private static func typeValue(_ rest: inout Substring, stop: Character?) -> Substring {
        if let stop, let comma = rest.firstIndex(of: stop) {
            var head = rest[..<comma]
            let value = typeValue(&head, stop: nil)
            rest = rest[head.startIndex...]
            return value
        }
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

    /// Adds this part to `form`; a list of files becomes a `multipart/mixed` part of `handle`'s.
    func add(to form: MimeForm, handle: EasyHandle) throws(CurlError) {
        let extra = MimeForm.PartExtras(headers: headers, encoder: encoder)
        let name: String? = name.isEmpty ? nil : name
        switch content {
        case .text(let text): try form.add(name: name, bytes: Array(text.utf8), type: type, extras: extra)
        case .bytes(let bytes, let sent): try form.add(name: name, bytes: bytes, type: type, filename: filename ?? sent, extras: extra)
        case .file(let path): try form.add(name: name, path: path, type: type, filename: filename, extras: extra)
        case .fileContents(let path): try form.add(name: name, path: path, type: type, sendsFilename: false, extras: extra)
        case .files(let files):
            let group = try MimeForm(for: handle)
            for file in files { try file.add(to: group, handle: handle) }
            try form.add(name: name, parts: group)
        }
    }
}
