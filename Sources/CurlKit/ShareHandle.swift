import CCurl

/// A libcurl share handle that lets the easy handles of one run (every redirect hop, retry and IP failover)
/// keep one cookie store and one connection pool, as a single handle following redirects would.
///
/// Used from one thread at a time, so no lock callbacks are installed. Not `Sendable`.
/// - SeeAlso: `CURLOPT_SHARE`, `CURLSHOPT_SHARE`, `CURL_LOCK_DATA_COOKIE`, `CURL_LOCK_DATA_CONNECT`.
public final class ShareHandle {
    private let raw: UnsafeMutableRawPointer

    /// Shares cookies and connections.
    public init() throws(CurlError) {
        try CurlRuntime.ensureUsable()
        guard let share = curl_share_init() else { throw CurlError.outOfMemory.with(message: "curl_share_init failed") }
        raw = share
        for data in [CURL_LOCK_DATA_COOKIE, CURL_LOCK_DATA_CONNECT] {
            let result = ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(data.rawValue))
            guard result == CURLSHE_OK else {
                curl_share_cleanup(share)
                throw CurlError.notBuiltIn.with(message: "libcurl cannot share data \(data.rawValue): \(String(cString: curl_share_strerror(result)))")
            }
        }
    }

    deinit { curl_share_cleanup(raw) }

    /// Makes `handle` use this share; `handle` keeps the share alive.
    public func attach(to handle: EasyHandle) throws(CurlError) {
        try handle.set(CURLOPT_SHARE, pointer: raw, owner: self)
    }
}
