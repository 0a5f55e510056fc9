internal import CCurl

/// The HTTP versions a request may ask for and a response may carry.
/// - SeeAlso: `CURLOPT_HTTP_VERSION`, `CURLINFO_HTTP_VERSION`.
public enum HTTPVersion: Sendable, Equatable {
    /// HTTP/1.0.
    case http1_0
    /// HTTP/1.1.
    case http1_1
    /// HTTP/2, over TLS and in clear (prior knowledge for `http://` is not asked).
    case http2
    /// HTTP/2 over TLS, HTTP/1.1 in clear.
    case http2TLS
    /// HTTP/3.
    case http3
    /// HTTP/2 without HTTP/1.1 first, also in clear (`--http2-prior-knowledge`).
    case http2PriorKnowledge

    var curlValue: Int {
        switch self {
        case .http1_0: Int(CURL_HTTP_VERSION_1_0)
        case .http1_1: Int(CURL_HTTP_VERSION_1_1)
        case .http2: Int(CURL_HTTP_VERSION_2_0)
        case .http2TLS: Int(CURL_HTTP_VERSION_2TLS)
        case .http3: Int(CURL_HTTP_VERSION_3)
        case .http2PriorKnowledge: Int(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE)
        }
    }

    init?(curlValue: Int) {
        switch curlValue {
        case Int(CURL_HTTP_VERSION_1_0): self = .http1_0
        case Int(CURL_HTTP_VERSION_1_1): self = .http1_1
        case Int(CURL_HTTP_VERSION_2_0): self = .http2
        case Int(CURL_HTTP_VERSION_3): self = .http3
        default: return nil
        }
    }
}

/// The phase times of a transfer, each counted from its start.
/// - SeeAlso: `CURLINFO_NAMELOOKUP_TIME_T` and the other `CURLINFO_*_TIME_T` values.
public enum TransferPhase: Sendable, CaseIterable {
    case nameLookup, connect, appConnect, preTransfer, startTransfer, redirect, total

    var info: CURLINFO {
        switch self {
        case .nameLookup: CURLINFO_NAMELOOKUP_TIME_T
        case .connect: CURLINFO_CONNECT_TIME_T
        case .appConnect: CURLINFO_APPCONNECT_TIME_T
        case .preTransfer: CURLINFO_PRETRANSFER_TIME_T
        case .startTransfer: CURLINFO_STARTTRANSFER_TIME_T
        case .redirect: CURLINFO_REDIRECT_TIME_T
        case .total: CURLINFO_TOTAL_TIME_T
        }
    }
}

/// The byte counts and rates of a transfer.
/// - SeeAlso: `CURLINFO_SIZE_DOWNLOAD_T`, `CURLINFO_SIZE_UPLOAD_T`, `CURLINFO_SPEED_DOWNLOAD_T`,
///   `CURLINFO_SPEED_UPLOAD_T`.
public enum TransferCount: Sendable, CaseIterable {
    case sizeDownload, sizeUpload, speedDownload, speedUpload

    var info: CURLINFO {
        switch self {
        case .sizeDownload: CURLINFO_SIZE_DOWNLOAD_T
        case .sizeUpload: CURLINFO_SIZE_UPLOAD_T
        case .speedDownload: CURLINFO_SPEED_DOWNLOAD_T
        case .speedUpload: CURLINFO_SPEED_UPLOAD_T
        }
    }
}

