import HTTPDNS

extension ProviderDescriptor {
    /// Alibaba Cloud HTTPDNS: `--aliyun ACCOUNT` or `IPCURL_DNS=aliyun:ACCOUNT`; requests are signed with the secret
    /// of `--httpdns-secret-file` (or `$IPCURL_HTTPDNS_SECRET`) when there is one. `--aliyun-api v2` (or
    /// `IPCURL_DNS=aliyun-v2:ACCOUNT`) asks the v2 API (``ResolverSettings/aliyunV2``), whose servers are verified
    /// as ``v2ServiceName``.
    /// - SeeAlso: ``AliyunResolver``, ``AliyunV2Resolver``; Alibaba Cloud HTTPDNS "domain name resolution API".
    public static let aliyun = ProviderDescriptor(
        kind: .aliyun, flags: ["--aliyun"], arguments: .last("--aliyun"),
        options: ["--httpdns-server", "--httpdns-client-ip", "--httpdns-secret-file", "--aliyun-api", "--aliyun-encryption",
                  "--aliyun-aes-key-file"],
        environment: EnvironmentForm("aliyun", "ACCOUNT", variant: "aliyun-v2"),
        servers: ProviderServers(.vendorServerFlag, setting: .vendorServer, defaults: AliyunResolver.defaultServers,
                                 serviceName: AliyunResolver.serviceName),
        settingFlags: [SettingFlag(.aliyunAccount, "--aliyun")],
        cacheKey: { choice, settings in
            if let v2 = settings.aliyunV2 {
                return "aliyun-v2 \(v2.account) signed=\(v2.isSigned) m=\(v2.encryption.mode.rawValue) " + vendorKeySuffix(settings)
            }
            return "aliyun \(choice.argument ?? "") signed=\(settings.aliyunSecret != nil) " + vendorKeySuffix(settings)
        },
        makeResolver: { (context) throws(ResolutionError) -> any Resolver in
            if let v2 = context.settings.aliyunV2 {
                return AliyunV2Resolver(api: v2, families: context.settings.families,
                                        client: try context.client(serviceName: v2ServiceName))
            }
            return try AliyunResolver(account: context.choice.argument ?? "", secret: context.settings.aliyunSecret?.value,
                                      clientIP: context.settings.clientIP, client: context.client())
        })

    /// The TLS name of Alibaba's v2 (and service discovery) servers, verified for a server given by IP over https.
    public static let v2ServiceName = "resolvers.httpdns.aliyuncs.com"
}
