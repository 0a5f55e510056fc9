internal import CCurl

/// How the bytes of a transfer move, as curl's options of the same names set them: rate and speed limits, a byte
/// range, the path and request target sent as typed, decoding, a size limit, the happy-eyeballs delay, and the
/// socket and connection settings (Nagle, TCP Fast Open, keepalive, ALPN, TLS session reuse, the PROXY header).
/// - SeeAlso: `CURLOPT_MAX_RECV_SPEED_LARGE`, `CURLOPT_MAX_SEND_SPEED_LARGE`, `CURLOPT_RANGE`, `CURLOPT_PATH_AS_IS`,
///   `CURLOPT_HTTP_CONTENT_DECODING`, `CURLOPT_HTTP_TRANSFER_DECODING`, `CURLOPT_IGNORE_CONTENT_LENGTH`,
///   `CURLOPT_MAXFILESIZE_LARGE`, `CURLOPT_HAPPY_EYEBALLS_TIMEOUT_MS`, `CURLOPT_RESUME_FROM_LARGE`,
///   `CURLOPT_LOW_SPEED_LIMIT`, `CURLOPT_LOW_SPEED_TIME`, `CURLOPT_TCP_NODELAY`, `CURLOPT_TCP_FASTOPEN`,
///   `CURLOPT_TCP_KEEPALIVE`, `CURLOPT_TCP_KEEPIDLE`, `CURLOPT_TCP_KEEPINTVL`, `CURLOPT_EXPECT_100_TIMEOUT_MS`,
///   `CURLOPT_REQUEST_TARGET`, `CURLOPT_TRANSFER_ENCODING`, `CURLOPT_CRLF`, `CURLOPT_HTTP09_ALLOWED`,
///   `CURLOPT_SSL_ENABLE_ALPN`, `CURLOPT_SSL_SESSIONID_CACHE`, `CURLOPT_HAPROXYPROTOCOL`, `CURLOPT_TIMECONDITION`,
///   `CURLOPT_TIMEVALUE_LARGE`, `CURLOPT_FILETIME`, `CURLOPT_MIME_OPTIONS`.
public struct TransferTuning: Sendable, Equatable {
    /// `--limit-rate`: most bytes per second, each direction.
    public var bytesPerSecond: Int64?
    /// `-r/--range`: `first-last[,first-last...]`.
    public var range: String?
    /// `--path-as-is`: send `/../` and `/./` as typed.
    public var pathAsIs = false
    /// `--raw`: pass content and transfer encodings through undecoded.
    public var raw = false
    /// `--ignore-content-length`.
    public var ignoresContentLength = false
    /// `--max-filesize`: a larger download fails with exit 63.
    public var maximumFileSize: Int64?
    /// `--happy-eyeballs-timeout-ms`.
    public var happyEyeballsMS: Int?
    /// `-C/--continue-at`: the first byte to ask for.
    public var resumeFrom: Int64?

    /// `-Y/--speed-limit` bytes per second below which, for `-y/--speed-time` seconds, the transfer fails (exit
    /// 28). As curl: either one alone sets the other (1 byte per second, 30 seconds).
    public var lowSpeed: LowSpeed?
    /// `--no-tcp-nodelay`: Nagle's algorithm stays on (curl turns it off).
    public var tcpNoDelay = true
    /// `--tcp-fastopen`.
    public var tcpFastOpen = false
    /// `--no-keepalive` turns TCP keepalive probes off (curl turns them on); `--keepalive-time` sets their idle
    /// time and interval in seconds.
    public var keepalive = true, keepaliveSeconds: Int?
    /// `--expect100-timeout`: how long a `100-continue` is waited for.
    public var expect100TimeoutMS: Int?
    /// `--request-target`: the request line's target instead of the URL's path.
    public var requestTarget: String?
    /// `--tr-encoding`: ask for a compressed transfer encoding and decode it.
    public var transferEncoding = false
    /// `--crlf`: line feeds of an upload are sent as CR LF.
    public var crlf = false
    /// `--http0.9`: a response without a status line and headers is accepted.
    public var http09Allowed = false
    /// `--no-alpn`: no ALPN in the TLS handshake (HTTP/2 over TLS cannot be chosen then).
    public var alpn = true
    /// `--no-sessionid`: no TLS session is reused or kept.
    public var sessionIDCache = true
    /// `--haproxy-protocol`: a PROXY protocol v1 header before the request.
    public var haproxyProtocol = false
    /// `--form-escape`: `-F` names and file names are %-escaped, as browsers do, instead of backslash-escaped.
    public var formEscape = false
    /// `-z/--time-cond`: a conditional request against a time (seconds since 1970).
    public var timeCondition: TimeCondition?
    /// `-R/--remote-time` (and `-I`): ask the server's `Last-Modified` time (``EasyHandle/fileTime``).
    public var asksFileTime = false

    /// The slowest a transfer may go, and for how long.
    public struct LowSpeed: Sendable, Equatable {
        public var bytesPerSecond: Int, seconds: Int
        public init(bytesPerSecond: Int, seconds: Int) { (self.bytesPerSecond, self.seconds) = (bytesPerSecond, seconds) }
    }