/// Named getters for what a finished (or failed) transfer reports, so the layers above never spell a `CURLINFO_`
/// constant. Strings libcurl reports as `NULL` are `nil`.
extension EasyHandle {
    /// The last response's status code; 0 before any. - SeeAlso: `CURLINFO_RESPONSE_CODE`.
    public var responseCode: Int { info(long: CURLINFO_RESPONSE_CODE) }
    /// The URL last used. - SeeAlso: `CURLINFO_EFFECTIVE_URL`.
    public var effectiveURL: String? { info(string: CURLINFO_EFFECTIVE_URL) }
    /// The address of the last connection. - SeeAlso: `CURLINFO_PRIMARY_IP`.
    public var primaryIP: String? { info(string: CURLINFO_PRIMARY_IP) }
    /// The port of the last connection. - SeeAlso: `CURLINFO_PRIMARY_PORT`.
    public var primaryPort: Int { info(long: CURLINFO_PRIMARY_PORT) }
    /// The local address of the last connection. - SeeAlso: `CURLINFO_LOCAL_IP`.
    public var localIP: String? { info(string: CURLINFO_LOCAL_IP) }
    /// The local port of the last connection. - SeeAlso: `CURLINFO_LOCAL_PORT`.
    public var localPort: Int { info(long: CURLINFO_LOCAL_PORT) }
    /// Bytes of response headers received. - SeeAlso: `CURLINFO_HEADER_SIZE`.
    public var headerSize: Int { info(long: CURLINFO_HEADER_SIZE) }
    /// Bytes of request sent (headers, and the body where libcurl counts it). - SeeAlso: `CURLINFO_REQUEST_SIZE`.
    public var requestSize: Int { info(long: CURLINFO_REQUEST_SIZE) }
    /// Where a redirect response points, resolved against the request URL. - SeeAlso: `CURLINFO_REDIRECT_URL`.
    public var redirectURL: String? { info(string: CURLINFO_REDIRECT_URL) }
    /// The response's `Content-Type`. - SeeAlso: `CURLINFO_CONTENT_TYPE`.
    public var contentType: String? { info(string: CURLINFO_CONTENT_TYPE) }
    /// The URL scheme of the last connection. - SeeAlso: `CURLINFO_SCHEME`.
    public var scheme: String? { info(string: CURLINFO_SCHEME) }
    /// The method last sent. - SeeAlso: `CURLINFO_EFFECTIVE_METHOD`.
    public var effectiveMethod: String? { info(string: CURLINFO_EFFECTIVE_METHOD) }
    /// The `Referer` last sent. - SeeAlso: `CURLINFO_REFERER`.
    public var referer: String? { info(string: CURLINFO_REFERER) }
    /// Redirects libcurl followed. - SeeAlso: `CURLINFO_REDIRECT_COUNT`.
    public var redirectCount: Int { info(long: CURLINFO_REDIRECT_COUNT) }
    /// New connections the transfer opened. - SeeAlso: `CURLINFO_NUM_CONNECTS`.
    public var connectCount: Int { info(long: CURLINFO_NUM_CONNECTS) }
    /// The certificate verification result (0 when verified). - SeeAlso: `CURLINFO_SSL_VERIFYRESULT`.
    public var tlsVerifyResult: Int { info(long: CURLINFO_SSL_VERIFYRESULT) }
    /// The proxy's certificate verification result. - SeeAlso: `CURLINFO_PROXY_SSL_VERIFYRESULT`.
    public var proxyTLSVerifyResult: Int { info(long: CURLINFO_PROXY_SSL_VERIFYRESULT) }
    /// The status of a proxy `CONNECT`. - SeeAlso: `CURLINFO_HTTP_CONNECTCODE`.
    public var proxyConnectCode: Int { info(long: CURLINFO_HTTP_CONNECTCODE) }
    /// The `errno` of the last failed connect, 0 if none. - SeeAlso: `CURLINFO_OS_ERRNO`.
    public var osErrno: Int { info(long: CURLINFO_OS_ERRNO) }
    /// A `Retry-After` header's wait in seconds, 0 without one. - SeeAlso: `CURLINFO_RETRY_AFTER`.
    public var retryAfterSeconds: Int64 { info(offset: CURLINFO_RETRY_AFTER) }
    /// The document's time (`Last-Modified`) in seconds since 1970, when ``TransferTuning/asksFileTime`` asked for
    /// it and the server told it. - SeeAlso: `CURLINFO_FILETIME_T`.
    public var fileTime: Int64? {
        var value: Int64 = -1
        return ccurl_easy_getinfo_int64(raw, CURLINFO_FILETIME_T, &value) == CURLE_OK && value >= 0 ? value : nil
    }
    /// The response's HTTP version; `nil` before any response. - SeeAlso: `CURLINFO_HTTP_VERSION`.
    public var responseHTTPVersion: HTTPVersion? { HTTPVersion(curlValue: info(long: CURLINFO_HTTP_VERSION)) }

    /// The OpenSSL engines libcurl can use (`--engine list`). - SeeAlso: `CURLINFO_SSL_ENGINES`.
    public var sslEngines: [String] {
        var list: UnsafeMutablePointer<curl_slist>?
        guard ccurl_easy_getinfo_slist(raw, CURLINFO_SSL_ENGINES, &list) == CURLE_OK else { return [] }
        defer { curl_slist_free_all(list) }
        return StringList.strings(of: list)
    }

    /// The `CURLOPT_RESOLVE` entries last set, for logging and tests. - SeeAlso: `CURLOPT_RESOLVE`.
    public var resolveEntries: [String] { listStrings(CURLOPT_RESOLVE) }

    /// A phase's time in microseconds. - SeeAlso: ``TransferPhase``.
    public func microseconds(_ phase: TransferPhase) -> Int64 { info(offset: phase.info) }

    /// A byte count or rate (bytes per second). - SeeAlso: ``TransferCount``.
    public func count(_ count: TransferCount) -> Int64 { info(offset: count.info) }
}
