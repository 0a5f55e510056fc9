import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// Vendor HTTPDNS options (Alibaba Cloud, Tencent DNSPod). Secrets are read from files or the environment only.
struct VendorOptions: Sendable {
    var aliyun: String?
    var secretFile: String?
    var dnspod = false
    var dnspodID: String?
    var dnspodKeyFile: String?
    var dnspodAlgorithm: SymmetricCipher.Algorithm?
    var dnspodTokenFile: String?
    var servers: [String] = []
    var clientIP: String?

    static let category = OptionCategory("httpdns", "Vendor HTTPDNS: Alibaba Cloud and Tencent DNSPod")

    static let rows: [OptionRow<VendorOptions>] = [
        OptionRow("aliyun", nil, .string, "account", category, "Resolve with Alibaba Cloud HTTPDNS for this account ID") {
            $0.aliyun = $1.text
        },
        OptionRow("httpdns-secret-file", nil, .file, "file", category,
                  "Sign Alibaba requests (sign_d) with the secret in FILE (or $IPCURL_HTTPDNS_SECRET)") { $0.secretFile = $1.text },
        OptionRow("dnspod", nil, .boolean, "", category, "Resolve with Tencent DNSPod HTTPDNS") { $0.dnspod = $1.isOn },
        OptionRow("dnspod-id", nil, .string, "id", category,
                  "DNSPod authorization ID: encrypt queries with the key from --dnspod-key-file") { $0.dnspodID = $1.text },
        OptionRow("dnspod-key-file", nil, .file, "file", category,
                  "DNSPod encryption key in FILE (or $IPCURL_DNSPOD_KEY)") { $0.dnspodKeyFile = $1.text },
        OptionRow("dnspod-alg", nil, .string, "aes|des", category, "DNSPod cipher: aes (default) or des") { options, argument in
            guard let algorithm = SymmetricCipher.Algorithm(rawValue: argument.text) else {
                throw argument.problem("\(ResolveEntry.quoted(String(argument.text.prefix(40)))): expected aes or des")
            }
            options.dnspodAlgorithm = algorithm
        },
        OptionRow("dnspod-token-file", nil, .file, "file", category,
                  "DNSPod HTTPS token in FILE (or $IPCURL_DNSPOD_TOKEN)") { $0.dnspodTokenFile = $1.text },
        OptionRow("httpdns-server", nil, .string, "url", category,
                  "Vendor HTTPDNS server to ask instead of the documented ones; repeat to race more (hedged)",
                  repeatable: true) { $0.servers.append($1.text) },
        OptionRow("httpdns-client-ip", nil, .string, "ip", category,
                  "Ask vendor HTTPDNS to answer for this client IP (ECS)") { $0.clientIP = $1.text },
    ]

    /// Whether any DNSPod option was given (each one implies `--dnspod`).
    var wantsDNSPod: Bool { dnspod || dnspodID != nil || dnspodKeyFile != nil || dnspodTokenFile != nil || dnspodAlgorithm != nil }

    /// Fills the vendor part of `settings` for the chosen provider; refuses options that do not apply to it.
    func apply(to settings: inout ResolverSettings) throws(CurlError) {
        var isAliyun = false, isVendor = false
        switch settings.provider {
        case .aliyun: (isAliyun, isVendor) = (true, true)
        case .dnspod: isVendor = true
        default: break
        }
        if !isVendor, !servers.isEmpty { throw CurlError.usage("--httpdns-server needs --aliyun or --dnspod") }
        if !isVendor, clientIP != nil { throw CurlError.usage("--httpdns-client-ip needs --aliyun or --dnspod") }
        if !isAliyun, secretFile != nil { throw CurlError.usage("--httpdns-secret-file needs --aliyun") }
        try ServerURL.checkVendorServers(servers)
        if let clientIP {
            guard let address = IPAddress(clientIP) else {
                throw CurlError.usage("--httpdns-client-ip \(clientIP.prefix(64)): not an IP address")
            }
            settings.clientIP = address
        }
        settings.httpdnsServers = servers
        if isAliyun { settings.aliyunSecret = try Secret.load(file: secretFile, variable: "IPCURL_HTTPDNS_SECRET") }
        if case .dnspod(let id) = settings.provider {
            settings.dnspodAlgorithm = dnspodAlgorithm ?? .aes
            if id != nil {
                settings.dnspodKey = try Secret.load(file: dnspodKeyFile, variable: "IPCURL_DNSPOD_KEY")
                if let dnspodTokenFile { settings.dnspodToken = try Secret.load(file: dnspodTokenFile, variable: nil) }
            } else {
                if let dnspodKeyFile { settings.dnspodKey = try Secret.load(file: dnspodKeyFile, variable: nil) }
                settings.dnspodToken = try Secret.load(file: dnspodTokenFile, variable: "IPCURL_DNSPOD_TOKEN")
            }
        }
    }
}
