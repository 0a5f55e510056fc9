internal import CCurl

/// A `multipart/form-data` body built with libcurl's MIME API, as curl's `-F/--form` builds it. File parts are
/// read by libcurl while it sends, so a large file never sits in memory, and libcurl computes the
/// Content-Length when every part's size is known.
///
/// Owned by the ``EasyHandle`` it was made for (``EasyHandle/set(_:pointer:owner:)`` keeps it alive), freed
/// after that handle. Not `Sendable`, like the handle.
/// A form added to another one as a part (``add(name:parts:)``) is sent as `multipart/mixed` inside it and freed
/// with it.
/// - SeeAlso: `CURLOPT_MIMEPOST`, `curl_mime_init`, `curl_mime_filedata`, `curl_mime_subparts`.
public final class MimeForm {
    private let raw: OpaquePointer
    /// Whether another form owns `raw` (it frees it).
    private var adopted = false

    /// An empty form for `handle`.
    public init(for handle: EasyHandle) throws(CurlError) {
        guard let mime = curl_mime_init(handle.raw) else { throw CurlError.outOfMemory.with(message: "curl_mime_init failed") }
        raw = mime
    }

    deinit { if !adopted { curl_mime_free(raw) } }

    /// A part's own header lines and Content-Transfer-Encoding (`-F ...;headers=...;encoder=...`).
    /// - SeeAlso: `curl_mime_headers`, `curl_mime_encoder`.
    public struct PartExtras: Sendable, Equatable {
        public var headers: [String]
        public var encoder: String?
        public init(headers: [String] = [], encoder: String? = nil) {
            self.headers = headers
            self.encoder = encoder
        }
    }

    /// Adds a text or in-memory part (`-F name=value`, or `name=<file` already read).
    public func add(name: String?, bytes: [UInt8], type: String? = nil, filename: String? = nil,
                    extras: PartExtras = PartExtras()) throws(CurlError) {
        let part = try newPart(name: name)
        try check(bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buffer.count, 1)) {
                curl_mime_data(part, $0, buffer.count)
            }
        })
        try describe(part, type: type, filename: filename, extras: extras)
    }

    /// Adds a part streamed from the file at `path` (`-F name=@path`). `filename` overrides the name sent
    /// (the path's last component by default); pass `sendsFilename: false` for `name=<path` (contents as a
    /// plain field).
    public func add(name: String?, path: String, type: String? = nil, filename: String? = nil,
                    sendsFilename: Bool = true, extras: PartExtras = PartExtras()) throws(CurlError) {
        let part = try newPart(name: name)
        try check(curl_mime_filedata(part, path))
        if !sendsFilename { try check(curl_mime_filename(part, nil)) }
        try describe(part, type: type, filename: filename, extras: extras)
    }

    /// Adds `parts`, a form of the same handle, as one part of this form (`-F name=@a,b`): libcurl sends it as
    /// `multipart/mixed`, and this form owns and frees it from here on.
    /// - SeeAlso: `curl_mime_subparts`.
    public func add(name: String?, parts: MimeForm) throws(CurlError) {
        let part = try newPart(name: name)
        try check(curl_mime_subparts(part, parts.raw))
        parts.adopted = true
    }

    /// Hands the form to `handle` as its POST body; `handle` keeps the form alive.
    public func attach(to handle: EasyHandle) throws(CurlError) {
        try handle.set(CURLOPT_MIMEPOST, pointer: UnsafeMutableRawPointer(raw), owner: self)
    }

    private func newPart(name: String?) throws(CurlError) -> OpaquePointer {
        guard let part = curl_mime_addpart(raw) else { throw CurlError.outOfMemory.with(message: "curl_mime_addpart failed") }
        if let name { try check(curl_mime_name(part, name)) }
        return part
    }

    private func describe(_ part: OpaquePointer, type: String?, filename: String?, extras: PartExtras) throws(CurlError) {
        if let type { try check(curl_mime_type(part, type)) }
        if let filename { try check(curl_mime_filename(part, filename)) }
        if let encoder = extras.encoder { try check(curl_mime_encoder(part, encoder)) }
        if !extras.headers.isEmpty {
            var list: UnsafeMutablePointer<curl_slist>?
            for line in extras.headers {
                guard let grown = curl_slist_append(list, line) else {
                    curl_slist_free_all(list)
                    throw CurlError.outOfMemory
                }
                list = grown
            }
            try check(curl_mime_headers(part, list, 1))  // the part owns the list from here
        }
    }

    private func check(_ result: CURLcode) throws(CurlError) {
        guard result != CURLE_OK else { return }
        throw CurlError(result, message: "multipart form: \(String(cString: curl_easy_strerror(result)))")
    }
}
