import HTTPDNS

extension ProviderDescriptor {
    /// Alibaba Cloud HTTPDNS: `--aliyun ACCOUNT` or `IPCURL_DNS=aliyun:ACCOUNT`; requests are signed with the secret
    /// of `--httpdns-secret-file` (or `$IPCURL_HTTPDNS_SECRET`) when there is one.
    /// - SeeAlso: ``AliyunResolver``; Alibaba Cloud HTTPDNS "domain name resolution API".
    public static let aliyun = ProviderDescriptor(
        kind: .aliyun, flags: ["--aliyun"], arguments: .last("--aliyun"),
        options: ["--httpdns-server", "--httpdns-client-ip", "--httpdns-secret-file"],
        environment: EnvironmentForm("aliyun", "ACCOUNT"),
        servers: ProviderServers(.vendorServerFlag, setting: .vendorServer, defaults: AliyunResolver.defaultServers,
                                 serviceName: AliyunResolver.serviceName),
        settingFlags: [SettingFlag(.aliyunAccount, "--aliyun")],
        cacheKey: { choice, settings in
            "aliyun \(choice.argument ?? "") signed=\(settings.aliyunSecret != nil) " + vendorKeySuffix(settings)
        },
        makeResolver: { (context) throws(ResolutionError) -> any Resolver in
            try AliyunResolver(account: context.choice.argument ?? "", secret: context.settings.aliyunSecret?.value,
                               clientIP: context.settings.clientIP, client: context.client())
        })
}
