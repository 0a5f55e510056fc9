internal import CCurl
import Locking

/// A libcurl share handle: the easy handles attached to it keep one cookie store, one TLS session cache, one
/// connection pool or one DNS cache, as the transfers of one curl command line do.
///
/// A share made ``init(sharing:threadSafe:)`` with `threadSafe` installs one lock per kind of data, so handles on
/// different threads may use it at once; libcurl 7.88 cannot share a connection pool between threads, so such a
/// share refuses ``SharedData/connections``.
/// - SeeAlso: `CURLOPT_SHARE`, `CURLSHOPT_SHARE`, `CURLSHOPT_LOCKFUNC`, `CURLSHOPT_UNLOCKFUNC`,
///   `CURL_LOCK_DATA_COOKIE`, `CURL_LOCK_DATA_SSL_SESSION`, `CURL_LOCK_DATA_CONNECT`, `CURL_LOCK_DATA_DNS`.
public final class ShareHandle: @unchecked Sendable {
    private let raw: UnsafeMutableRawPointer
    /// One lock per `curl_lock_data` value, when thread-safe; libcurl's lock callbacks reach them through their
    /// user pointer, which this share keeps alive.
    private let locks: ShareLocks?

    /// What a share holds for the handles attached to it.
    /// - SeeAlso: `CURLSHOPT_SHARE`, `CURL_LOCK_DATA_COOKIE`, `CURL_LOCK_DATA_SSL_SESSION`,
    ///   `CURL_LOCK_DATA_CONNECT`, `CURL_LOCK_DATA_DNS`.
    public enum SharedData: Sendable {
        /// The cookie store (used by a handle whose cookie engine is on: a cookie file or jar set).
        case cookies
        /// The TLS session cache: a new connection to a host resumes the session of an earlier one.
        case tlsSessions
        /// The connection pool.
        case connections
        /// The DNS cache, `CURLOPT_RESOLVE` entries included: a handle with a DNS share of its own is not
        /// affected by the entries other handles on the same multi handle pin for the same host and port.
        case dns

        var lock: curl_lock_data {
            switch self {
            case .cookies: CURL_LOCK_DATA_COOKIE
            case .tlsSessions: CURL_LOCK_DATA_SSL_SESSION
            case .connections: CURL_LOCK_DATA_CONNECT
            case .dns: CURL_LOCK_DATA_DNS
            }
        }
    }

    /// Shares `data`; `threadSafe` installs locks (and refuses `.connections`, which libcurl 7.88 cannot share
    /// between threads).
    public init(sharing data: [SharedData], threadSafe: Bool = false) throws(CurlError) {
        try CurlRuntime.ensureUsable()
        guard !threadSafe || !data.contains(.connections) else {
            throw CurlError.notBuiltIn.with(message: "libcurl 7.88 cannot share a connection pool between threads")
        }
        guard let share = curl_share_init() else { throw CurlError.outOfMemory.with(message: "curl_share_init failed") }
        raw = share
        if threadSafe {
            let locks = ShareLocks()
            self.locks = locks
            _ = ccurl_share_setopt_locks(share, { _, data, _, user in
                Unmanaged<ShareLocks>.fromOpaque(user!).takeUnretainedValue().locks[Int(data.rawValue)].lock()
            }, { _, data, user in
                Unmanaged<ShareLocks>.fromOpaque(user!).takeUnretainedValue().locks[Int(data.rawValue)].unlock()
            }, Unmanaged.passUnretained(locks).toOpaque())
        } else {
            locks = nil
        }
        for data in data.map({ $0.lock }) {
            let result = ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(data.rawValue))
            guard result == CURLSHE_OK else {
                let message = String(cString: curl_share_strerror(result))
                // Every stored property is set, so deinit runs and cleans the share up.
                throw CurlError.notBuiltIn.with(message: "libcurl cannot share data \(data.rawValue): \(message)")
            }
        }
    }

    // The share goes before its locks (a stored property, released after deinit).
    deinit { curl_share_cleanup(raw) }

    /// Makes `handle` use this share; `handle` keeps the share alive.
    public func attach(to handle: EasyHandle) throws(CurlError) {
        try handle.set(CURLOPT_SHARE, pointer: raw, owner: self)
    }
}

/// The locks of a thread-safe share, one per `curl_lock_data` value, handed to libcurl's lock callbacks.
private final class ShareLocks: Sendable {
    let locks = (0..<Int(ccurl_lock_data_count)).map { _ in Lock() }
}
