#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import IPCurlCore
import OptionTable

/// How a fetch authenticates with the server beyond `-u`, spelled as in curl: the HTTP methods, a bearer token
/// (from a file or `$IPCURL_OAUTH2_BEARER`, never from the command line), AWS SigV4, GSS-API settings and `.netrc`.
struct AuthOptions: Sendable {
    var methods: HTTPAuthMethods = []
    var bearerFile: String?
    var awsSigV4: String?
    var serviceName: String?
    var delegation: String?
    var disallowsUserNameInURL = false
    var netrc = false, netrcOptional = false
    var netrcFile: String?

    static let category = TransferOptions.auth

    /// A method switch as curl's: `--NAME` adds the method, `--no-NAME` removes it.
    private static func method(_ name: String, _ method: HTTPAuthMethods, _ help: String) -> OptionRow<AuthOptions> {
        OptionRow(name, nil, .boolean, "", category, help) { options, argument in
            if argument.isOn { options.methods.insert(method) } else { options.methods.remove(method) }
        }
    }

    static let rows: [OptionRow<AuthOptions>] = [
        method("basic", .basic, "Use HTTP Basic authentication (the default) with -u"),
        method("digest", .digest, "Use HTTP Digest authentication with -u"),
        method("ntlm", .ntlm, "Use HTTP NTLM authentication with -u"),
        method("ntlm-wb", .ntlmWinbind, "Use HTTP NTLM authentication through winbind's ntlm_auth"),
        method("negotiate", .negotiate, "Use HTTP Negotiate (SPNEGO, Kerberos) authentication; -u : takes the ticket's user"),
        OptionRow("anyauth", nil, .boolean, "", category, "Let the server's 401 choose the safest method it offers") {
            // As curl: --no-anyauth leaves the methods as they are.
            if $1.isOn { $0.methods = .any }
        },
        OptionRow("delegation", nil, .string, "none|policy|always", category, "What a GSS-API server may do in the user's name") {
            $0.delegation = $1.text
        },
        OptionRow("service-name", nil, .string, "name", category, "SPNEGO/Kerberos service name (default HTTP)") {
            $0.serviceName = $1.text
        },
        OptionRow("oauth2-bearer", nil, .file, "file", category,
                  "Send the OAuth 2 bearer token read from FILE (\"\": from $IPCURL_OAUTH2_BEARER); never from the command line",
                  secret: .whole, power: .readsSecret) { options, argument in
            options.bearerFile = argument.text
            options.methods.insert(.bearer)
        },
        OptionRow("aws-sigv4", nil, .string, "provider1[:provider2[:region[:service]]]", category,
                  "Sign with AWS Signature Version 4, -u giving the key and secret") { options, argument in
            options.awsSigV4 = argument.text
            options.methods.insert(.awsSigV4)
        },
        OptionRow("disallow-username-in-url", nil, .boolean, "", category, "Refuse a URL that holds a user name (exit 67)") {
            $0.disallowsUserNameInURL = $1.isOn
        },
        OptionRow("netrc", "n", .boolean, "", category, "Take each host's login from ~/.netrc (a private file)") { $0.netrc = $1.isOn },
        OptionRow("netrc-optional", nil, .boolean, "", category, "Like --netrc, but the URL's credentials come first") {
            $0.netrcOptional = $1.isOn
        },
        OptionRow("netrc-file", nil, .file, "file", category, "Like --netrc, with FILE instead of ~/.netrc", power: .readsSecret) {
            $0.netrcFile = $1.text
        },
    ]

    /// curl's warning for a `--delegation` word it does not know (it then delegates nothing).
    var warnings: [String] {
        guard let delegation, GSSAPIDelegation(rawValue: delegation.lowercased()) == nil else { return [] }
        return ["unrecognized delegation method '\(delegation)', using none"]
    }

    /// Fills the request's server authentication, after ``TransferOptions`` (a `-u` wins over `.netrc`, as in curl).
    /// The bearer token comes from its file, or with an empty file name from `$IPCURL_OAUTH2_BEARER`: the
    /// variable alone sends nothing, so a token exported for one API never goes to another host a later run
    /// names. A `.netrc` file is held to the rule of secret files before libcurl reads it.
    func apply(to request: inout FetchRequest) throws(CurlError) {
        var auth = ServerAuth()
        auth.methods = methods
        auth.awsSigV4 = awsSigV4
        auth.serviceName = serviceName
        auth.delegation = delegation.map { GSSAPIDelegation(rawValue: $0.lowercased()) ?? .none }
        auth.disallowsUserNameInURL = disallowsUserNameInURL
        if bearerFile == "" {
            guard let variable = KeyPassphrase.set("IPCURL_OAUTH2_BEARER") else {
                throw CurlError.usage("--oauth2-bearer \"\": $IPCURL_OAUTH2_BEARER is not set")
            }
            auth.bearerToken = try Secret.load(file: nil, variable: variable)
        } else if let bearerFile {
            guard bearerFile == "-" || LocalFiles.isReadable(bearerFile) else {
                // The value may be a token given as curl takes it: never repeated in the message.
                throw CurlError.readError.with(message: "--oauth2-bearer: the token file cannot be read: give a file holding the token "
                                               + "(or \"\" and $IPCURL_OAUTH2_BEARER); ipcurl never takes the token on the command line")
            }
            auth.bearerToken = try Secret.load(file: bearerFile, variable: nil)
        }
        if netrc || netrcOptional || netrcFile != nil, request.credentials == nil {
            let path = netrcFile ?? ServerAuth.defaultNetrcFile()
            try Secret.requirePrivate(file: path)
            auth.netrc = NetrcFile(use: netrcOptional ? .optional : .required, path: path)
        }
        request.template.auth = auth
    }
}
