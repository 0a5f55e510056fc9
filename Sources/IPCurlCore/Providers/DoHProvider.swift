import HTTPDNS

extension ProviderDescriptor {
    /// RFC 8484 DNS-over-HTTPS: `--doh URL` (or curl's `--doh-url`), repeatable, or `IPCURL_DNS=doh[:URL]`; the
    /// built-in public servers when no URL is given.
    /// - SeeAlso: ``DoHResolver``; curl's `--doh-url`.
    public static let doh = ProviderDescriptor(
        kind: .doh,
        flags: [ProviderFlag("--doh", .serverURL(plainHTTP: false),
                             "DNS-over-HTTPS server (RFC 8484) to resolve with; repeat to race more (hedged)",
                             repeatable: true, important: true),
                ProviderFlag("--doh-url", .serverURL(plainHTTP: false), "Same as --doh (curl's name for it)", repeatable: true)],
        arguments: .every(["--doh", "--doh-url"]),
        environment: EnvironmentForm("doh", "URL", argumentIsOptional: true),
        servers: ProviderServers(.arguments, setting: .dohServer, defaults: DoHResolver.defaultServers),
        settingFlags: [SettingFlag(.dohServer, "--doh")],
        cacheKey: serverListKey,
        makeResolver: { (context) throws(ResolutionError) -> any Resolver in
            try DoHResolver(client: context.client(), families: context.settings.families)
        })
}
