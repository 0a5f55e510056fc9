import HTTPDNS

/// Where a provider's server URLs come from and which vendor facts check them.
/// - SeeAlso: ``HTTPDNSServer`` (a vendor's TLS service name), `CURLOPT_RESOLVE`.
public struct ProviderServers: Sendable {
    /// Where the URLs are given.
    public enum Source: Sendable {
        /// The choice's own arguments (`--doh URL`, `doh:URL`).
        case arguments
        /// `--httpdns-server URL`.
        case vendorServerFlag
    }

    /// Where the URLs are given.
    public let source: Source
    /// The setting a bad URL is blamed on.
    public let setting: ResolutionError.Setting
    /// The documented servers, asked when none are given; a provider whose defaults depend on its mode
    /// (DNSPod) has none here and passes its own to ``ProviderContext/client(defaults:)``.
    public let defaults: [String]
    /// The vendor's TLS service name, checked when a server is given by IP over https.
    public let serviceName: String?
    /// The servers first asked when none are given, when the settings choose them (Alibaba's v2 API asks its boot
    /// servers, which name the service addresses); `nil` from it means ``defaults``.
    let settingsDefaults: (@Sendable (ResolverSettings) -> [String]?)?

    /// Servers from `source`, blamed on `setting`, with `defaults` (or those `settingsDefaults` picks) and the
    /// vendor's `serviceName`.
    init(_ source: Source, setting: ResolutionError.Setting, defaults: [String] = [], serviceName: String? = nil,
         settingsDefaults: (@Sendable (ResolverSettings) -> [String]?)? = nil) {
        self.source = source
        self.setting = setting
        self.defaults = defaults
        self.serviceName = serviceName
        self.settingsDefaults = settingsDefaults
    }

    /// The URLs to ask for `choice` under `settings`: the given ones, else `defaults` (when `nil`, those the
    /// settings pick, else ``defaults``).
    func urls(_ choice: ProviderChoice, _ settings: ResolverSettings, defaults: [String]? = nil) -> [String] {
        let given = source == .arguments ? choice.arguments : settings.httpdnsServers
        return given.isEmpty ? defaults ?? settingsDefaults?(settings) ?? self.defaults : given
    }
}

/// What a provider's factory builds its resolver from: the choice, the settings, and HTTPDNS clients over the
/// chosen servers on ipcurl's libcurl transport.
/// - SeeAlso: ``HTTPDNSClient``; `CURLOPT_RESOLVE` (the `--resolve` entries pin server names too).
public struct ProviderContext {
    /// The provider and its arguments.
    public let choice: ProviderChoice
    /// Every resolver setting (credentials, client IP, families, `--resolve` entries).
    public let settings: ResolverSettings
    /// The TLS trust HTTPDNS queries run under, as cache keys spell it (`-k`, the CA file's identity): what a provider
    /// keeps between runs is keyed with it.
    public let trust: String
    let transport: any HTTPDNSTransport

    /// A client over the provider's servers: the given ones, else `defaults` (the descriptor's when `nil`); a URL
    /// libcurl refuses is a configuration error of the provider's server setting. A server given by IP over https
    /// is verified as `serviceName` (the descriptor's when `nil`); a bad URL is blamed on `setting` (the
    /// descriptor's when `nil`).
    public func client(defaults: [String]? = nil, serviceName: String? = nil,
                       setting: ResolutionError.Setting? = nil) throws(ResolutionError) -> HTTPDNSClient {
        let servers = choice.descriptor.servers
        let urls = servers?.urls(choice, settings, defaults: defaults) ?? []
        return HTTPDNSClient(servers: try ServerURL.servers(urls, setting: setting ?? servers?.setting ?? .vendorServer,
                                                            serviceName: serviceName ?? servers?.serviceName),
                             transport: transport, pins: settings.staticEntries)
    }
}
