internal import CCurl

/// One libcurl easy handle and everything libcurl borrows from it: the error buffer, every `curl_slist`, and the
/// Swift callbacks that stream the response out and the request body in.
///
/// Bodies are never buffered here: each chunk libcurl hands over goes straight to ``onBody`` / ``onHeader``,
/// and the request body is pulled chunk by chunk from ``requestBody``.
///
/// Not `Sendable`: libcurl forbids using one easy handle from two threads at once.
/// - SeeAlso: `curl_easy_init`, `CURLOPT_ERRORBUFFER`, `CURLOPT_WRITEFUNCTION`, `CURLOPT_HEADERFUNCTION`,
///   `CURLOPT_READFUNCTION`.
public final class EasyHandle {
    /// The underlying `CURL *`. Valid until this object is deinitialised; only CurlKit's own types (a MIME form, a
    /// multi handle) pass it to libcurl.
    let raw: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// Lists handed to libcurl, kept alive because libcurl does not copy them (CURLOPT_RESOLVE, CURLOPT_HTTPHEADER):
    /// a handful at most, so an array (a dictionary's hashed storage costs a protocol-conformance scan of the
    /// runtime at start-up).
    private var lists: [OwnedList] = []
    /// A list and the option it was set for (a struct: an array of tuples makes its tuple type at every start too).
    private struct OwnedList {
        let option: UInt32
        var list: StringList
    }

    /// Receives each chunk of the response body; return `false` to abort the transfer with exit 23.
    public var onBody: ((UnsafeRawBufferPointer) -> Bool)?
    /// Receives each raw header line (status line included, CRLF kept); return `false` to abort.
    public var onHeader: ((UnsafeRawBufferPointer) -> Bool)?
    /// Supplies the request body when the transfer uploads (POST with a body, PUT).
    public var requestBody: (any RequestBody)?
    /// Receives `(downloadTotal, downloaded, uploadTotal, uploaded)` about once a second and on every chunk,
    /// once ``reportProgress()`` turned it on; return `false` to abort the transfer (exit 42).
    public var onProgress: ((Int64, Int64, Int64, Int64) -> Bool)?
    /// Objects libcurl borrows through a pointer option (a MIME form, a share handle), kept alive with the handle.
    private var borrowed: [AnyObject] = []
    /// Whether the last read of ``requestBody`` would have blocked, so the progress callback resumes the upload.
    fileprivate var readPaused = false
    /// Receives libcurl's verbose trace once ``traceVerbosely()`` turned it on.
    fileprivate var onTrace: ((TraceKind, UnsafeRawBufferPointer) -> Void)?
    /// The proxies ``set(proxy:)`` and ``set(preProxy:)`` named, which libcurl may quote in an error message.
    var proxy: String?, preProxy: String?

    /// Creates a handle with streaming callbacks and an error buffer installed; nothing goes to stdout by default.
    public init() throws(CurlError) {
        try CurlRuntime.ensureUsable()
        guard let handle = curl_easy_init() else { throw CurlError.outOfMemory.with(message: "curl_easy_init failed") }
        raw = handle
        errorBuffer = .allocate(capacity: ccurl_error_size)
        errorBuffer.initialize(repeating: 0, count: ccurl_error_size)
        let me = Unmanaged.passUnretained(self).toOpaque()
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try set(CURLOPT_WRITEFUNCTION, callback: easyHandleWriteBody)
        try set(CURLOPT_WRITEDATA, pointer: me)
        try set(CURLOPT_HEADERFUNCTION, callback: easyHandleWriteHeader)
        try set(CURLOPT_HEADERDATA, pointer: me)
        try set(CURLOPT_READFUNCTION, callback: easyHandleReadBody)
        try set(CURLOPT_READDATA, pointer: me)
        try check(ccurl_easy_setopt_seek_cb(raw, easyHandleSeekBody), CURLOPT_SEEKFUNCTION)
        try set(CURLOPT_SEEKDATA, pointer: me)
        try set(CURLOPT_NOSIGNAL, 1)
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
        borrowed.removeAll()  // MIME forms and share handles outlive the easy handle that used them
    }

