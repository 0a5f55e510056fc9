#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS

/// How a request authenticates with the server beyond `-u`: the methods libcurl may use, a bearer token, AWS
/// SigV4, the GSS-API settings, the `.netrc` file and whether a URL may name a user. A redirect hop that may not
/// carry credentials (``RedirectRules/sendsCredentials(to:origin:)``) goes without ``bearerToken``; the `.netrc` file
/// is looked up for every hop's own host.
/// - SeeAlso: `CURLOPT_HTTPAUTH`, `CURLOPT_XOAUTH2_BEARER`, `CURLOPT_AWS_SIGV4`, `CURLOPT_SERVICE_NAME`,
///   `CURLOPT_GSSAPI_DELEGATION`, `CURLOPT_NETRC`, `CURLOPT_NETRC_FILE`, `CURLOPT_DISALLOW_USERNAME_IN_URL`.
public struct ServerAuth: Sendable, Equatable {
    /// `--basic`, `--digest`, `--ntlm`, `--ntlm-wb`, `--negotiate`, `--anyauth` (and the bearer and SigV4 bits);
    /// empty leaves libcurl's default (Basic).
    public var methods: HTTPAuthMethods = []
    /// The `--oauth2-bearer` token (from a file or `$IPCURL_OAUTH2_BEARER`). A credential.
    public var bearerToken: Secret?
    /// `--aws-sigv4 provider1[:provider2[:region[:service]]]`.
    public var awsSigV4: String?
    /// `--service-name`.
    public var serviceName: String?
    /// `--delegation`.
    public var delegation: GSSAPIDelegation?
    /// `--disallow-username-in-url`.
    public var disallowsUserNameInURL = false
    /// `-n`, `--netrc-optional`, `--netrc-file`: how and from which file libcurl reads logins.
    public var netrc: NetrcFile?

    /// No authentication beyond `-u`, as curl's defaults.
    public init() {}

    /// Sets what is set on `handle`; AWS SigV4 last, as curl does, so it is the only method then.
    func apply(to handle: EasyHandle) throws(CurlError) {
        if !methods.isEmpty { try handle.set(httpAuth: methods) }
        if let bearerToken { try handle.set(bearerToken: bearerToken.value) }
        if let serviceName { try handle.set(serviceName: serviceName) }
        if let delegation { try handle.set(delegation: delegation) }
        if disallowsUserNameInURL { try handle.set(disallowsUserNameInURL: true) }
        if let netrc { try handle.set(netrc: netrc.use, file: netrc.path) }
        if let awsSigV4 { try handle.set(awsSigV4: awsSigV4) }
    }

    /// curl's exit 67 before anything is looked up or sent, for a URL that names a user under
    /// `--disallow-username-in-url`.
    public func check(_ url: CurlURL) throws(CurlError) {
        guard disallowsUserNameInURL, url.hasCredentials else { return }
        throw CurlError.loginDenied.with(message: "Login denied")
    }

    /// The `.netrc` file curl reads when none is named: `$HOME/.netrc`, or the user's home directory from the
    /// password database when `HOME` is not set.
    public static func defaultNetrcFile() -> String {
        if let home = getenv("HOME") { return String(cString: home) + "/.netrc" }
        guard let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir else { return ".netrc" }
        return String(cString: directory) + "/.netrc"
    }
}

/// A `.netrc` file libcurl reads for each hop's host, and how (``NetrcUse``).
public struct NetrcFile: Sendable, Equatable {
    public var use: NetrcUse
    public var path: String

    public init(use: NetrcUse, path: String) {
        self.use = use
        self.path = path
    }
}
