internal import CCurl

/// The HTTP authentication methods libcurl may use with a server (curl's `--basic`, `--digest`, `--ntlm`,
/// `--ntlm-wb`, `--negotiate`, `--anyauth`; `--oauth2-bearer` and `--aws-sigv4` add their own), as a bit set; also
/// what an HTTP proxy (`--proxy-basic`, …) and a SOCKS5 proxy (`--socks5-basic`, `--socks5-gssapi`) are offered.
/// - SeeAlso: `CURLOPT_HTTPAUTH`, `CURLAUTH_*`.
public struct HTTPAuthMethods: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let basic = HTTPAuthMethods(rawValue: UInt(ccurl_auth_basic))
    public static let digest = HTTPAuthMethods(rawValue: UInt(ccurl_auth_digest))
    public static let negotiate = HTTPAuthMethods(rawValue: UInt(ccurl_auth_negotiate))
    public static let ntlm = HTTPAuthMethods(rawValue: UInt(ccurl_auth_ntlm))
    public static let ntlmWinbind = HTTPAuthMethods(rawValue: UInt(ccurl_auth_ntlm_wb))
    public static let bearer = HTTPAuthMethods(rawValue: UInt(ccurl_auth_bearer))
    public static let awsSigV4 = HTTPAuthMethods(rawValue: UInt(ccurl_auth_aws_sigv4))
    /// Every method but the old IE flavour of Digest: libcurl asks the server first and picks the safest it offers.
    public static let any = HTTPAuthMethods(rawValue: UInt(ccurl_auth_any))
    /// GSS-API, which only a SOCKS5 proxy is offered (``EasyHandle/set(socks5Authentication:)``).
    public static let gssapi = HTTPAuthMethods(rawValue: UInt(ccurl_auth_gssapi))
}

/// How far a GSS-API (Kerberos) server may act as the user.
/// - SeeAlso: `CURLOPT_GSSAPI_DELEGATION`, curl's `--delegation`.
public enum GSSAPIDelegation: String, Sendable, CaseIterable {
    /// Nothing is delegated (libcurl's default).
    case none
    /// Delegation only when the KDC's policy marks the service `OK-AS-DELEGATE`.
    case policy
    /// The credentials are always delegated.
    case always
}

/// Whether libcurl reads a `.netrc` file for a host's login.
/// - SeeAlso: `CURLOPT_NETRC`, `CURL_NETRC_OPTIONAL`, `CURL_NETRC_REQUIRED`.
public enum NetrcUse: Sendable {
    /// `--netrc-optional`: the URL's credentials come first, the file fills what they lack.
    case optional
    /// `--netrc`, `--netrc-file`: the file's login is used, the URL's user info ignored.
    case required
}

/// Named setters for server authentication: the methods, their tokens and the `.netrc` file.
extension EasyHandle {
    /// The methods libcurl may authenticate with; set before ``set(awsSigV4:)``, which narrows it to AWS SigV4.
    /// - SeeAlso: `CURLOPT_HTTPAUTH`.
    public func set(httpAuth methods: HTTPAuthMethods) throws(CurlError) { try set(CURLOPT_HTTPAUTH, Int(bitPattern: methods.rawValue)) }

    /// An OAuth 2.0 bearer token, sent as `Authorization: Bearer` when ``HTTPAuthMethods/bearer`` is allowed. A
    /// credential: callers never log it.
    /// - SeeAlso: `CURLOPT_XOAUTH2_BEARER`.
    public func set(bearerToken: String) throws(CurlError) { try set(CURLOPT_XOAUTH2_BEARER, bearerToken) }

    /// AWS Signature Version 4 (`provider1[:provider2[:region[:service]]]`), signed with the `user:password` as key and
    /// secret; the only method from then on.
    /// - SeeAlso: `CURLOPT_AWS_SIGV4`.
    public func set(awsSigV4: String) throws(CurlError) { try set(CURLOPT_AWS_SIGV4, awsSigV4) }

    /// The service name of SPNEGO and Kerberos (`HTTP` by default).
    /// - SeeAlso: `CURLOPT_SERVICE_NAME`.
    public func set(serviceName: String) throws(CurlError) { try set(CURLOPT_SERVICE_NAME, serviceName) }

    /// What a GSS-API server may do in the user's name.
    /// - SeeAlso: `CURLOPT_GSSAPI_DELEGATION`.
    public func set(delegation: GSSAPIDelegation) throws(CurlError) {
        switch delegation {
        case .none: try set(CURLOPT_GSSAPI_DELEGATION, Int(CURLGSSAPI_DELEGATION_NONE))
        case .policy: try set(CURLOPT_GSSAPI_DELEGATION, Int(CURLGSSAPI_DELEGATION_POLICY_FLAG))
        case .always: try set(CURLOPT_GSSAPI_DELEGATION, Int(CURLGSSAPI_DELEGATION_FLAG))
        }
    }

    /// A URL holding a user name is refused (exit 67).
    /// - SeeAlso: `CURLOPT_DISALLOW_USERNAME_IN_URL`.
    public func set(disallowsUserNameInURL: Bool) throws(CurlError) { try set(CURLOPT_DISALLOW_USERNAME_IN_URL, disallowsUserNameInURL ? 1 : 0) }

    /// libcurl looks the request's host up in the `.netrc` file at `file` (parsed by libcurl); a file that is not
    /// there counts as one without the host, a file it cannot parse is exit 26.
    /// - SeeAlso: `CURLOPT_NETRC`, `CURLOPT_NETRC_FILE`.
    public func set(netrc use: NetrcUse, file: String) throws(CurlError) {
        try set(CURLOPT_NETRC, Int(use == .optional ? CURL_NETRC_OPTIONAL.rawValue : CURL_NETRC_REQUIRED.rawValue))
        try set(CURLOPT_NETRC_FILE, file)
    }
}
