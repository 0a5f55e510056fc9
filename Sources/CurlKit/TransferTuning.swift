internal import CCurl

/// How the bytes of a transfer move, as curl's options of the same names set them: rate limits, a byte range,
/// the path sent as typed, no content or transfer decoding, a size limit, and the happy-eyeballs delay.
/// - SeeAlso: `CURLOPT_MAX_RECV_SPEED_LARGE`, `CURLOPT_MAX_SEND_SPEED_LARGE`, `CURLOPT_RANGE`, `CURLOPT_PATH_AS_IS`,
///   `CURLOPT_HTTP_CONTENT_DECODING`, `CURLOPT_HTTP_TRANSFER_DECODING`, `CURLOPT_IGNORE_CONTENT_LENGTH`,
///   `CURLOPT_MAXFILESIZE_LARGE`, `CURLOPT_HAPPY_EYEBALLS_TIMEOUT_MS`, `CURLOPT_RESUME_FROM_LARGE`.
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

    /// Everything at libcurl's defaults.
    public init() {}

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
    }
}
