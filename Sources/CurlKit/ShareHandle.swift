internal import CCurl

/// A libcurl share handle that lets the easy handles of one run (every redirect hop, retry and IP failover)
/// keep one cookie store and one connection pool, as a single handle following redirects would.
///
/// Used from one thread at a time, so no lock callbacks are installed. Not `Sendable`.
/// - SeeAlso: `CURLOPT_SHARE`, `CURLSHOPT_SHARE`, `CURL_LOCK_DATA_COOKIE`, `CURL_LOCK_DATA_CONNECT`,
///   `CURL_LOCK_DATA_DNS`.
public final class ShareHandle {
    private let raw: UnsafeMutableRawPointer

    /// What a share holds for the handles attached to it.
    /// - SeeAlso: `CURLSHOPT_SHARE`, `CURL_LOCK_DATA_COOKIE`, `CURL_LOCK_DATA_CONNECT`, `CURL_LOCK_DATA_DNS`.
    public enum SharedData: Sendable {
        /// The cookie store.
        case cookies
        /// The connection pool.
        case connections
        /// The DNS cache, `CURLOPT_RESOLVE` entries included: a handle with a DNS share of its own is not
        /// affected by the entries other handles on the same multi handle pin for the same host and port.
        case dns

        var lock: curl_lock_data {
            switch self {
            case .cookies: CURL_LOCK_DATA_COOKIE
            case .connections: CURL_LOCK_DATA_CONNECT
            case .dns: CURL_LOCK_DATA_DNS
            }
        }
    }

    /// Shares `data` (cookies and connections unless told otherwise).
    public init(sharing data: [SharedData] = [.cookies, .connections]) throws(CurlError) {
        try CurlRuntime.ensureUsable()
        guard let share = curl_share_init() else { throw CurlError.outOfMemory.with(message: "curl_share_init failed") }
        raw = share
        for data in data.map(\.lock) {
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
