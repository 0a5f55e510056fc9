import CurlKit
import IPCurlCore
import OptionTable

/// What a fetch sends, spelled as in curl: method, headers, bodies, uploads, identity and HTTP version.
struct TransferOptions: Sendable {
    /// The request's shared parts that rows set directly (`-X`, `-A`, `-c`, `-j`, `--compressed`, the HTTP
    /// version); ``apply(to:diagnostics:)`` adds the ones that need reading or checking (headers, cookie files).
    var template = RequestTemplate()
    var headers: [String] = []
    /// The `-d`-family values in command-line order (curl joins `-d a --data-binary b -d c` as `a&b&c`).
    var data: [DataArgument] = []
    var get = false
    /// `--url-query` values in order, as `--data-urlencode` (or, with a leading `+`, raw) arguments.
    var urlQuery: [DataArgument] = []
    /// `-F` and `--form-string` values in command-line order; `true` marks a literal `--form-string`.
    var form: [(text: String, literal: Bool)] = []
    /// `-T` values in order: the first goes with the first URL, the next with the next (``FetchCommand``); an
    /// empty one leaves its URL without an upload.
    var uploads: [String] = []
    /// Which of `-H`, the `-d` family and `-F` names stdin first: it is read first, and gets all of it.
    var stdinFirst: InputKind?
    var referer: String?
    var user: String?
    /// `-b` values in order: `name=value` strings (joined with `;`) and cookie files (each read).
    var cookie: [String] = []

    static let http = OptionCategory("http", "HTTP requests: method, headers, identity, version")
    static let post = OptionCategory("post", "Request bodies: data, forms, uploads")
    static let auth = OptionCategory("auth", "Credentials and cookies")

    /// The options that read files when the operation starts, as curl reads them while parsing.
    enum InputKind: Sendable { case header, data, form }

    static func data(_ kind: DataArgument.Kind) -> @Sendable (inout TransferOptions, OptionArgument) -> Void {
        { options, argument in
            options.data.append(DataArgument(kind, argument.text))
            let file = kind == .urlencode ? argument.text.split(separator: "@", maxSplits: 1).dropFirst().first : argument.text.dropFirst()
            if kind != .raw, file == "-", argument.text.contains("@") { options.noteStandardInput(.data) }
        }
    }

    mutating func noteStandardInput(_ kind: InputKind) {
        if stdinFirst == nil { stdinFirst = kind }
    }

