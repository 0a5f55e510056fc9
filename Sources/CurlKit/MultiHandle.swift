internal import CCurl

/// A libcurl multi handle run as an event loop on the calling thread: transfers are added at any time
/// (``add(_:)``), run for a bounded wait (``run(upToMilliseconds:)``), which hands back the ones that finished
/// and takes them off the loop, and can be abandoned mid-flight (``remove(_:)``).
///
/// The handle keeps its connection cache between transfers, so later requests to the same server reuse the TLS
/// connection; easy handles that set `CURLOPT_PIPEWAIT` share one HTTP/2 connection.
///
/// Not `Sendable`: like an easy handle, a multi handle belongs to one thread at a time.
/// - SeeAlso: `curl_multi_add_handle`, `curl_multi_remove_handle`, `curl_multi_perform`, `curl_multi_poll`,
///   `curl_multi_info_read`, `CURLOPT_PIPEWAIT`.
public final class MultiHandle {
    /// A transfer that finished: its handle and `nil` on success or its error.
    /// - SeeAlso: `curl_multi_info_read`, `CURLMSG_DONE`.
    public typealias Finished = (handle: EasyHandle, error: CurlError?)

    private let raw: UnsafeMutableRawPointer
    private var active: [UnsafeMutableRawPointer: EasyHandle] = [:]

    /// Creates an empty multi handle.
    public init() throws(CurlError) {
        try CurlRuntime.ensureUsable()
        guard let multi = curl_multi_init() else { throw CurlError.outOfMemory.with(message: "curl_multi_init failed") }
        raw = multi
    }

    deinit {
        for easy in active.keys { curl_multi_remove_handle(raw, easy) }
        curl_multi_cleanup(raw)
    }

    /// How many transfers are on the loop.
    public var count: Int { active.count }

    /// Puts `easy` on the loop; it starts on the next ``run(upToMilliseconds:)``.
    public func add(_ easy: EasyHandle) throws(CurlError) {
        easy.prepareForTransfer()
        let code = curl_multi_add_handle(raw, easy.raw)
        guard code == CURLM_OK else { throw Self.error("curl_multi_add_handle", code) }
        active[easy.raw] = easy
    }

    /// Takes `easy` off the loop, finished or not (an unfinished transfer is abandoned and its connection closed).
    public func remove(_ easy: EasyHandle) {
        guard active.removeValue(forKey: easy.raw) != nil else { return }
        curl_multi_remove_handle(raw, easy.raw)
    }

    /// Drives every transfer, waiting up to `milliseconds` for activity, and returns (and removes) those that
    /// finished. Returns as soon as at least one finished; an empty loop returns at once.
    public func run(upToMilliseconds milliseconds: Int) throws(CurlError) -> [Finished] {
        var waitLeft = max(0, milliseconds)
        var finished: [Finished] = []
        while !active.isEmpty {
            var running: Int32 = 0
            let code = curl_multi_perform(raw, &running)
            guard code == CURLM_OK else { throw Self.error("curl_multi_perform", code) }
            var queued: Int32 = 0
            while let message = curl_multi_info_read(raw, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = active[message.pointee.easy_handle] else { continue }
                let result = message.pointee.data.result
                remove(easy)
                do { try easy.finish(result); finished.append((easy, nil)) } catch { finished.append((easy, error)) }
            }
            if !finished.isEmpty || waitLeft == 0 { break }
            let slice = Int32(min(waitLeft, 1000))
            let clock = ContinuousClock(), began = clock.now
            let polled = curl_multi_poll(raw, nil, 0, slice, nil)
            guard polled == CURLM_OK else { throw Self.error("curl_multi_poll", polled) }
            waitLeft = max(0, waitLeft - max(1, (clock.now - began).wholeMilliseconds))
        }
        return finished
    }

    /// Runs `easy` alone to completion on the calling thread, as `curl_easy_perform` does on a multi handle of its
    /// own (poll, then perform, until the transfer's message arrives). The loop keeps its wake-up socket pair and
    /// its caches for the next transfer, where `curl_easy_perform` makes a multi handle for each new easy handle;
    /// its DNS cache holds no pin of an earlier transfer that this one does not set (``forgetEarlierPins(for:)``),
    /// as a multi handle of its own would not.
    /// - SeeAlso: `curl_easy_perform`, `curl_multi_poll`, `curl_multi_info_read`.
    public func performAlone(_ easy: EasyHandle) throws(CurlError) {
        // curl_easy_perform gives its multi handle the easy handle's CURLOPT_MAXCONNECTS, 5 unless set (ipcurl never
        // sets it); a multi handle's own default keeps 4 per easy handle on it.
        _ = ccurl_multi_setopt_long(raw, CURLMOPT_MAXCONNECTS, 5)
        let entries = try forgetEarlierPins(for: easy)
        easy.prepareForTransfer()
        let added = curl_multi_add_handle(raw, easy.raw)
        // curl_easy_perform's mapping: out of memory is exit 27, any other refusal exit 2.
        guard added == CURLM_OK else { throw CurlError(added == CURLM_OUT_OF_MEMORY ? CURLE_OUT_OF_MEMORY : CURLE_FAILED_INIT) }
        defer { curl_multi_remove_handle(raw, easy.raw) }
        while true {
            var code = curl_multi_poll(raw, nil, 0, 1000, nil)
            var running: Int32 = 0
            if code == CURLM_OK { code = curl_multi_perform(raw, &running) }
            guard code == CURLM_OK else {
                // curl_easy_perform's mapping: out of memory is exit 27, any other multi error 43.
                throw CurlError(code == CURLM_OUT_OF_MEMORY ? CURLE_OUT_OF_MEMORY : CURLE_BAD_FUNCTION_ARGUMENT)
            }
            guard running == 0 else { continue }
            var queued: Int32 = 0
            if let message = curl_multi_info_read(raw, &queued) {
                let result = message.pointee.data.result
                // libcurl loads the entries, removals first, before anything else of the transfer: only these
                // results can come before (Curl_pretransfer, Curl_loadhostpairs).
                if result != CURLE_URL_MALFORMAT, result != CURLE_OUT_OF_MEMORY, result != CURLE_SETOPT_OPTION_SYNTAX {
                    (loaded, unsure) = (entries, [])
                }
                try easy.finish(result)
                return
            }
        }
    }