    // MARK: Options
    //
    // The raw setters and getters stay inside CurlKit: the layers above use the named ones (`set(url:)`,
    // `responseCode`, ...), so no `CURLOPT_` or `CURLINFO_` constant is spelled above this module.

    /// Sets a `long` option (flags, numbers, enums).
    func set(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try check(ccurl_easy_setopt_long(raw, option, value), option)
    }

    /// Sets a `curl_off_t` option (the `_LARGE` sizes).
    func set(_ option: CURLoption, offset value: Int64) throws(CurlError) {
        try check(ccurl_easy_setopt_int64(raw, option, value), option)
    }

    /// Sets a string option; libcurl copies strings (except POSTFIELDS, which this layer never uses).
    func set(_ option: CURLoption, _ value: String?) throws(CurlError) {
        try check(ccurl_easy_setopt_str(raw, option, value), option)
    }

    /// Sets a list option and keeps the list alive for as long as this handle lives.
    func set(_ option: CURLoption, list: [String]) throws(CurlError) {
        let owned = try StringList(list)
        try check(ccurl_easy_setopt_slist(raw, option, owned.head), option)
        // The previous list (if any) is freed only after libcurl let go of it.
        if let index = lists.firstIndex(where: { $0.option == option.rawValue }) {
            lists[index].list = owned
        } else {
            lists.append(OwnedList(option: option.rawValue, list: owned))
        }
    }

    /// Sets a pointer option whose target `owner` keeps alive (a `curl_mime *`, a `CURLSH *`); the handle holds
    /// `owner` until it is deinitialised, after `curl_easy_cleanup`.
    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?, owner: AnyObject) throws(CurlError) {
        try set(option, pointer: pointer)
        borrowed.append(owner)
    }

    /// Turns on `CURLOPT_XFERINFOFUNCTION` calls to ``onProgress``.
    /// - SeeAlso: `CURLOPT_NOPROGRESS`, `CURLOPT_XFERINFOFUNCTION`.
    public func reportProgress() throws(CurlError) {
        try check(ccurl_easy_setopt_xferinfo_cb(raw, easyHandleProgress), CURLOPT_XFERINFOFUNCTION)
        try set(CURLOPT_XFERINFODATA, pointer: Unmanaged.passUnretained(self).toOpaque())
        try set(CURLOPT_NOPROGRESS, 0)
    }

    private func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(CurlError) {
        try check(ccurl_easy_setopt_ptr(raw, option, pointer), option)
    }

    private func set(_ option: CURLoption, callback: ccurl_data_callback) throws(CurlError) {
        try check(ccurl_easy_setopt_data_cb(raw, option, callback), option)
    }

    /// Turns on `CURLOPT_VERBOSE` and routes the trace through `sink` instead of libcurl's own stderr printer.
    public func traceVerbosely(_ sink: @escaping (TraceKind, UnsafeRawBufferPointer) -> Void) throws(CurlError) {
        onTrace = sink
        try check(ccurl_easy_setopt_debug_cb(raw, easyHandleTrace), CURLOPT_DEBUGFUNCTION)
        try set(CURLOPT_DEBUGDATA, pointer: Unmanaged.passUnretained(self).toOpaque())
        try set(CURLOPT_VERBOSE, 1)
    }

    /// The strings last set for a list option (e.g. the exact `CURLOPT_RESOLVE` entries), for logging and tests.
    func listStrings(_ option: CURLoption) -> [String] { lists.first { $0.option == option.rawValue }?.list.strings ?? [] }

    private func check(_ result: CURLcode, _ option: CURLoption) throws(CurlError) {
        guard result != CURLE_OK else { return }
        let name = curl_easy_option_by_id(option).map { String(cString: $0.pointee.name) } ?? "#\(option.rawValue)"
        throw CurlError(result, message: "libcurl refused option CURLOPT_\(name): \(String(cString: curl_easy_strerror(result)))")
    }

    // MARK: Transfer

    /// Runs the transfer to completion on the calling thread.
    public func perform() throws(CurlError) {
        errorBuffer[0] = 0
        try finish(curl_easy_perform(raw))
    }

    /// Turns a transfer's result into `()` or the error, with the error buffer's text when libcurl wrote one (a
    /// proxy URL in it without its user info: ``hidingProxyUserInfo(in:)``).
    func finish(_ result: CURLcode) throws(CurlError) {
        guard result != CURLE_OK else { return }
        throw CurlError(result, message: hidingProxyUserInfo(in: String(cString: errorBuffer)))
    }

    /// Clears the error buffer before a transfer driven by ``MultiHandle``.
    func prepareForTransfer() { errorBuffer[0] = 0 }

    // MARK: Info

    /// Reads a `long` info value (response code, ports, counts); 0 when unavailable.
    func info(long: CURLINFO) -> Int {
        var value = 0
        return ccurl_easy_getinfo_long(raw, long, &value) == CURLE_OK ? value : 0
    }

    /// Reads a `curl_off_t` info value (sizes, `_T` times in microseconds); 0 when unavailable.
    func info(offset: CURLINFO) -> Int64 {
        var value: Int64 = 0
        return ccurl_easy_getinfo_int64(raw, offset, &value) == CURLE_OK ? value : 0
    }

    /// Reads a string info value (effective URL, primary IP, content type); `nil` when unavailable.
    func info(string: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard ccurl_easy_getinfo_string(raw, string, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }
}

