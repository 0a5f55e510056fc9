import CurlKit
import HTTPDNS

/// When a request moves on to the next IP of its answer, beyond what libcurl does itself.
///
/// libcurl already tries every address of a resolve entry when a *connection* fails, but stops at the first
/// TLS handshake or certificate failure: the CDN node that serves a stale or wrong certificate. Those failures
/// happen before any byte of the request is sent, so repeating the request on another IP is safe. Anything
/// after the request started (a reset, a timeout mid-response) is never retried.
/// - SeeAlso: `CURLINFO_PRIMARY_IP`, `CURLINFO_REQUEST_SIZE`.
enum AddressFailover {
    /// TLS failures tied to the server reached: handshake (35), certificate (60), issuer (83), pinned key (90),
    /// certificate status (91). Local problems such as a bad CA file (77) or client certificate (58) are not worth
    /// another IP.
    static let tlsFailures: [CurlError] = [
        .sslConnectError, .peerFailedVerification, .issuerCheckFailed,
        .pinnedKeyMismatch, .invalidCertificateStatus,
    ]

    /// Whether `error` means no address of the entry could be used: before any byte of the request was sent,
    /// libcurl's connection to every one was refused or failed, the time ran out connecting or shaking hands (an
    /// address that accepts and stays silent), or TLS failed at the last one.
    static func meansEveryAddressFailed(_ error: CurlError, requestBytesSent: Int) -> Bool {
        requestBytesSent == 0 && (error == .couldntConnect || error == .operationTimedOut || tlsFailures.contains(error))
    }

    /// The addresses still worth trying after `error` at `failedIP`, or `nil` when the request must not be
    /// repeated: not a TLS failure, request bytes already sent, or no address left. Addresses of the failed
    /// one's family listed before it were already tried by libcurl and are dropped too.
    static func remaining(after error: CurlError, at failedIP: String, requestBytesSent: Int,
                          addresses: [IPAddress]) -> [IPAddress]? {
        guard tlsFailures.contains(error), requestBytesSent == 0, let failed = IPAddress(failedIP),
              let position = addresses.firstIndex(of: failed) else { return nil }
        let left = addresses.enumerated().filter { index, address in
            index > position || (index < position && address.family != failed.family)
        }.map(\.element)
        return left.isEmpty ? nil : left
    }
}
