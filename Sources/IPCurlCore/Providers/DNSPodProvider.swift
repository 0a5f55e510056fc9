import CurlKit
import HTTPDNS

extension ProviderDescriptor {
    /// Tencent DNSPod HTTPDNS: `--dnspod` or `IPCURL_DNS=dnspod[:ID]`. With `--dnspod-id` (and the key of
    /// `--dnspod-key-file` or `$IPCURL_DNSPOD_KEY`) queries are encrypted; with a token (`--dnspod-token-file` or
    /// `$IPCURL_DNSPOD_TOKEN`) they go over https; else they are plain. Each mode has its own documented server.
    /// - SeeAlso: ``DNSPodResolver``; DNSPod HTTPDNS "HTTP/HTTPS query" and "AES/DES encryption".
    public static let dnspod = ProviderDescriptor(
        kind: .dnspod,
        flags: [ProviderFlag("--dnspod", .boolean, "Resolve with Tencent DNSPod HTTPDNS"),
                ProviderFlag("--dnspod-id", .text(placeholder: "id"),
                             "DNSPod authorization ID: encrypt queries with the key from --dnspod-key-file")],
        impliedBy: ["--dnspod-key-file", "--dnspod-alg", "--dnspod-token-file"],
        arguments: .last("--dnspod-id"), options: ["--httpdns-server", "--httpdns-client-ip"],
        environment: EnvironmentForm("dnspod", "ID", argumentIsOptional: true),
        servers: ProviderServers(.vendorServerFlag, setting: .vendorServer),
        settingFlags: [SettingFlag(.dnspodID, "--dnspod-id"), SettingFlag(.dnspodKey, "--dnspod-key-file"),
                       SettingFlag(.dnspodToken, "--dnspod-token-file")],
        cacheKey: { choice, settings in
            let mode = choice.argument.map { "id=\($0) \(settings.dnspodAlgorithm)" }
                ?? (settings.dnspodToken != nil ? "token" : "plain")
            return "dnspod \(mode) " + vendorKeySuffix(settings)
        },
        makeResolver: { (context) throws(ResolutionError) -> any Resolver in
            let mode = try dnspodMode(id: context.choice.argument, context.settings)
            return try DNSPodResolver(mode: mode, clientIP: context.settings.clientIP,
                                      client: context.client(defaults: mode.defaultServers))
        })

    /// The mode the authorization ID and the credentials in `settings` select, or the setting that is wrong.
    private static func dnspodMode(id: String?, _ settings: ResolverSettings) throws(ResolutionError) -> DNSPodResolver.Mode {
        switch (id, settings.dnspodKey, settings.dnspodToken) {
        case (nil, nil, nil): return .plain
        case (nil, nil, let token?):
            guard token.isURLSafe else { throw .configuration(.dnspodToken, "\(token.origin): the DNSPod token has characters a URL cannot carry") }
            return .token(token.value)
        case (let id?, let key?, nil):
            guard (1...32).contains(id.utf8.count), id.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                throw .configuration(.dnspodID, value: String(id.prefix(40)), "expected the numeric authorization ID")
            }
            do { return .encrypted(id: id, cipher: try SymmetricCipher(settings.dnspodAlgorithm, key: Array(key.value.utf8))) } catch {
                throw .configuration(.dnspodKey, "\(key.origin): \(error.message)",
                                     underlying: error.unavailable ? CurlError.notBuiltIn.with(message: error.message) : nil)
            }
        case (_?, nil, _): throw .configuration(.dnspodID, "needs --dnspod-key-file or IPCURL_DNSPOD_KEY")
        case (nil, _?, _): throw .configuration(.dnspodKey, "needs --dnspod-id")
        case (_?, _?, _?): throw .configuration(.dnspodToken, "cannot be combined with --dnspod-id (a different mode)")
        }
    }
}