    static let rows: [OptionRow<TransferOptions>] = [
        OptionRow("request", "X", .string, "method", http, "Request method to send instead of GET/POST/PUT (on every hop)") {
            $0.template.customMethod = $1.text
        },
        OptionRow("header", "H", .string, "header", http,
                  "Extra header to send (@FILE: one per line); \"Name:\" removes one, \"Name;\" sends it empty", repeatable: true,
                  important: true, secret: SecretArguments.header) { options, argument in
            options.headers.append(argument.text)
            if argument.text == "@-" { options.noteStandardInput(.header) }
        },
        OptionRow("data", "d", .string, "data", post,
                  "POST this data; @FILE reads a file (CR/LF stripped), @- stdin; all data options join with &",
                  repeatable: true, important: true, apply: data(.ascii)),
        OptionRow("data-ascii", nil, .string, "data", post, "Same as --data", repeatable: true, apply: data(.ascii)),
        OptionRow("data-raw", nil, .string, "data", post, "Like -d, but @ is literal", repeatable: true, apply: data(.raw)),
        OptionRow("data-binary", nil, .string, "data", post, "POST data as is; @FILE is streamed byte for byte, @- reads stdin",
                  repeatable: true, apply: data(.binary)),
        OptionRow("data-urlencode", nil, .string, "data", post,
                  "POST URL-encoded data: content, =content, name=content, @file, name@file", repeatable: true,
                  apply: data(.urlencode)),
        OptionRow("json", nil, .string, "data", post,
                  "POST JSON: like --data-binary (@FILE, @-), appended without &, with JSON's Content-Type and Accept",
                  repeatable: true, apply: data(.json)),
        OptionRow("get", "G", .boolean, "", post, "Send the data options as a GET query string") { $0.get = $1.isOn },
        OptionRow("form", "F", .string, "name=content", post,
                  "Multipart POST part: name=value, name=@file, name=<file; ;type=, ;filename=, ;headers=, ;encoder=",
                  repeatable: true) { options, argument in
            options.form.append((argument.text, false))
            if ["=@-", "=<-", ",-"].contains(where: argument.text.contains) { options.noteStandardInput(.form) }
        },
        OptionRow("form-string", nil, .string, "name=string", post, "Multipart POST part with the value taken literally",
                  repeatable: true) { $0.form.append(($1.text, true)) },
        OptionRow("upload-file", "T", .file, "file", post,
                  "PUT this file (streamed); pairs with the URLs in order, as -o does; - and . stream stdin", repeatable: true) {
            $0.uploads.append($1.text)
        },
        OptionRow("user-agent", "A", .string, "name", http, "User-Agent to send (default ipcurl/VERSION)", important: true) {
            $0.template.userAgent = $1.text
        },
        OptionRow("referer", "e", .string, "url", http, "Referer to send; \";auto\" sets it on redirects") { $0.referer = $1.text },
        OptionRow("user", "u", .string, "user:password", auth,
                  "Basic auth; blanked from the process list, sent to the first host only", important: true,
                  secret: .whole) { $0.user = $1.text },
        OptionRow("cookie", "b", .string, "data|file", auth,
                  "Cookies \"n=v; n2=v2\" (first host only), or a cookie file to read; repeatable", repeatable: true,
                  secret: SecretArguments.cookie) {
            $0.cookie.append($1.text)
        },
        OptionRow("junk-session-cookies", "j", .boolean, "", auth, "Drop the session cookies read from -b files") {
            $0.template.junkSessionCookies = $1.isOn
        },
        OptionRow("cookie-jar", "c", .file, "file", auth, "Write every cookie to FILE after the transfer (- for stdout)") {
            $0.template.cookieJar = $1.text
        },
        OptionRow("compressed", nil, .boolean, "", http, "Ask for a compressed response (gzip, deflate, br, zstd) and decode it") {
            $0.template.compressed = $1.isOn
        },
        OptionRow("http1.0", "0", .none, "", http, "Use HTTP/1.0") { options, _ in options.template.httpVersion = .http1_0 },
        OptionRow("http1.1", nil, .none, "", http, "Use HTTP/1.1") { options, _ in options.template.httpVersion = .http1_1 },
        OptionRow("http2", nil, .none, "", http, "Use HTTP/2 (ALPN on https, Upgrade on http)") { options, _ in
            options.template.httpVersion = .http2
        },
        OptionRow("http2-prior-knowledge", nil, .none, "", http, "Use HTTP/2 without HTTP/1.1 first, also on http://") { options, _ in
            options.template.httpVersion = .http2PriorKnowledge
        },
        OptionRow("url-query", nil, .string, "data", http,
                  "Append to every URL's query, URL-encoded as --data-urlencode does; +data is appended as is", repeatable: true) {
            options, argument in
            options.urlQuery.append(argument.text.hasPrefix("+") ? DataArgument(.raw, String(argument.text.dropFirst()))
                                                                 : DataArgument(.urlencode, argument.text))
            if argument.text.hasSuffix("@-"), !argument.text.hasPrefix("+") { options.noteStandardInput(.data) }
        },
    ]

