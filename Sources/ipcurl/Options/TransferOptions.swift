import ArgumentParser
import CCurl
import CurlKit
import IPCurlCore

/// What a fetch sends, spelled as in curl: method, headers, bodies, uploads, identity and HTTP version.
struct TransferOptions: ParsableArguments {
    @Option(name: [.customShort("X", allowingJoined: true), .customLong("request")],
            help: ArgumentHelp("Request method to send instead of GET/POST/PUT (on every hop).", valueName: "METHOD"))
    var method: String?

    @Option(name: [.customShort("H", allowingJoined: true), .customLong("header")],
            help: ArgumentHelp("Extra header to send; repeatable. \"Name:\" removes one, \"Name;\" sends it empty.",
                               valueName: "LINE"))
    var headers: [String] = []

    @Option(name: [.customShort("d", allowingJoined: true), .customLong("data"), .customLong("data-ascii")],
            help: ArgumentHelp("POST this data; @FILE reads a file (CR/LF stripped), @- stdin. All data options join with &.",
                               valueName: "DATA"))
    var data: [String] = []

    @Option(name: .customLong("data-raw"), help: ArgumentHelp("Like -d, but @ is literal.", valueName: "DATA"))
    var dataRaw: [String] = []

    @Option(name: .customLong("data-binary"),
            help: ArgumentHelp("POST data as is; @FILE is streamed byte for byte, @- reads stdin.", valueName: "DATA"))
    var dataBinary: [String] = []

    @Option(name: .customLong("data-urlencode"),
            help: ArgumentHelp("POST URL-encoded data: content, =content, name=content, @file, name@file.", valueName: "DATA"))
    var dataURLEncode: [String] = []

    @Flag(name: [.customShort("G"), .customLong("get")], help: "Send the data options as a GET query string.")
    var get = false

    @Option(name: [.customShort("F", allowingJoined: true), .customLong("form")],
            help: ArgumentHelp("Multipart POST part: name=value, name=@file[;type=T][;filename=N], name=<file.",
                               valueName: "PART"))
    var form: [String] = []

    @Option(name: [.customShort("T", allowingJoined: true), .customLong("upload-file")],
            help: ArgumentHelp("PUT this file (streamed, with Content-Length); - streams stdin.", valueName: "FILE"))
    var uploadFile: String?

    @Option(name: [.customShort("A", allowingJoined: true), .customLong("user-agent")],
            help: ArgumentHelp("User-Agent to send (default ipcurl/VERSION).", valueName: "NAME"))
    var userAgent: String?

    @Option(name: [.customShort("e", allowingJoined: true), .customLong("referer")],
            help: ArgumentHelp("Referer to send; \";auto\" sets it on redirects.", valueName: "URL"))
    var referer: String?

    @Option(name: [.customShort("u", allowingJoined: true), .customLong("user")],
            help: ArgumentHelp("Basic auth user:password; blanked from the process list, sent to the first host only.",
                               valueName: "USER:PASSWORD"))
    var user: String?

    @Option(name: [.customShort("b", allowingJoined: true), .customLong("cookie")],
            help: ArgumentHelp("Cookies \"n=v; n2=v2\" (first host only), or a cookie file to read.", valueName: "DATA|FILE"))
    var cookie: String?

    @Flag(name: .customLong("compressed"), help: "Ask for a compressed response (gzip, deflate, br, zstd) and decode it.")
    var compressed = false

    @Flag(name: .customLong("http1.0"), help: "Use HTTP/1.0.") var http10 = false
    @Flag(name: .customLong("http1.1"), help: "Use HTTP/1.1.") var http11 = false
    @Flag(name: .customLong("http2"), help: "Use HTTP/2 (ALPN on https, Upgrade on http).") var http2 = false

    /// Fills the request part of `request`; `arguments` is the raw command line, for the order of data options.
    func apply(to request: inout FetchRequest, arguments: [String]) throws(CurlError) {
        request.method = method
        request.headers = headers
        let ordered = DataOrder.interleave(arguments: arguments, values: [
            .ascii: data, .raw: dataRaw, .binary: dataBinary, .urlencode: dataURLEncode,
        ])
        let kinds = [!ordered.isEmpty && !get, !form.isEmpty, uploadFile != nil].filter { $0 }.count
        guard kinds <= 1 else { throw CurlError.usage("You can only select one HTTP request method! (-d, -F and -T each choose one)") }
        if get, !ordered.isEmpty {
            let query = try DataArgument.query(ordered)
            let fragment = request.url.firstIndex(of: "#")
            let base = fragment.map { String(request.url[..<$0]) } ?? request.url
            request.url = base + (base.contains("?") ? "&" : "?") + query + (fragment.map { String(request.url[$0...]) } ?? "")
        } else if !ordered.isEmpty {
            request.payload = .data(try DataArgument.body(ordered))
        }
        if !form.isEmpty {
            var parts: [FormPart] = []
            for part in form { parts.append(try FormPart(parsing: part)) }
            request.payload = .form(parts)
        }
        if let uploadFile { (request.payload, request.url) = try RequestPayload.upload(uploadFile, url: request.url) }
        if let user {
            guard user.contains(":") else {
                throw CurlError.usage("-u \(user.prefix { $0 != ":" }): give user:password (ipcurl never prompts)")
            }
            request.credentials = Secret(value: user, origin: "-u")
        }
        if let userAgent { request.userAgent = userAgent }
        if let referer {
            request.autoReferer = referer.hasSuffix(";auto")
            let text = request.autoReferer ? String(referer.dropLast(5)) : referer
            request.referer = text.isEmpty ? nil : text
        }
        if let cookie {
            if cookie.contains("=") { request.cookies = cookie } else { request.cookieFile = cookie }
        }
        request.compressed = compressed
        if http10 { request.httpVersion = CURL_HTTP_VERSION_1_0 }
        if http11 { request.httpVersion = CURL_HTTP_VERSION_1_1 }
        if http2 { request.httpVersion = CURL_HTTP_VERSION_2_0 }
    }
}
