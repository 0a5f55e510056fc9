import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// Vendor HTTPDNS options (Alibaba Cloud, Tencent DNSPod). Secrets are read from files or the environment only.
/// The flags that choose a provider (`--aliyun`, `--dnspod`, `--dnspod-id`, ...) are recorded by
/// ``ResolverOptions``; their rows here only check values.
struct VendorOptions: Sendable {
    var secretFile: String?
    var dnspodKeyFile: String?
    var dnspodAlgorithm: SymmetricCipher.Algorithm?
    var dnspodTokenFile: String?
    var servers: [String] = []
    var clientIP: String?

    static let category = OptionCategory("httpdns", "Vendor HTTPDNS: Alibaba Cloud and Tencent DNSPod")

    static let rows: [OptionRow<VendorOptions>] = [
        OptionRow("aliyun", nil, .string, "account", category,
                  "Resolve with Alibaba Cloud HTTPDNS for this account ID") { _, _ in },
        OptionRow("httpdns-secret-file", nil, .file, "file", category,
                  "Sign Alibaba requests (sign_d) with the secret in FILE (or $IPCURL_HTTPDNS_SECRET)", power: .readsSecret) {
            $0.secretFile = $1.text
        },
        OptionRow("dnspod", nil, .boolean, "", category, "Resolve with Tencent DNSPod HTTPDNS") { _, _ in },
        OptionRow("dnspod-id", nil, .string, "id", category,
                  "DNSPod authorization ID: encrypt queries with the key from --dnspod-key-file") { _, _ in },
        OptionRow("dnspod-key-file", nil, .file, "file", category,
                  "DNSPod encryption key in FILE (or $IPCURL_DNSPOD_KEY)", power: .readsSecret) { $0.dnspodKeyFile = $1.text },
        OptionRow("dnspod-alg", nil, .string, "aes|des", category, "DNSPod cipher: aes (default) or des") { options, argument in
            guard let algorithm = SymmetricCipher.Algorithm(rawValue: argument.text) else {
                throw argument.problem("\(Printable.quoted(String(argument.text.prefix(40)))): expected aes or des")
            }
            options.dnspodAlgorithm = algorithm
        },
        OptionRow("dnspod-token-file", nil, .file, "file", category,
                  "DNSPod HTTPS token in FILE (or $IPCURL_DNSPOD_TOKEN)", power: .readsSecret) { $0.dnspodTokenFile = $1.text },
        OptionRow("httpdns-server", nil, .string, "url", category,
                  "Vendor HTTPDNS server to ask instead of the documented ones; repeat to race more (hedged)",
                  repeatable: true, secret: SecretArguments.url, power: .choosesSecretRecipient) { $0.servers.append($1.text) },
        OptionRow("httpdns-client-ip", nil, .string, "ip", category,
                  "Ask vendor HTTPDNS to answer for this client IP (ECS)") { $0.clientIP = $1.text },
    ]

    /// Fills the vendor part of `settings` for the chosen provider; refuses options that do not apply to it
    /// (``ProviderDescriptor/accepts(_:)``).
    func apply(to settings: inout ResolverSettings) throws(CurlError) {
        let provider = settings.provider.descriptor
        for (option, given) in [("--httpdns-server", !servers.isEmpty), ("--httpdns-client-ip", clientIP != nil),
                                ("--httpdns-secret-file", secretFile != nil)] where given && !provider.accepts(option) {
            throw CurlError.usage("\(option) needs \(ProviderDescriptor.flags(accepting: option))")
        }
        try ServerURL.checkVendorServers(servers)
        if let clientIP {
            guard let address = IPAddress(clientIP) else {
                throw CurlError.usage("--httpdns-client-ip \(clientIP.prefix(64)): not an IP address")
            }
            settings.clientIP = address
        }
        settings.httpdnsServers = servers
        if provider.accepts("--httpdns-secret-file") {
            settings.aliyunSecret = try Secret.load(file: secretFile, variable: "IPCURL_HTTPDNS_SECRET")
        }
        if provider.accepts("--dnspod-key-file") {
            // The variables stand in for the key in the encrypted mode (an authorization ID) and for the token
            // without one.
            settings.dnspodAlgorithm = dnspodAlgorithm ?? .aes
            if settings.provider.argument != nil {
                settings.dnspodKey = try Secret.load(file: dnspodKeyFile, variable: "IPCURL_DNSPOD_KEY")
                if let dnspodTokenFile { settings.dnspodToken = try Secret.load(file: dnspodTokenFile, variable: nil) }
            } else {
                if let dnspodKeyFile { settings.dnspodKey = try Secret.load(file: dnspodKeyFile, variable: nil) }
                settings.dnspodToken = try Secret.load(file: dnspodTokenFile, variable: "IPCURL_DNSPOD_TOKEN")
            }
        }
    }
}