    /// `-H @FILE` lines: each line of FILE is a header (CR LF or LF ends it; blank lines are skipped), as curl reads them.
    static func expandingFiles(_ headers: [String]) throws(CurlError) -> [String] {
        var lines: [String] = []
        for header in headers {
            guard header.hasPrefix("@") else { lines.append(header); continue }
            let text = String(decoding: try LocalFiles.read(String(header.dropFirst())), as: UTF8.self)
            for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
                let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
                if !trimmed.isEmpty { lines.append(String(trimmed)) }
            }
        }
        return lines
    }

    /// `url` with `query` appended to its query (before a fragment), as `-G` and `--url-query` append it through
    /// libcurl's URL API (`CURLU_APPENDQUERY`): `&` between them unless the query is empty or ends with one, and
    /// the appended part's `%XX` escapes in lower case.
    static func url(_ url: String, appending query: String) -> String {
        let fragment = url.firstIndex(of: "#")
        let base = fragment.map { String(url[..<$0]) } ?? url
        let separator = !base.contains("?") ? "?" : base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&"
        return base + separator + lowercasedEscapes(query) + (fragment.map { String(url[$0...]) } ?? "")
    }

    /// `text` with the hex digits of each `%XX` escape in lower case, as libcurl's URL API stores a query part.
    static func lowercasedEscapes(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var index = 0
        func isHex(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte | 0x20) }
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), isHex(bytes[index + 1]), isHex(bytes[index + 2]) {
                for offset in 1...2 where (0x41...0x46).contains(bytes[index + offset]) { bytes[index + offset] |= 0x20 }
                index += 3
            } else {
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static let twoMethods = CurlError.usage("You can only select one HTTP request method! (-d, -F and -T each choose one)")

    /// Fills the parts of `request` every URL of the operation shares, from its `inputs` (``readInputs(_:)``):
    /// the template first (the other option sets add to it), headers, credentials, referer and cookies.
    func applyShared(to request: inout FetchRequest, inputs: TransferInputs) throws(CurlError) {
        request.template = template
        request.template.headers = inputs.headers
        if inputs.json {
            // As curl: JSON's Content-Type and Accept follow the -H lines, unless they set those headers themselves.
            for line in ["Content-Type: application/json", "Accept: application/json"] {
                let name = line.prefix { $0 != ":" }.lowercased()
                if !request.template.headers.contains(where: { $0.prefix { $0 != ":" && $0 != ";" }.lowercased() == name }) {
                    request.template.headers.append(line)
                }
            }
        }
        if let user {
            guard user.contains(":") else {
                throw CurlError.usage("-u \(user.prefix { $0 != ":" }): give user:password (ipcurl never prompts)")
            }
            request.credentials = Secret(value: user, origin: "-u")
        }
        if let referer {
            request.autoReferer = referer.hasSuffix(";auto")
            let text = request.autoReferer ? String(referer.dropLast(5)) : referer
            request.referer = text.isEmpty ? nil : text
        }
        let strings = cookie.filter { $0.contains("=") }
        if !strings.isEmpty { request.cookies = strings.joined(separator: ";") }
        request.template.cookieFiles = cookie.filter { !$0.contains("=") }
    }

    /// Fills the parts of `request` that are its URL's own: the queries `--url-query` and `-G` append, and the
    /// body, or the `-T` file paired with this URL (`upload`; one that cannot be opened is the request's
    /// ``FetchRequest/unopenedUpload``).
    func apply(to request: inout FetchRequest, inputs: TransferInputs, upload: String?) throws(CurlError) {
        let kinds = [!data.isEmpty, !form.isEmpty, upload != nil].filter { $0 }.count
        guard kinds <= 1 else { throw Self.twoMethods }
        if let query = inputs.urlQuery { request.url = Self.url(request.url, appending: query) }
        switch inputs.body {
        case .query(let query)?:
            request.url = Self.url(request.url, appending: query)
        case .data(let segments)?:
            request.payload = .data(segments)
        case nil:
            break
        }
        if let parts = inputs.form { request.payload = .form(parts) }
        if let upload {
            request.url = try RequestPayload.uploadTarget(upload, url: request.url)
            // As curl: a file that cannot be opened fails this transfer, which still reports (-w) and ends the run.
            do throws(CurlError) { request.payload = try RequestPayload.upload(upload) } catch { request.unopenedUpload = error }
        }
    }
}
