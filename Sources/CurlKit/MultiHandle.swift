import CCurl

/// Runs several easy handles at the same time on the calling thread, e.g. the A and AAAA DoH queries.
/// - SeeAlso: `curl_multi_perform`, `curl_multi_poll`, `curl_multi_info_read`.
public enum MultiHandle {
    /// Performs every handle concurrently and returns, per handle and in order, `nil` on success or its error.
    public static func perform(_ handles: [EasyHandle]) throws(CurlError) -> [CurlError?] {
        try CurlRuntime.require(0x074200, for: "curl_multi_poll")
        guard let multi = curl_multi_init() else { throw CurlError.outOfMemory.with(message: "curl_multi_init failed") }
        defer { curl_multi_cleanup(multi) }
        var results = [CurlError?](repeating: nil, count: handles.count)
        var finished = [Bool](repeating: false, count: handles.count)
        for easy in handles {
            easy.prepareForTransfer()
            curl_multi_add_handle(multi, easy.raw)
        }
        defer { for easy in handles { curl_multi_remove_handle(multi, easy.raw) } }

        var running: Int32 = 1
        while running > 0 {
            let code = curl_multi_perform(multi, &running)
            guard code == CURLM_OK else {
                throw CurlError.outOfMemory.with(message: "curl_multi_perform: \(String(cString: curl_multi_strerror(code)))")
            }
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE,
                      let index = handles.firstIndex(where: { $0.raw == message.pointee.easy_handle }) else { continue }
                finished[index] = true
                do { try handles[index].finish(message.pointee.data.result) } catch { results[index] = error }
            }
            if running > 0 { curl_multi_poll(multi, nil, 0, 1000, nil) }
        }
        for index in handles.indices where !finished[index] {
            results[index] = CurlError.abortedByCallback.with(message: "transfer ended without a result")
        }
        return results
    }
}
