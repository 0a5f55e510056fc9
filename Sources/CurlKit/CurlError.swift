internal import CCurl

/// A failed transfer or a refused request, carrying curl's exit code and a one-line reason.
///
/// Modelled on async-http-client's `HTTPClientError`: a public struct around a private code enum, so new
/// codes can be added without breaking callers. Compare with the static members (`error == .couldntResolveHost`);
/// equality looks only at the code, never at the message.
/// - SeeAlso: `CURLOPT_ERRORBUFFER`, curl's "EXIT CODES" man page section.
public struct CurlError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        /// A libcurl `CURLcode`; curl's CLI uses the same number as its exit code.
        case curl(UInt32)
        /// Bad command line (curl exits 2).
        case usage
    }

    private let code: Code
    /// One human line describing what went wrong (curl's error buffer text, or ours).
    public let message: String

    private init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Wraps a libcurl result code; `message` should be the error buffer text when libcurl filled it. Internal:
    /// the layers above name errors through the static members and never see a `CURLcode`.
    init(_ result: CURLcode, message: String? = nil) {
        let text = message.flatMap { $0.isEmpty ? nil : $0 } ?? String(cString: curl_easy_strerror(result))
        self.init(.curl(result.rawValue), text)
    }

    /// The same error with a different message.
    public func with(message: String) -> CurlError { CurlError(code, message) }

    /// The process exit code curl would use for this error.
    public var exitCode: Int32 {
        switch code {
        case .usage: 2
        case .curl(let raw): Int32(truncatingIfNeeded: raw)
        }
    }

    /// `ipcurl: (N) message`, as curl prints errors.
    public var description: String { "(\(exitCode)) \(message)" }

    public static func == (lhs: CurlError, rhs: CurlError) -> Bool { lhs.code == rhs.code }

    /// Command-line usage error (exit 2).
    public static func usage(_ message: String) -> CurlError { CurlError(.usage, message) }

    private static func curl(_ code: CURLcode) -> CurlError { CurlError(code) }
    /// Exit 1: unsupported protocol.
    public static let unsupportedProtocol = curl(CURLE_UNSUPPORTED_PROTOCOL)
    /// Exit 3: the URL is malformed.
    public static let malformedURL = curl(CURLE_URL_MALFORMAT)
    /// Exit 4: a feature or option is missing from the linked libcurl.
    public static let notBuiltIn = curl(CURLE_NOT_BUILT_IN)
    /// Exit 67: the server refused the login, or the URL holds a user name `--disallow-username-in-url` forbids.
    public static let loginDenied = curl(CURLE_LOGIN_DENIED)
    /// Exit 45: the local interface, address or port to bind to could not be used.
    public static let interfaceFailed = curl(CURLE_INTERFACE_FAILED)
    /// Exit 6: the host could not be resolved.
    public static let couldntResolveHost = curl(CURLE_COULDNT_RESOLVE_HOST)
    /// Exit 7: failed to connect.
    public static let couldntConnect = curl(CURLE_COULDNT_CONNECT)
    /// Exit 22: `-f/--fail` and an HTTP status of 400 or more.
    public static let httpReturnedError = curl(CURLE_HTTP_RETURNED_ERROR)
    /// Exit 23: writing received data failed.
    public static let writeError = curl(CURLE_WRITE_ERROR)
    /// Exit 26: reading the request body failed.
    public static let readError = curl(CURLE_READ_ERROR)
    /// Exit 27: out of memory.
    public static let outOfMemory = curl(CURLE_OUT_OF_MEMORY)
    /// Exit 28: the operation timed out.
    public static let operationTimedOut = curl(CURLE_OPERATION_TIMEDOUT)
    /// Exit 35: TLS handshake failed.
    public static let sslConnectError = curl(CURLE_SSL_CONNECT_ERROR)
    /// Exit 42: aborted by a callback.
    public static let abortedByCallback = curl(CURLE_ABORTED_BY_CALLBACK)
    /// Exit 47: more redirects than `--max-redirs` allows.
    public static let tooManyRedirects = curl(CURLE_TOO_MANY_REDIRECTS)
    /// Exit 56: receiving network data failed (also a TLS 1.3 server refusing the client certificate).
    public static let receiveError = curl(CURLE_RECV_ERROR)
    /// Exit 58: the client certificate or its key could not be used (missing file, wrong type or passphrase).
    public static let clientCertificateProblem = curl(CURLE_SSL_CERTPROBLEM)
    /// Exit 59: no cipher of `--ciphers`/`--tls13-ciphers` could be used.
    public static let cipherProblem = curl(CURLE_SSL_CIPHER)
    /// Exit 90: the server's public key does not match `--pinnedpubkey`.
    public static let pinnedKeyMismatch = curl(CURLE_SSL_PINNEDPUBKEYNOTMATCH)
    /// Exit 91: `--cert-status` and no good stapled OCSP response.
    public static let invalidCertificateStatus = curl(CURLE_SSL_INVALIDCERTSTATUS)
    /// Exit 65: the request body had to be sent again and could not be.
    public static let sendFailRewind = curl(CURLE_SEND_FAIL_REWIND)
    /// Exit 60: the peer certificate could not be verified.
    public static let peerFailedVerification = curl(CURLE_PEER_FAILED_VERIFICATION)
    /// Exit 77: problem with the CA certificate file.
    public static let caCertBadFile = curl(CURLE_SSL_CACERT_BADFILE)
    /// Exit 83: the certificate's issuer check failed.
    public static let issuerCheckFailed = curl(CURLE_SSL_ISSUER_ERROR)
    /// Exit 49: a malformed option value (a `CURLOPT_RESOLVE` entry, for one).
    public static let badOptionSyntax = curl(CURLE_SETOPT_OPTION_SYNTAX)
}
