import CCurl

/// A `multipart/form-data` body built with libcurl's MIME API, as curl's `-F/--form` builds it. File parts are
/// read by libcurl while it sends, so a large file never sits in memory, and libcurl computes the
/// Content-Length when every part's size is known.
///
/// Owned by the ``EasyHandle`` it was made for (``EasyHandle/set(_:pointer:owner:)`` keeps it alive), freed
/// after that handle. Not `Sendable`, like the handle.
/// - SeeAlso: `CURLOPT_MIMEPOST`, `curl_mime_init`, `curl_mime_filedata`.
public final class MimeForm {
    private let raw: OpaquePointer

    /// An empty form for `handle`.
    public init(for handle: EasyHandle) throws(CurlError) {
        guard let mime = curl_mime_init(handle.raw) else { throw CurlError.outOfMemory.with(message: "curl_mime_init failed") }
        raw = mime
    }

    deinit { curl_mime_free(raw) }

    /// Adds a text or in-memory part (`-F name=value`, or `name=<file` already read).
    public func add(name: String, bytes: [UInt8], type: String? = nil, filename: String? = nil) throws(CurlError) {
        let part = try newPart(name: name)
        try check(bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buffer.count, 1)) {
                curl_mime_data(part, $0, buffer.count)
            }
        })
        try describe(part, type: type, filename: filename)
    }

    /// Adds a part streamed from the file at `path` (`-F name=@path`). `filename` overrides the name sent
    /// (the path's last component by default); pass `sendsFilename: false` for `name=<path` (contents as a
    /// plain field).
    public func add(name: String, path: String, type: String? = nil, filename: String? = nil,
                    sendsFilename: Bool = true) throws(CurlError) {
        let part = try newPart(name: name)
        try check(curl_mime_filedata(part, path))
        if !sendsFilename { try check(curl_mime_filename(part, nil)) }
        try describe(part, type: type, filename: filename)
    }

    /// Hands the form to `handle` as its POST body; `handle` keeps the form alive.
    public func attach(to handle: EasyHandle) throws(CurlError) {
        try handle.set(CURLOPT_MIMEPOST, pointer: UnsafeMutableRawPointer(raw), owner: self)
    }

    private func newPart(name: String) throws(CurlError) -> OpaquePointer {
        guard let part = curl_mime_addpart(raw) else { throw CurlError.outOfMemory.with(message: "curl_mime_addpart failed") }
        try check(curl_mime_name(part, name))
        return part
    }

    private func describe(_ part: OpaquePointer, type: String?, filename: String?) throws(CurlError) {
        if let type { try check(curl_mime_type(part, type)) }
        if let filename { try check(curl_mime_filename(part, filename)) }
    }

    private func check(_ result: CURLcode) throws(CurlError) {
        guard result != CURLE_OK else { return }
        throw CurlError(result, message: "multipart form: \(String(cString: curl_easy_strerror(result)))")
    }
}
