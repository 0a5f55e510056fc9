import HTTPDNS

extension ProviderDescriptor {
    /// JSON DNS-over-HTTPS (Google `/resolve`, Cloudflare `application/dns-json`): `--doh-json URL`, repeatable,
    /// or `IPCURL_DNS=doh-json:URL`.
    /// - SeeAlso: ``DoHJSONResolver``.
    public static let dohJSON = ProviderDescriptor(
        kind: .dohJSON,
        flags: [ProviderFlag("--doh-json", .serverURL(plainHTTP: true),
                             "JSON DNS-over-HTTPS endpoint (Google /resolve, Cloudflare dns-json); repeatable", repeatable: true)],
        arguments: .every(["--doh-json"]),
        environment: EnvironmentForm("doh-json", "URL"),
        servers: ProviderServers(.arguments, setting: .dohJSONServer),
        settingFlags: [SettingFlag(.dohJSONServer, "--doh-json")],
        cacheKey: serverListKey,
        makeResolver: { (context) throws(ResolutionError) -> any Resolver in
            DoHJSONResolver(client: try context.client(), families: context.settings.families)
        })
}
