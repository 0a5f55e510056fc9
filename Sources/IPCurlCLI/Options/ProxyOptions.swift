import CurlKit
import IPCurlCore
import OptionTable

/// `-x`, `--noproxy` and `--proxy-user`, spelled as in curl; fetch only, never applied to the HTTPDNS queries.
/// Through a proxy the proxy resolves the name, so ipcurl pins nothing for that host (`-v` says so).
struct ProxyOptions: Sendable {
    var proxy: String?
    var noProxy: String?
    var user: String?

    static let category = OptionCategory("proxy", "Proxies (the proxy resolves the names sent through it)")

    static let rows: [OptionRow<ProxyOptions>] = [
        OptionRow("proxy", "x", .string, "[protocol://]host[:port]", category,
                  "Use this proxy; \"\" ignores the *_proxy environment variables", secret: SecretArguments.url) {
            $0.proxy = $1.text
        },
        OptionRow("noproxy", nil, .string, "list", category,
                  "Hosts reached directly: names, domains, IPs or CIDR ranges, comma-separated; * for all (replaces NO_PROXY)") {
            $0.noProxy = $1.text
        },
        OptionRow("proxy-user", "U", .string, "user:password", category,
                  "Proxy credentials; blanked from the process list, never shown by -v", secret: .whole) { $0.user = $1.text },
    ]

    /// Fills the request's proxy part.
    func apply(to request: inout FetchRequest) throws(CurlError) {
        request.template.proxy.url = proxy
        request.template.proxy.noProxy = noProxy
        if let user {
            guard user.contains(":") else {
                throw CurlError.usage("-U \(user.prefix { $0 != ":" }): give user:password (ipcurl never prompts)")
            }
            request.template.proxy.credentials = Secret(value: user, origin: "-U")
        }
    }
}
