import ArgumentParser
import CurlKit
import HTTPDNS
import IPCurlCore

extension SymmetricCipher.Algorithm: ExpressibleByArgument {}

/// Vendor HTTPDNS options (Alibaba Cloud, Tencent DNSPod). Secrets are read from files or the environment only.
struct VendorOptions: ParsableArguments {
    @Option(name: .customLong("aliyun"),
            help: ArgumentHelp("Resolve with Alibaba Cloud HTTPDNS for this account ID.", valueName: "ACCOUNT"))
    var aliyun: String?

    @Option(name: .customLong("httpdns-secret-file"),
            help: ArgumentHelp("Sign Alibaba requests (sign_d) with the secret in FILE (or $IPCURL_HTTPDNS_SECRET).",
                               valueName: "FILE"))
    var secretFile: String?

    @Flag(name: .customLong("dnspod"), help: "Resolve with Tencent DNSPod HTTPDNS.")
    var dnspod = false

    @Option(name: .customLong("dnspod-id"),
            help: ArgumentHelp("DNSPod authorization ID: encrypt queries with the key from --dnspod-key-file.", valueName: "ID"))
    var dnspodID: String?

    @Option(name: .customLong("dnspod-key-file"),
            help: ArgumentHelp("DNSPod encryption key in FILE (or $IPCURL_DNSPOD_KEY).", valueName: "FILE"))
    var dnspodKeyFile: String?

    @Option(name: .customLong("dnspod-alg"), help: ArgumentHelp("DNSPod cipher: aes (default) or des.", valueName: "ALG"))
    var dnspodAlgorithm: SymmetricCipher.Algorithm?

    @Option(name: .customLong("dnspod-token-file"),
            help: ArgumentHelp("DNSPod HTTPS token in FILE (or $IPCURL_DNSPOD_TOKEN).", valueName: "FILE"))
    var dnspodTokenFile: String?

    @Option(name: .customLong("httpdns-server"),
            help: ArgumentHelp("Vendor HTTPDNS server to ask instead of the documented ones; repeat to race more (hedged).",
                               valueName: "URL"))
    var servers: [String] = []

    @Option(name: .customLong("httpdns-client-ip"),
            help: ArgumentHelp("Ask vendor HTTPDNS to answer for this client IP (ECS).", valueName: "IP"))
    var clientIP: String?

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
