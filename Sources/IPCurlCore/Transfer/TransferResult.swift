import CurlKit

/// What one finished transfer reports, whichever orchestrator ran it: curl's getinfo values (status, HTTP
/// version, timings, primary IP, sizes), the response headers, the TLS version seen while the connection was
/// open, the peer's certificate chain when the ``TransferSpec`` kept it, and the error.
/// - SeeAlso: `curl_easy_getinfo`, `CURLINFO_CERTINFO`, `CURLINFO_TLS_SSL_PTR`.
struct TransferResult {
    /// `nil` when the transfer completed.
    var error: CurlError?
    /// The getinfo values `-w` prints.
    var report: TransferReport
    /// The negotiated TLS version; `nil` over plain HTTP or when the handshake never completed.
    var tlsVersion: TLSVersion?
    /// Per certificate (leaf first) libcurl's fields; empty unless kept.
    var certificates: [[String: String]]

    /// Reads `handle` after its transfer ended with `error`; `url` is the URL as given, `headers` and
    /// `tlsName` what the callbacks saw; the chain only when the spec kept it (`collectedCertificates`).
    init(handle: EasyHandle, url: String, error: CurlError?, headers: ResponseHeaders, tlsName: String? = nil,
         collectedCertificates: Bool = false) {
        self.error = error
        report = TransferReport(handle: handle, url: url)
        report.responseHeaders = headers
        tlsVersion = tlsName.flatMap(TLSVersion.init(openSSLName:))
        certificates = collectedCertificates ? handle.certificateChain() : []
        if collectedCertificates { report.certificates = handle.certificateEntries() }
    }
}