    /// The `CURLOPT_RESOLVE` entries the last transfer loaded, whose pins the loop's DNS cache holds, and the
    /// places (`host:port`, sorted, once each) of later transfers that ended before loading theirs, which it may
    /// hold too.
    private var loaded: [String] = [], unsure: [Substring] = []

    /// Puts a removal (`-host:port`) before `easy`'s `CURLOPT_RESOLVE` entries for each place an earlier transfer
    /// pinned and `easy` does not, so a name this transfer leaves to libcurl (a proxy's) is not answered by
    /// another transfer's pin; returns `easy`'s own entries. The same entries as the last transfer's (every URL of
    /// one host) need nothing; otherwise the places are compared sorted, so a config file of 100,000 `--resolve`
    /// lines costs n log n per change of host, not n².
    private func forgetEarlierPins(for easy: EasyHandle) throws(CurlError) -> [String] {
        let entries = easy.listStrings(CURLOPT_RESOLVE)
        if unsure.isEmpty, entries == loaded { return entries }
        let places = Self.sortedOnce(Self.places(entries))
        let earlier = Self.sortedOnce(Self.places(loaded) + unsure).filter { !Self.contains(places, $0) }
        unsure = Self.sortedOnce(earlier + places)
        if !earlier.isEmpty { try easy.set(CURLOPT_RESOLVE, list: earlier.map { "-\($0)" } + entries) }
        return entries
    }

    /// `host:port` of each `host:port:addresses` entry.
    private static func places(_ entries: [String]) -> [Substring] {
        entries.compactMap { entry in
            guard !entry.hasPrefix("-"), let first = entry.firstIndex(of: ":"),
                  let second = entry[entry.index(after: first)...].firstIndex(of: ":") else { return nil }
            return entry[..<second]
        }
    }

    /// `places` sorted, each once.
    private static func sortedOnce(_ places: [Substring]) -> [Substring] {
        var result: [Substring] = []
        for place in places.sorted() where result.last != place { result.append(place) }
        return result
    }

    /// Whether the sorted `places` hold `place` (a binary search).
    private static func contains(_ places: [Substring], _ place: Substring) -> Bool {
        var low = 0, high = places.count
        while low < high {
            let middle = (low + high) / 2
            if places[middle] < place { low = middle + 1 } else { high = middle }
        }
        return low < places.count && places[low] == place
    }

    /// Runs a stream of transfers with at most `concurrency` on the loop at once: slots are filled from `next`
    /// (which returns `nil` when it has nothing to start now) as finished transfers leave, and each finished
    /// transfer goes to `finished` as soon as it is done, so only `concurrency` handles exist at a time. After each
    /// filling, `wait` says for how many milliseconds at most the loop may run before asking `next` again (a
    /// transfer due later: a retry after its pause), or `nil` when only a finished transfer can bring more; the
    /// loop ends when nothing runs and `wait` says `nil`.
    public func drive(concurrency: Int, next: () -> EasyHandle?, wait: () -> Int? = { nil },
                      finished: (Finished) -> Void) throws(CurlError) {
        let limit = max(1, concurrency)
        while true {
            while active.count < limit, let easy = next() {
                do { try add(easy) } catch { finished((easy, error)) }
            }
            let pause = wait()
            if active.isEmpty {
                guard let pause else { return }
                // Nothing on the loop: the poll is a sleep that a signal may end early, after which `next` is asked.
                let polled = curl_multi_poll(raw, nil, 0, Int32(clamping: max(0, pause)), nil)
                guard polled == CURLM_OK else { throw Self.error("curl_multi_poll", polled) }
                continue
            }
            for done in try run(upToMilliseconds: max(1, min(pause ?? 1000, 1000))) { finished(done) }
        }
    }

    /// Performs every handle concurrently to the end and returns, per handle and in order, `nil` on success or
    /// its error: ``drive(concurrency:next:finished:)`` with every handle on the loop at once.
    public func perform(_ handles: [EasyHandle]) throws(CurlError) -> [CurlError?] {
        var pending = handles.makeIterator()
        var results: [UnsafeMutableRawPointer: CurlError?] = [:]
        try drive(concurrency: handles.count, next: { pending.next() }, finished: { results[$0.handle.raw] = .some($0.error) })
        return handles.map { results[$0.raw] ?? CurlError.abortedByCallback.with(message: "transfer ended without a result") }
    }

    private static func error(_ call: String, _ code: CURLMcode) -> CurlError {
        CurlError.outOfMemory.with(message: "\(call): \(String(cString: curl_multi_strerror(code)))")
    }
}

@available(*, unavailable, message: "a multi handle belongs to one thread at a time")
extension MultiHandle: Sendable {}
