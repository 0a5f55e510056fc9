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

    /// The addresses of `pinned` that a transfer failing with `error` at `failedIP` proves unusable, before any
    /// byte of the request was sent; the one drop-on-failure rule of fetch and check (``condemns(_:failed:)``):
    /// - a TLS failure: the address it happened at and the ones of its family listed before it (libcurl tried
    ///   those first, and they did not connect); every pinned address when the failure names none of them (a
    ///   SOCKS proxy reports its own address, and it takes the first pinned one);
    /// - a refused or failed connection, or the time running out connecting or shaking hands (an address that
    ///   accepts and stays silent): every pinned address, libcurl tried each; unless `throughProxy`: then the
    ///   connection is the proxy's, and its failure says nothing about the answer;
    /// - anything else (a proxy that cannot be resolved, 5, or fails its SOCKS handshake, 97; an HTTP error;
    ///   bytes already sent): none.
    static func failedAddresses(after error: CurlError, at failedIP: String, requestBytesSent: Int, pinned: [IPAddress],
                                throughProxy: Bool) -> [IPAddress] {
        guard requestBytesSent == 0 else { return [] }
        if tlsFailures.contains(error) {
            guard let failed = IPAddress(failedIP), let position = pinned.firstIndex(of: failed) else { return pinned }
            return pinned.enumerated().filter { index, address in
                index == position || (index < position && address.family == failed.family)
            }.map(\.element)
        }
        return (error == .couldntConnect || error == .operationTimedOut) && !throughProxy ? pinned : []
    }

    /// Whether `failed` (what ``failedAddresses(after:at:requestBytesSent:pinned:throughProxy:)`` found, over every
    /// attempt) covers each address of `answer`: the answer may be spoofed, and its cached entry is dropped.
    static func condemns(_ answer: [IPAddress], failed: [IPAddress]) -> Bool {
        !answer.isEmpty && answer.allSatisfy(failed.contains)
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
