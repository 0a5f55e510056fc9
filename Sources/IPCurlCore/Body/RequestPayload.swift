import CurlKit

/// What a request sends: nothing, a `-d`-family body, a `-F` multipart form, or a `-T` upload. Every kind
/// can be sent again (redirect 307/308, retry, IP failover): files are reopened, forms rebuilt, and stdin is
/// kept up to ``StdinReplay/bound``.
/// - SeeAlso: `CURLOPT_POST`, `CURLOPT_POSTFIELDSIZE_LARGE`, `CURLOPT_MIMEPOST`, `CURLOPT_UPLOAD`,
///   `CURLOPT_INFILESIZE_LARGE`.
public enum RequestPayload: Sendable, Equatable {
    case none
    /// `-d`, `--data-raw`, `--data-binary`, `--data-urlencode`: a POST with a known Content-Length.
    case data([BodySegment])
    /// `-F/--form`: a multipart POST.
    case form([FormPart])
    /// `-T FILE`: a PUT of a regular file with its size as Content-Length.
    case uploadFile(path: String, size: Int64)
    /// `-T -`: a PUT streamed from stdin (chunked).
    case uploadStandardInput

    /// The method curl infers: GET, POST or PUT.
    public var inferredMethod: String {
        switch self {
        case .none: "GET"
        case .data, .form: "POST"
        case .uploadFile, .uploadStandardInput: "PUT"
        }
    }

    /// Installs the body on `handle`; `stdin` is the run's one reader of standard input.
    func apply(to handle: EasyHandle, stdin: StdinReplay) throws(CurlError) {
        switch self {
        case .none:
            break
        case .data(let segments):
            let body = SegmentedBody(segments)
            handle.requestBody = body
            try handle.setPost(size: body.length ?? 0)
        case .form(let parts):
            let form = try MimeForm(for: handle)
            for part in parts { try part.add(to: form) }
            try form.attach(to: handle)
        case .uploadFile(let path, let size):
            handle.requestBody = SegmentedBody([.file(path: path, size: size)])
            try handle.setUpload(size: size)
        case .uploadStandardInput:
            handle.requestBody = try stdin.reader()
            try handle.setUpload(size: nil)
        }
    }

    /// `-T FILE`: the payload, and the URL with the file's name appended when the URL names no file
    /// (ends in `/`), as curl does.
    public static func upload(_ path: String, url: String) throws(CurlError) -> (RequestPayload, String) {
        if path == "-" { return (.uploadStandardInput, url) }
        guard let size = LocalFiles.regularFileSize(path), LocalFiles.isReadableFile(path) else {
            throw CurlError.readError.with(message: "Failed to open/read local data from file/application: \(path)")
        }
        var url = url
        if let parsed = try? CurlURL(url), parsed.path.hasSuffix("/"), !parsed.hasQueryOrFragment {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            url = (url.hasSuffix("/") ? url : url + "/") + String(decoding: DataArgument.percentEncoded(Array(name.utf8)), as: UTF8.self)
        }
        return (.uploadFile(path: path, size: size), url)
    }
}
