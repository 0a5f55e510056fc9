extension AliyunV2 {
    /// A vendor error code, the `code` of an error body such as `{"code":"InvalidSignature"}`.
    /// - SeeAlso: "域名解析接口" §6.2 (status of each code); the Android SDK `request/HttpException.java` (which codes
    ///   end the search); Alibaba Cloud HTTPDNS "authenticated access" (`UnsignedInterfaceDisabled`,
    ///   https://help.aliyun.com/document_detail/143562.html).
    public enum Code: Sendable, Hashable {
        /// A required parameter is missing (400).
        case missingArgument
        /// A name is not a valid domain name (400).
        case invalidHost
        /// Too many names in one query (400).
        case tooManyHosts
        /// Custom resolution parameters are not offered in this region (400).
        case sdnsNotSupported
        /// Not a `GET` (405).
        case methodNotAllowed
        /// The account is invalid, does not exist or has no domains configured (403).
        case invalidAccount
        /// The account does not exist.
        case accountNotExists
        /// The account accepts signed queries only.
        case unsignedInterfaceDisabled
        /// `exp` has passed.
        case signatureExpired
        /// `s` does not match.
        case invalidSignature
        /// `exp` is too far in the future.
        case invalidDuration
        /// The account's service level does not cover this server (the Android SDK moves to the next server).
        case serviceLevelDeny
        /// The server failed (500).
        case internalError
        /// Any other code, as sent (at most 64 characters kept).
        case other(String)

        private static let named: [Code] = [
            .missingArgument, .invalidHost, .tooManyHosts, .sdnsNotSupported, .methodNotAllowed, .invalidAccount,
            .accountNotExists, .unsignedInterfaceDisabled, .signatureExpired, .invalidSignature, .invalidDuration,
            .serviceLevelDeny, .internalError,
        ]

        /// The code `name` (case-sensitive, as the vendor spells it).
        public init(_ name: String) {
            self = Self.named.first { $0.name == name } ?? .other(String(name.prefix(64)))
        }

        /// The vendor's spelling, e.g. `InvalidSignature`.
        public var name: String {
            switch self {
            case .missingArgument: "MissingArgument"
            case .invalidHost: "InvalidHost"
            case .tooManyHosts: "TooManyHosts"
            case .sdnsNotSupported: "SdnsNotSupported"
            case .methodNotAllowed: "MethodNotAllowed"
            case .invalidAccount: "InvalidAccount"
            case .accountNotExists: "AccountNotExists"
            case .unsignedInterfaceDisabled: "UnsignedInterfaceDisabled"
            case .signatureExpired: "SignatureExpired"
            case .invalidSignature: "InvalidSignature"
            case .invalidDuration: "InvalidDuration"
            case .serviceLevelDeny: "ServiceLevelDeny"
            case .internalError: "InternalError"
            case .other(let name): name
            }
        }

        /// Whether every server would give the same answer to the same query, so asking another one (or asking
        /// again) is pointless: the seven codes the Android SDK's `HttpException.shouldShiftServer()` does not move on
        /// from (`UnsignedInterfaceDisabled`, `SignatureExpired`, `InvalidSignature`, `InvalidAccount`,
        /// `AccountNotExists`, `InvalidDuration`, `InvalidHost`). Every other code (`ServiceLevelDeny`,
        /// `InternalError`, `MissingArgument`, `TooManyHosts`, `SdnsNotSupported`, `MethodNotAllowed`, unknown ones)
        /// sends the query to the next server.
        public var isFinal: Bool {
            switch self {
            case .unsignedInterfaceDisabled, .signatureExpired, .invalidSignature, .invalidAccount, .accountNotExists,
                 .invalidDuration, .invalidHost: true
            default: false
            }
        }

        /// Whether asking a batch's names one by one may still get answers: one bad name (`InvalidHost`) or too many
        /// of them (`TooManyHosts`) refuses the whole query. `InvalidHost` ends the race at once; `TooManyHosts`
        /// splits the batch when no server answered it.
        public var concernsTheNames: Bool { self == .invalidHost || self == .tooManyHosts }
    }

    /// The vendor's refusal of a query: its code and the HTTP status it came with.
    /// - SeeAlso: the Android SDK `request/HttpException.java` (codes read from error bodies of non-200 responses).
    public struct ServerError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The code.
        public let code: Code
        /// The HTTP status.
        public let status: Int

        /// A refusal with `code` and `status`.
        public init(code: Code, status: Int) {
            self.code = code
            self.status = status
        }

        /// Whether the search ends here (``Code/isFinal``). Only error statuses are final: a 200 carrying an error
        /// code is an odd server, and the next one is asked, as the Android SDK does.
        public var isFinal: Bool { status != 200 && code.isFinal }

        /// `'InvalidSignature' (HTTP 403)`: the code quoted and escaped, as v1's codes are (``AliyunResolver``).
        public var description: String { AnswerFields.vendorCode(code.name, status: status) }
    }
}
