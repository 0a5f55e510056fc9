import HTTPDNS

extension ProviderDescriptor {
    /// Alibaba Cloud HTTPDNS: `--aliyun ACCOUNT` or `IPCURL_DNS=aliyun:ACCOUNT`; requests are signed with the secret
    /// of `--httpdns-secret-file` (or `$IPCURL_HTTPDNS_SECRET`) when there is one. `--aliyun-api v2` (or
    /// `IPCURL_DNS=aliyun-v2:ACCOUNT`) asks the v2 API (``ResolverSettings/aliyunV2``), whose servers are verified
    /// as ``HTTPDNS/AliyunV2/serviceName``: the `--httpdns-server` URLs, else the account's service addresses,
    /// discovered through the boot servers (`--aliyun-boot-server`, else the built-in ones) and kept beside the
    /// answer cache.
    /// - SeeAlso: ``AliyunResolver``, ``AliyunV2Resolver``, ``AliyunV2Discovery``; Alibaba Cloud HTTPDNS "domain
    ///   name resolution API" and "service discovery API".
    public static let aliyun = ProviderDescriptor(
        kind: .aliyun,
        flags: [ProviderFlag("--aliyun", .text(placeholder: "account"), "Resolve with Alibaba Cloud HTTPDNS for this account ID")],
        arguments: .last("--aliyun"),
        options: ["--httpdns-server", "--httpdns-client-ip", "--httpdns-secret-file", "--aliyun-api", "--aliyun-encryption",
                  "--aliyun-aes-key-file", "--aliyun-boot-server"],
        environment: EnvironmentForm("aliyun", "ACCOUNT", variant: "aliyun-v2"),
        servers: ProviderServers(.vendorServerFlag, setting: .vendorServer, defaults: AliyunResolver.defaultServers,
                                 serviceName: AliyunResolver.serviceName, settingsDefaults: { settings in
                                     settings.aliyunV2 == nil ? nil : aliyunBootServers(settings)
                                 }),
        settingFlags: [SettingFlag(.aliyunAccount, "--aliyun"), SettingFlag(.bootServer, "--aliyun-boot-server")],
        cacheKey: { choice, settings in
            if let v2 = settings.aliyunV2 {
                let boot = settings.httpdnsServers.isEmpty ? " boot " + aliyunBootServers(settings).joined(separator: " ") : ""
                return "aliyun-v2 \(v2.account) signed=\(v2.isSigned) m=\(v2.encryption.mode.rawValue) " + vendorKeySuffix(settings) + boot
            }
            return "aliyun \(choice.argument ?? "") signed=\(settings.aliyunSecret != nil) " + vendorKeySuffix(settings)
        },
        makeResolver: { (context) throws(ResolutionError) -> any Resolver in
            let settings = context.settings
            guard let v2 = settings.aliyunV2 else {
                return try AliyunResolver(account: context.choice.argument ?? "", secret: settings.aliyunSecret?.value,
                                          clientIP: settings.clientIP, client: context.client())
            }
            let given = !settings.httpdnsServers.isEmpty
            let client = try context.client(serviceName: AliyunV2.serviceName, setting: given ? nil : .bootServer)
            if given { return AliyunV2Resolver(api: v2, families: settings.families, client: client) }
            let key = "aliyun-v2-services \(v2.account) " + client.servers.map(\.label).joined(separator: " ") + context.trust
            let discovery = AliyunV2Discovery(api: v2, boot: client, store: settings.cacheDirectory.map(AnswerCache.init(directory:)),
                                              key: key)
            return AliyunV2Resolver(api: v2, families: settings.families, discovery: discovery)
        })

    /// The boot servers of Alibaba's v2 API: `--aliyun-boot-server`, else the built-in ones.
    private static func aliyunBootServers(_ settings: ResolverSettings) -> [String] {
        settings.aliyunBootServers.isEmpty ? AliyunV2.bootServerURLs : settings.aliyunBootServers
    }
}