    /// `-z DATE` (`If-Modified-Since`), `-z -DATE` (`If-Unmodified-Since`), `-z =DATE` (libcurl's last-modified
    /// test, which HTTP has no header for: sent as `-z DATE`, as libcurl sends it).
    public enum TimeCondition: Sendable, Equatable {
        case modifiedSince(Int64), unmodifiedSince(Int64), lastModified(Int64)
    }

    /// Everything at libcurl's defaults.
    public init() {}

    /// The time `text` names as libcurl's `curl_getdate` reads it (RFC 1123, RFC 850, asctime and more), or `nil`.
    public static func date(_ text: String) -> Int64? {
        let value = curl_getdate(text, nil)
        return value == -1 ? nil : Int64(value)
    }

    /// Applies the settings that differ from libcurl's defaults to `handle`.
    public func apply(to handle: EasyHandle) throws(CurlError) {
        if let bytesPerSecond {
            try handle.set(CURLOPT_MAX_RECV_SPEED_LARGE, offset: bytesPerSecond)
            try handle.set(CURLOPT_MAX_SEND_SPEED_LARGE, offset: bytesPerSecond)
        }
        if let range { try handle.set(CURLOPT_RANGE, range) }
        if pathAsIs { try handle.set(CURLOPT_PATH_AS_IS, 1) }
        if raw {
            try handle.set(CURLOPT_HTTP_CONTENT_DECODING, 0)
            try handle.set(CURLOPT_HTTP_TRANSFER_DECODING, 0)
        }
        if ignoresContentLength { try handle.set(CURLOPT_IGNORE_CONTENT_LENGTH, 1) }
        if let maximumFileSize { try handle.set(CURLOPT_MAXFILESIZE_LARGE, offset: maximumFileSize) }
        if let happyEyeballsMS { try handle.set(CURLOPT_HAPPY_EYEBALLS_TIMEOUT_MS, happyEyeballsMS) }
        if let resumeFrom, resumeFrom > 0 { try handle.set(CURLOPT_RESUME_FROM_LARGE, offset: resumeFrom) }
        if let lowSpeed {
            try handle.set(CURLOPT_LOW_SPEED_LIMIT, lowSpeed.bytesPerSecond)
            try handle.set(CURLOPT_LOW_SPEED_TIME, lowSpeed.seconds)
        }
        if !tcpNoDelay { try handle.set(CURLOPT_TCP_NODELAY, 0) }
        if tcpFastOpen { try handle.set(CURLOPT_TCP_FASTOPEN, 1) }
        try handle.set(CURLOPT_TCP_KEEPALIVE, keepalive ? 1 : 0)
        if keepalive, let keepaliveSeconds, keepaliveSeconds > 0 {
            try handle.set(CURLOPT_TCP_KEEPIDLE, keepaliveSeconds)
            try handle.set(CURLOPT_TCP_KEEPINTVL, keepaliveSeconds)
        }
        if let expect100TimeoutMS, expect100TimeoutMS > 0 { try handle.set(CURLOPT_EXPECT_100_TIMEOUT_MS, expect100TimeoutMS) }
        if let requestTarget { try handle.set(CURLOPT_REQUEST_TARGET, requestTarget) }
        if transferEncoding { try handle.set(CURLOPT_TRANSFER_ENCODING, 1) }
        if crlf { try handle.set(CURLOPT_CRLF, 1) }
        if http09Allowed { try handle.set(CURLOPT_HTTP09_ALLOWED, 1) }
        if !alpn { try handle.set(CURLOPT_SSL_ENABLE_ALPN, 0) }
        if !sessionIDCache { try handle.set(CURLOPT_SSL_SESSIONID_CACHE, 0) }
        if haproxyProtocol { try handle.set(CURLOPT_HAPROXYPROTOCOL, 1) }
        switch timeCondition {
        case .modifiedSince(let time)?:
            try handle.set(CURLOPT_TIMECONDITION, Int(CURL_TIMECOND_IFMODSINCE.rawValue))
            try handle.set(CURLOPT_TIMEVALUE_LARGE, offset: time)
        case .unmodifiedSince(let time)?:
            try handle.set(CURLOPT_TIMECONDITION, Int(CURL_TIMECOND_IFUNMODSINCE.rawValue))
            try handle.set(CURLOPT_TIMEVALUE_LARGE, offset: time)
        case .lastModified(let time)?:
            try handle.set(CURLOPT_TIMECONDITION, Int(CURL_TIMECOND_LASTMOD.rawValue))
            try handle.set(CURLOPT_TIMEVALUE_LARGE, offset: time)
        case nil:
            break
        }
        if asksFileTime { try handle.set(CURLOPT_FILETIME, 1) }
        if formEscape { try handle.set(CURLOPT_MIME_OPTIONS, Int(CURLMIMEOPT_FORMESCAPE)) }
    }
}
