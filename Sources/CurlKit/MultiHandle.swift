import CCurl

/// A libcurl multi handle: runs several easy handles at once on the calling thread (the A and AAAA DoH
/// queries) and keeps its connection cache between runs, so later queries to the same server reuse the
/// TLS connection. Easy handles that set `CURLOPT_PIPEWAIT` share one HTTP/2 connection.
///
/// Not `Sendable`: like an easy handle, a multi handle belongs to one thread at a time.
/// - SeeAlso: `curl_multi_perform`, `curl_multi_poll`, `curl_multi_info_read`, `CURLOPT_PIPEWAIT`.
public final class MultiHandle {
    private let raw: UnsafeMutableRawPointer

    /// Creates an empty multi handle.
    public init() throws(CurlError) {
        try CurlRuntime.ensureUsable()
        guard let multi = curl_multi_init() else { throw CurlError.outOfMemory.with(message: "curl_multi_init failed") }
        raw = multi
    }

    deinit { curl_multi_cleanup(raw) }

    /// Performs every handle concurrently and returns, per handle and in order, `nil` on success or its error.
    public func perform(_ handles: [EasyHandle]) throws(CurlError) -> [CurlError?] {
        var results = [CurlError?](repeating: nil, count: handles.count)
        var finished = [Bool](repeating: false, count: handles.count)
        for easy in handles {
            easy.prepareForTransfer()
            curl_multi_add_handle(raw, easy.raw)
        }
        defer { for easy in handles { curl_multi_remove_handle(raw, easy.raw) } }

        var running: Int32 = 1
        while running > 0 {
            let code = curl_multi_perform(raw, &running)
            guard code == CURLM_OK else {
                throw CurlError.outOfMemory.with(message: "curl_multi_perform: \(String(cString: curl_multi_strerror(code)))")
            }
            var queued: Int32 = 0
            while let message = curl_multi_info_read(raw, &queued) {
                guard message.pointee.msg == CURLMSG_DONE,
                      let index = handles.firstIndex(where: { $0.raw == message.pointee.easy_handle }) else { continue }
                finished[index] = true
                do { try handles[index].finish(message.pointee.data.result) } catch { results[index] = error }
            }
            if running > 0 { curl_multi_poll(raw, nil, 0, 1000, nil) }
        }
        for index in handles.indices where !finished[index] {
            results[index] = CurlError.abortedByCallback.with(message: "transfer ended without a result")
        }
        return results
    }
}

@available(*, unavailable, message: "a multi handle belongs to one thread at a time")
extension MultiHandle: Sendable {}
