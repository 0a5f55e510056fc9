import CurlKit
import IPCurlCore
import OptionTable

/// The proxy options of curl 7.88, spelled as in curl; fetch only, never applied to the HTTPDNS queries. Through
/// an HTTP(S) proxy, or SOCKS with remote resolution, the proxy resolves the name, so ipcurl pins nothing for that
/// host (`-v` says so); through `socks4`/`socks5` the pin is used. The `https://` proxy's TLS rows are
/// ``tlsRows``.
struct ProxyOptions: Sendable {
    var settings = ProxySettings()
    var user: String?
    /// The `--proxy-basic`… switches that are on; curl picks one by a fixed precedence (``authentication``).
    var authentications: [HTTPAuthMethods] = []
    /// Where the proxy key's passphrase comes from (``KeyPassphrase``).
    var passphrase: KeyPassphrase?
    /// `--proxy-tlspassword FILE`.
    var srpPasswordFile: String?

    static let category = OptionCategory("proxy", "Proxies (the proxy resolves the names sent through it)")

    /// A row that names the proxy, as `-x` does, of `type` when the value has no scheme.
    private static func proxyRow(_ long: String, _ short: Character? = nil, _ type: ProxyType, _ help: String) -> OptionRow<ProxyOptions> {
        OptionRow(long, short, .string, long == "proxy" ? "[protocol://]host[:port]" : "host[:port]", category, help,
                  secret: SecretArguments.url) { options, argument in
            options.settings.url = argument.text
            options.settings.type = type
            options.settings.origin = short.map { "-\($0)" } ?? "--" + long
        }
    }

    /// A switch among `--proxy-basic` and the other authentication methods.
    private static func authenticationRow(_ long: String, _ method: HTTPAuthMethods, _ help: String) -> OptionRow<ProxyOptions> {
        OptionRow(long, nil, .boolean, "", category, help) { options, argument in
            options.authentications.removeAll { $0 == method }
            if argument.isOn { options.authentications.append(method) }
        }
    }

    static let rows: [OptionRow<ProxyOptions>] = [
        proxyRow("proxy", "x", .http, "Use this proxy; \"\" ignores the *_proxy environment variables"),
        proxyRow("proxy1.0", nil, .http1_0, "Use this HTTP proxy, speaking HTTP/1.0 in its CONNECT requests"),
        proxyRow("socks4", nil, .socks4, "Use this SOCKS4 proxy (as -x socks4://): ipcurl resolves the name, the pin is used"),
        proxyRow("socks4a", nil, .socks4a, "Use this SOCKS4a proxy (as -x socks4a://): the proxy resolves the name"),
        proxyRow("socks5", nil, .socks5, "Use this SOCKS5 proxy (as -x socks5://): ipcurl resolves the name, the pin is used"),
        proxyRow("socks5-hostname", nil, .socks5Hostname, "Use this SOCKS5 proxy (as -x socks5h://): the proxy resolves the name"),
        OptionRow("preproxy", nil, .string, "[protocol://]host[:port]", category,
                  "Reach the proxy (or the host) through this SOCKS proxy first", secret: SecretArguments.url) {
            $0.settings.preProxy = $1.text
        },
        OptionRow("noproxy", nil, .string, "list", category,
                  "Hosts reached directly: names, domains, IPs or CIDR ranges, comma-separated; * for all (replaces NO_PROXY)") {
            $0.settings.noProxy = $1.text
        },
        OptionRow("proxy-user", "U", .string, "user:password", category,
                  "Proxy credentials; blanked from the process list, never shown by -v", secret: .whole) { $0.user = $1.text },
        OptionRow("proxytunnel", "p", .boolean, "", category, "Tunnel through the HTTP proxy with CONNECT, also for http://") {
            $0.settings.tunnel = $1.isOn
        },
        OptionRow("proxy-header", nil, .string, "header/@file", category,
                  "Header for the proxy only (CONNECT); @FILE: one per line", repeatable: true, secret: SecretArguments.header) {
            $0.settings.headers.append($1.text)
        },
        OptionRow("suppress-connect-headers", nil, .boolean, "", category, "Leave the CONNECT response's headers out of -i and -D") {
            $0.settings.suppressesConnectHeaders = $1.isOn
        },
        authenticationRow("proxy-basic", .basic, "Authenticate to the proxy with Basic (the default)"),
        authenticationRow("proxy-digest", .digest, "Authenticate to the proxy with Digest"),
        authenticationRow("proxy-ntlm", .ntlm, "Authenticate to the proxy with NTLM"),
        authenticationRow("proxy-negotiate", .negotiate, "Authenticate to the proxy with Negotiate (SPNEGO)"),
        authenticationRow("proxy-anyauth", .any, "Let the proxy's challenge choose the authentication method"),
        OptionRow("proxy-service-name", nil, .string, "name", category, "Service name of the proxy's Negotiate or GSS-API principal") {
            $0.settings.serviceName = $1.text
        },
        OptionRow("socks5-gssapi-service", nil, .string, "name", category, "SOCKS5 GSS-API service name (as --proxy-service-name)") {
            $0.settings.serviceName = $1.text
        },
        OptionRow("socks5-basic", nil, .boolean, "", category, "Offer the SOCKS5 proxy username/password authentication") {
            options, argument in
            if argument.isOn { options.settings.socks5Authentication.insert(.basic) } else { options.settings.socks5Authentication.remove(.basic) }
        },
        OptionRow("socks5-gssapi", nil, .boolean, "", category, "Offer the SOCKS5 proxy GSS-API authentication") { options, argument in
            if argument.isOn { options.settings.socks5Authentication.insert(.gssapi) } else { options.settings.socks5Authentication.remove(.gssapi) }
        },
        OptionRow("socks5-gssapi-nec", nil, .boolean, "", category, "Negotiate the SOCKS5 GSS-API protection mode unprotected (NEC)") {
            $0.settings.socks5GSSAPINEC = $1.isOn
        },
    ] + tlsRows

    /// curl's choice among the authentication switches that are on: any, then Negotiate, NTLM, Digest, Basic.
    var authentication: HTTPAuthMethods? {
        [.any, .negotiate, .ntlm, .digest, .basic].first { authentications.contains($0) }
    }

    /// Fills the request's proxy part; the secrets from their files or the environment.
    func apply(to request: inout FetchRequest) throws(CurlError) {
        var proxy = settings
        proxy.headers = try TransferOptions.expandingFiles(settings.headers)
        proxy.authentication = authentication
        if let user {
            guard user.contains(":") else {
                throw CurlError.usage("-U \(user.prefix { $0 != ":" }): give user:password (ipcurl never prompts)")
            }
            proxy.credentials = Secret(value: user, origin: "-U")
        }
        proxy.keyPassphrase = try KeyPassphrase.load(passphrase, variable: "IPCURL_PROXY_PASS",
                                                     needed: settings.tls.certificate != nil || settings.tls.privateKey != nil)
        let srpVariable = settings.tls.srpUser == nil ? nil : KeyPassphrase.set("IPCURL_PROXY_TLSPASSWORD")
        if let path = srpPasswordFile {
            proxy.srpPassword = try KeyPassphrase.read(path, option: "--proxy-tlspassword", variable: "IPCURL_PROXY_TLSPASSWORD")
        } else {
            proxy.srpPassword = try Secret.load(file: nil, variable: srpVariable)
        }
        request.template.proxy = proxy
    }
}
