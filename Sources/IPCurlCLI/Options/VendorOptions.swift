import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// Vendor HTTPDNS options (Alibaba Cloud, Tencent DNSPod). Secrets are read from files or the environment only.
/// The rows of the flags that only choose a provider (`--aliyun`, `--dnspod`, `--dnspod-id`) are made from the
/// registry by ``ResolverOptions``, which also records every use of a flag that implies one (`--dnspod-key-file`).
struct VendorOptions: Sendable {
    var secretFile: String?
    var dnspodKeyFile: String?
    var dnspodAlgorithm: SymmetricCipher.Algorithm?
    var dnspodTokenFile: String?
    var servers: [String] = []
    var clientIP: String?
    var aliyunAPI: String?
    var aliyunEncryption: AliyunV2.Mode?
    var aliyunKeyFile: String?
    var aliyunBootServers: [String] = []

    /// `--aliyun-encryption` words and the modes they name.
    static let encryptionWords: [(String, AliyunV2.Mode)] = [("none", .plain), ("cbc", .cbc), ("gcm", .gcm)]

    static let category = OptionCategory("httpdns", "Vendor HTTPDNS: Alibaba Cloud and Tencent DNSPod")

    static let rows: [OptionRow<VendorOptions>] = [
        OptionRow("httpdns-secret-file", nil, .file, "file", category,
                  "Sign Alibaba requests with the secret in FILE (or $IPCURL_HTTPDNS_SECRET): v1's sign_d (MD5); v2's "
                  + "HMAC-SHA256 keyed with the secret, which is hex as the console shows it", power: .readsSecret) {
            $0.secretFile = $1.text
        },
        OptionRow("aliyun-api", nil, .string, "v1|v2", category, "Alibaba HTTPDNS API: v1 (default) or v2") { options, argument in
            guard ["v1", "v2"].contains(argument.text) else {
                throw argument.problem("\(Printable.quoted(String(argument.text.prefix(40)))): expected v1 or v2")
            }
            options.aliyunAPI = argument.text
        },
        OptionRow("aliyun-encryption", nil, .string, "none|cbc|gcm", category,
                  "Alibaba v2 query encryption: none, cbc (default with an AES key) or gcm") { options, argument in
            guard let mode = encryptionWords.first(where: { $0.0 == argument.text })?.1 else {
                throw argument.problem("\(Printable.quoted(String(argument.text.prefix(40)))): expected none, cbc or gcm")
            }
            options.aliyunEncryption = mode
        },
        OptionRow("aliyun-aes-key-file", nil, .file, "file", category,
                  "Alibaba v2 AES key (hex) in FILE (or $IPCURL_ALIYUN_AES_KEY)", power: .readsSecret) {
            $0.aliyunKeyFile = $1.text
        },
        OptionRow("aliyun-boot-server", nil, .string, "url", category,
                  "Alibaba v2: ask this server for the account's service addresses instead of the built-in boot "
                  + "addresses; repeat to race more", repeatable: true, secret: SecretArguments.url,
                  power: .choosesSecretRecipient) { $0.aliyunBootServers.append($1.text) },
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
                                ("--httpdns-secret-file", secretFile != nil), ("--aliyun-api", aliyunAPI != nil),
                                ("--aliyun-encryption", aliyunEncryption != nil),
                                ("--aliyun-aes-key-file", aliyunKeyFile != nil),
                                ("--aliyun-boot-server", !aliyunBootServers.isEmpty)] where given && !provider.accepts(option) {
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
        if !aliyunBootServers.isEmpty {
            guard servers.isEmpty else {
                throw CurlError.usage("--aliyun-boot-server and --httpdns-server: choose one (--httpdns-server names the service addresses, "
                                      + "so nothing is discovered)")
            }
            try ServerURL.checkVendorServers(aliyunBootServers, setting: .bootServer)
            settings.aliyunBootServers = aliyunBootServers
        }
        if provider.accepts("--httpdns-secret-file") {
            settings.aliyunSecret = try Secret.load(file: secretFile, variable: "IPCURL_HTTPDNS_SECRET")
            if aliyunAPI.map({ $0 == "v2" }) ?? (settings.provider.variant == "aliyun-v2") {
                settings.aliyunV2 = try aliyunV2(account: settings.provider.argument ?? "", settings)
            } else if let option = [("--aliyun-encryption", aliyunEncryption != nil), ("--aliyun-aes-key-file", aliyunKeyFile != nil),
                                    ("--aliyun-boot-server", !aliyunBootServers.isEmpty)].first(where: \.1)?.0 {
                throw CurlError.usage("\(option) needs --aliyun-api v2")
            }
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

    /// The v2 API for `account`: the signing key from the secret in `settings` (hex), the AES key from
    /// `--aliyun-aes-key-file` or `$IPCURL_ALIYUN_AES_KEY` (hex, 16 bytes), CBC unless another mode is asked.
    /// A key that is not what the console shows, or encryption without a key, is a usage error that does not quote it.
    private func aliyunV2(account: String, _ settings: ResolverSettings) throws(CurlError) -> AliyunV2 {
        let key = try Secret.load(file: aliyunKeyFile, variable: "IPCURL_ALIYUN_AES_KEY")
        let mode = aliyunEncryption ?? (key == nil ? .plain : .cbc)
        var signingKey: AliyunV2.SigningKey?
        if let secret = settings.aliyunSecret {
            do { signingKey = try AliyunV2.SigningKey(hex: secret.value) } catch {
                throw CurlError.usage("\(secret.origin): \(error.message)")
            }
        }
        var encryption = AliyunV2.Encryption.plain
        if mode != .plain {
            guard let key else {
                throw CurlError.usage("--aliyun-encryption \(Self.encryptionWords.first { $0.1 == mode }?.0 ?? ""): "
                                      + "needs an AES key: --aliyun-aes-key-file FILE or $IPCURL_ALIYUN_AES_KEY")
            }
            do { encryption = try AliyunV2.Encryption(mode, hexKey: key.value) } catch {
                throw error.unavailable ? CurlError.usage("--aliyun-encryption: \(error.message)")
                    : CurlError.usage("\(key.origin): \(error.message)")
            }
        }
        do {
            return try AliyunV2(account: account, signingKey: signingKey, encryption: encryption, clientIP: settings.clientIP)
        } catch { throw CurlError(error) }
    }
}