@available(*, unavailable, message: "libcurl forbids sharing an easy handle between threads")
extension EasyHandle: Sendable {}

// MARK: C trampolines: recover the handle from the *DATA pointer and forward to its Swift closures.

private func handle(_ userdata: UnsafeMutableRawPointer?) -> EasyHandle {
    Unmanaged<EasyHandle>.fromOpaque(userdata!).takeUnretainedValue()
}

private let easyHandleWriteBody: ccurl_data_callback = { buffer, size, count, userdata in
    let length = size * count
    guard let sink = handle(userdata).onBody else { return length }
    return sink(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : (length == 0 ? 1 : 0)
}

private let easyHandleWriteHeader: ccurl_data_callback = { buffer, size, count, userdata in
    let length = size * count
    guard let sink = handle(userdata).onHeader else { return length }
    return sink(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : (length == 0 ? 1 : 0)
}

private let easyHandleTrace: ccurl_debug_callback = { _, type, data, size, userdata in
    guard let data, let kind = TraceKind(type) else { return 0 }
    handle(userdata).onTrace?(kind, UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

private let easyHandleReadBody: ccurl_data_callback = { buffer, size, count, userdata in
    guard let source = handle(userdata).requestBody, let buffer else { return 0 }
    do {
        return try source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
    } catch is RequestBodyWouldBlock {
        handle(userdata).readPaused = true
        return ccurl_readfunc_pause
    } catch {
        return ccurl_readfunc_abort
    }
}

private let easyHandleSeekBody: ccurl_seek_callback = { userdata, offset, origin in
    guard let source = handle(userdata).requestBody, origin == SEEK_SET, offset == 0, source.rewind() else {
        return ccurl_seekfunc_cantseek
    }
    return ccurl_seekfunc_ok
}

private let easyHandleProgress: ccurl_xferinfo_callback = { userdata, downloadTotal, downloaded, uploadTotal, uploaded in
    let easy = handle(userdata)
    if easy.readPaused {
        // As curl's tool_readbusy_cb: a body that had nothing to give is asked again.
        easy.readPaused = false
        curl_easy_pause(easy.raw, ccurl_pause_cont)
    }
    guard let sink = easy.onProgress else { return 0 }
    return sink(Int64(downloadTotal), Int64(downloaded), Int64(uploadTotal), Int64(uploaded)) ? 0 : 1
}
