internal import CCurl

/// TLS trust and timeout settings shared by the main transfer and every HTTPDNS query, so `--cacert`, `--capath`,
/// `-k` and the timeouts mean the same thing on both paths.
///
/// Only trust belongs here, as curl's `doh.c` hands its DoH transfers the CA file and path and the verify flags
/// and nothing else of the user's TLS: versions, ciphers, `--cert-status` (curl has `--doh-cert-status`), a
/// client certificate and a pinned key are the target's (``TargetTLSOptions``), and so is a `-x` proxy.
/// - SeeAlso: `CURLOPT_CAINFO`, `CURLOPT_CAPATH`, `CURLOPT_SSL_VERIFYPEER`, `CURLOPT_SSL_VERIFYHOST`,
///   `CURLOPT_CONNECTTIMEOUT_MS`, `CURLOPT_TIMEOUT_MS`.
public struct TransportOptions: Sendable, Equatable {
    /// A PEM bundle to verify peers with (`--cacert`); with ``caPath`` also `nil`, the system store
    /// (``SystemTrust``: its hashed directory when that is current, else libcurl's defaults).
    public var caFile: String?
    /// A directory of hashed CA certificates (`--capath`), used besides ``caFile`` and libcurl's default store.
    public var caPath: String?
    /// `-k/--insecure`: skip certificate and host-name verification. Only ever set explicitly by the user.
    public var insecure: Bool
    /// `--connect-timeout` in milliseconds.
    public var connectTimeoutMS: Int?
    /// `--max-time` in milliseconds.
    public var timeoutMS: Int?
    /// `--doh-insecure`: the HTTPDNS queries alone skip verification (``applyToQuery(_:)``). Only ever set
    /// explicitly by the user.
    public var queriesInsecure = false
    /// `--doh-cert-status`: the HTTPDNS queries require a good stapled OCSP response.
    public var queriesVerifyStatus = false

    /// Verification on, no timeouts, system CA store.
    public init(caFile: String? = nil, insecure: Bool = false, connectTimeoutMS: Int? = nil, timeoutMS: Int? = nil) {
        self.caFile = caFile
        self.insecure = insecure
        self.connectTimeoutMS = connectTimeoutMS
        self.timeoutMS = timeoutMS
    }

    /// Applies these settings to `handle`, an HTTPDNS query's: ``apply(to:)`` with `--doh-insecure` and
    /// `--doh-cert-status`.
    /// - SeeAlso: curl's `--doh-insecure`, `--doh-cert-status` (`CURLOPT_DOH_SSL_VERIFYPEER`, `CURLOPT_DOH_SSL_VERIFYSTATUS`
    ///   for libcurl's own DoH).
    public func applyToQuery(_ handle: EasyHandle) throws(CurlError) {
        try apply(to: handle, skippingVerification: queriesSkipVerification)
        if queriesVerifyStatus { try handle.set(verifiesCertificateStatus: true) }
    }

    /// Whether the HTTPDNS queries skip verification: `-k`, or `--doh-insecure` for them alone.
    public var queriesSkipVerification: Bool { insecure || queriesInsecure }

    /// Applies these settings to `handle`.
    public func apply(to handle: EasyHandle) throws(CurlError) { try apply(to: handle, skippingVerification: insecure) }

    private func apply(to handle: EasyHandle, skippingVerification insecure: Bool) throws(CurlError) {
        if let caFile { try handle.set(CURLOPT_CAINFO, caFile) }
        if let caPath {
            try handle.set(caPath: caPath)
        } else {
            try SystemTrust.choose(for: handle, caFile: caFile).apply(to: handle)
        }
        try handle.set(CURLOPT_SSL_VERIFYPEER, insecure ? 0 : 1)
        try handle.set(CURLOPT_SSL_VERIFYHOST, insecure ? 0 : 2)
        if let connectTimeoutMS { try handle.set(CURLOPT_CONNECTTIMEOUT_MS, max(1, connectTimeoutMS)) }
        if let timeoutMS { try handle.set(CURLOPT_TIMEOUT_MS, max(1, timeoutMS)) }
    }
}
