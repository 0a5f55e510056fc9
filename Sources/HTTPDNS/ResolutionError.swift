/// Why HTTPDNS gave no address for a host, in HTTPDNS's own terms: which servers were asked, in which phase each
/// one failed and why, or which setting is wrong.
///
/// Modelled on async-http-client's `HTTPClientError`: a public struct over a private enum, so new cases can be
/// added without breaking callers. Equality compares the kind only (``Kind``). No case names a command-line flag or
/// an exit code: a program that uses HTTPDNS maps ``Setting`` values to its own option names and kinds to its
/// own exit codes.
/// - SeeAlso: `CURLOPT_RESOLVE` (what an answer would have become).
public struct ResolutionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broad reason, for callers that branch on it.
    public enum Kind: Sendable, Equatable {
        /// A setting is unusable (a bad server URL, account, key); nothing was asked.
        case configuration
        /// The name is not a DNS name HTTPDNS can ask about.
        case invalidName
        /// Every server failed (unreachable, TLS, HTTP error, malformed or invalid answer) or the budget ran out.
        case unavailable
        /// A server answered definitely that the name has no usable address: NXDOMAIN, no records, an empty
        /// vendor answer, no address of the wanted family, or only unusable addresses.
        case noAddress
        /// The provider ran out of time as a whole (a resolver command that did not finish).
        case timedOut
    }

    /// A library setting that is wrong; the program using HTTPDNS says which of its options set it.
    public enum Setting: Sendable, Equatable, CaseIterable {
        /// A DNS-over-HTTPS (RFC 8484) server URL.
        case dohServer
        /// A JSON DNS-over-HTTPS server URL.
        case dohJSONServer
        /// A vendor HTTPDNS server URL (Alibaba, DNSPod).
        case vendorServer
        /// A vendor's boot server URL, asked for the service addresses (Alibaba's v2 service discovery).
        case bootServer
        /// The Alibaba Cloud account ID.
        case aliyunAccount
        /// The DNSPod authorization ID of the encrypted mode.
        case dnspodID
        /// The DNSPod encryption key.
        case dnspodKey
        /// The DNSPod HTTPS token.
        case dnspodToken
        /// The resolver command line.
        case resolverCommand
        /// A static `HOST:PORT:ADDRESS` entry.
        case staticEntry
    }

    /// How far one server got before it failed.
    public enum Phase: String, Sendable, Equatable {
        /// Its name or address could not be reached (refused, unreachable, unresolvable).
        case connect
        /// The TLS handshake or the certificate check failed.
        case tls
        /// It answered with an HTTP error, the wrong content type or too large a body.
        case http
        /// The answer was malformed or not valid for the question.
        case answer
        /// It did not answer within the lookup's budget.
        case timeout
        /// The budget ran out before it was asked.
        case notAsked = "not asked"
    }

    /// One server's failure.
    public struct ServerFailure: Sendable, Equatable, CustomStringConvertible {
        /// The server's redacted label (never a query value or credentials).
        public let server: String
        /// Where it failed.
        public let phase: Phase
        /// Why, in one line with server-supplied text escaped.
        public let cause: String

        /// A failure of `server` in `phase` because of `cause`.
        public init(server: String, phase: Phase, cause: String) {
            self.server = server
            self.phase = phase
            self.cause = cause
        }

        /// `SERVER: CAUSE`.
        public var description: String { "\(server): \(cause)" }
    }

    private enum Storage: Sendable {
        case configuration(Setting, value: String?, reason: String)
        case invalidName(String)
        case unavailable(host: String, failures: [ServerFailure])
        case noAddress(host: String, source: String, reason: String)
        case timedOut(host: String, milliseconds: Int, provider: String)
    }

    private let storage: Storage
    /// The lower-level error that caused this one, when a transport supplied it (e.g. a libcurl setup error).
    public let underlying: (any Error & Sendable)?

    private init(_ storage: Storage, underlying: (any Error & Sendable)? = nil) {
        self.storage = storage
        self.underlying = underlying
    }

    /// `setting` is unusable; `value` (never a secret) is quoted in the message when given.
    public static func configuration(_ setting: Setting, value: String? = nil, _ reason: String,
                                     underlying: (any Error & Sendable)? = nil) -> ResolutionError {
        ResolutionError(.configuration(setting, value: value.map { Printable.quoted($0) }, reason: reason),
                        underlying: underlying)
    }

    /// `host` is not a DNS name HTTPDNS can ask about.
    public static func invalidName(_ host: String) -> ResolutionError { ResolutionError(.invalidName(Printable.quoted(host))) }

    /// Every server failed for `host`, each for its own reason.
    public static func unavailable(_ host: String, _ failures: [ServerFailure],
                                   underlying: (any Error & Sendable)? = nil) -> ResolutionError {
        ResolutionError(.unavailable(host: host, failures: failures), underlying: underlying)
    }

    /// `source` (a provider or server label) said `host` has no usable address, for `reason`.
    public static func noAddress(_ host: String, source: String, _ reason: String) -> ResolutionError {
        ResolutionError(.noAddress(host: host, source: source, reason: reason))
    }

    /// `provider` took longer than `milliseconds` for `host`.
    public static func timedOut(_ host: String, after milliseconds: Int, provider: String) -> ResolutionError {
        ResolutionError(.timedOut(host: host, milliseconds: milliseconds, provider: provider))
    }

    /// The broad reason.
    public var kind: Kind {
        switch storage {
        case .configuration: .configuration
        case .invalidName: .invalidName
        case .unavailable: .unavailable
        case .noAddress: .noAddress
        case .timedOut: .timedOut
        }
    }

    /// The host the error is about; empty for a configuration error.
    public var host: String {
        switch storage {
        case .configuration: ""
        case .invalidName(let host), .unavailable(let host, _), .noAddress(let host, _, _), .timedOut(let host, _, _): host
        }
    }

    /// The setting at fault, for a configuration error.
    public var setting: Setting? {
        if case .configuration(let setting, _, _) = storage { return setting }
        return nil
    }

    /// The quoted offending value of a configuration error, when it has one.
    public var settingValue: String? {
        if case .configuration(_, let value, _) = storage { return value }
        return nil
    }

    /// Each server's failure, in the order they failed (empty unless ``kind`` is `unavailable`).
    public var failures: [ServerFailure] {
        if case .unavailable(_, let failures) = storage { return failures }
        return []
    }

    /// For `timedOut`, how long the provider was given.
    public var milliseconds: Int? {
        if case .timedOut(_, let milliseconds, _) = storage { return milliseconds }
        return nil
    }

    /// Whether asking another resolver (the system's) may still give an address: true for everything but a
    /// configuration error or a transport that could not be set up.
    public var allowsFallback: Bool {
        if case .configuration = storage { return false }
        return underlying == nil
    }

    /// The reason in one line, without the host: what goes in `Could not resolve host: HOST (REASON)`.
    public var reason: String {
        switch storage {
        case .configuration(_, _, let reason): reason
        case .invalidName: "not a plain DNS name"
        case .unavailable(_, let failures):
            failures.isEmpty ? "no HTTPDNS server to ask" : failures.map(\.description).joined(separator: "; ")
        case .noAddress(_, let source, let reason): "\(source): \(reason)"
        case .timedOut(_, let milliseconds, let provider): "\(provider) gave no answer within \(milliseconds) ms"
        }
    }

    /// The error as a list of server failures: its own for `unavailable`, else one failure standing for the whole
    /// answer (the source's definite "no address", a provider that ran out of time). Empty for a configuration error.
    public var serverFailures: [ServerFailure] {
        switch storage {
        case .configuration: []
        case .unavailable(_, let failures): failures
        case .noAddress(_, let source, let reason): [ServerFailure(server: source, phase: .answer, cause: reason)]
        case .timedOut(_, let milliseconds, let provider):
            [ServerFailure(server: provider, phase: .timeout, cause: "no answer within \(milliseconds) ms")]
        case .invalidName: [ServerFailure(server: "HTTPDNS", phase: .notAsked, cause: reason)]
        }
    }

    /// The same error with `more` failures after its own (a fallback that failed too), as `unavailable`; a
    /// configuration error stays as it is.
    public func adding(_ more: [ServerFailure]) -> ResolutionError {
        if case .configuration = storage { return self }
        return .unavailable(host, serverFailures + more)
    }

    /// The same error about `host` instead (a batch lookup's error, worded per host).
    public func about(_ host: String) -> ResolutionError {
        let storage: Storage = switch self.storage {
        case .configuration: self.storage
        case .invalidName: .invalidName(Printable.quoted(host))
        case .unavailable(_, let failures): .unavailable(host: host, failures: failures)
        case .noAddress(_, let source, let reason): .noAddress(host: host, source: source, reason: reason)
        case .timedOut(_, let milliseconds, let provider): .timedOut(host: host, milliseconds: milliseconds, provider: provider)
        }
        return ResolutionError(storage, underlying: underlying)
    }

    /// `HOST: REASON`, or `SETTING 'VALUE': REASON` for a configuration error.
    public var description: String {
        if case .configuration(let setting, let value, let reason) = storage {
            return "\(setting)" + (value.map { " \($0)" } ?? "") + ": \(reason)"
        }
        return "\(host): \(reason)"
    }

    public static func == (lhs: ResolutionError, rhs: ResolutionError) -> Bool { lhs.kind == rhs.kind }
}
