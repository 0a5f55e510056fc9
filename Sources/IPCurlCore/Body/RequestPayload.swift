import CurlKit

/// What a request sends: nothing, a `-d`-family body, a `-F` multipart form, or a `-T` upload. Every kind
/// can be sent again (redirect 307/308, retry, IP failover): files are reopened, forms rebuilt, and stdin is
/// kept up to ``StreamReplay/bound``.
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
    /// `-T -`, `-T .`, or `-T FILE` where FILE is not a regular file: a PUT streamed as it is read (chunked).
    case uploadStream(UploadStream)

    /// Where a streamed upload reads from.
    public enum UploadStream: Sendable, Equatable {
        /// `-T -`.
        case standardInput
        /// `-T .`: stdin read without blocking the transfer.
        case standardInputNonBlocking
        /// A pipe, a FIFO, `/dev/stdin`, `/dev/fd/N`, a process substitution.
        case file(path: String)

        /// The run's one reader of this stream.
        func replay() -> StreamReplay {
            switch self {
            case .standardInput: StreamReplay()
            case .standardInputNonBlocking: StreamReplay(nonBlocking: true)
            case .file(let path): StreamReplay(path: path)
            }
        }
    }

    /// The method curl infers: GET, POST or PUT.
    public var inferredMethod: String {
        switch self {
        case .none: "GET"
        case .data, .form: "POST"
        case .uploadFile, .uploadStream: "PUT"
        }
    }

    /// Installs the body on `handle`; `stream` is the run's one reader of the upload stream (``replay()``), made
    /// here when the caller has none.
    func apply(to handle: EasyHandle, stream replay: StreamReplay? = nil) throws(CurlError) {
        switch self {
        case .none:
            break
        case .data(let segments):
            let body = SegmentedBody(segments)
            handle.requestBody = body
            try handle.setPost(size: body.length ?? 0)
        case .form(let parts):
            let form = try MimeForm(for: handle)
            for part in parts { try part.add(to: form, handle: handle) }
            try form.attach(to: handle)
        case .uploadFile(let path, let size):
            handle.requestBody = SegmentedBody([.file(path: path, size: size)])
            try handle.setUpload(size: size)
        case .uploadStream(let stream):
            handle.requestBody = try (replay ?? stream.replay()).reader()
            try handle.setUpload(size: nil)
            if stream == .standardInputNonBlocking { try handle.reportProgress() }
        }
    }

    /// The reader of the upload stream a run of this payload shares between its hops; `nil` when it streams
    /// nothing.
    func replay() -> StreamReplay? {
        guard case .uploadStream(let stream) = self else { return nil }
        return stream.replay()
    }

    /// `-T FILE`'s URL: `url` with the file's name appended when its path names no file
    /// (``CurlURL/uploadTarget(_:file:)``); `-` and `.` (stdin) keep it.
    public static func uploadTarget(_ path: String, url: String) throws(CurlError) -> String {
        path == "-" || path == "." ? url : try CurlURL.uploadTarget(url, file: path)
    }

    /// `-T FILE`'s payload: `-` and `.` are stdin (`.` without blocking); a regular file is sent with its size,
    /// anything else readable as a stream. A file that cannot be read is exit 26.
    public static func upload(_ path: String) throws(CurlError) -> RequestPayload {
        if path == "-" { return .uploadStream(.standardInput) }
        if path == "." { return .uploadStream(.standardInputNonBlocking) }
        guard LocalFiles.isReadable(path) else {
            throw CurlError.readError.with(message: "Failed to open/read local data from file/application: \(path)")
        }
        guard let size = LocalFiles.regularFileSize(path) else { return .uploadStream(.file(path: path)) }
        return .uploadFile(path: path, size: size)
    }
}
