import CurlKit
import HTTPDNS

extension ProviderDescriptor {
    /// Every provider, in the order messages list them (`choose one resolver: --doh and --aliyun ...`, the
    /// `IPCURL_DNS` forms). A new provider is a resolver in HTTPDNS, a descriptor and its line here.
    public static let all: [ProviderDescriptor] = [.doh, .dohJSON, .aliyun, .dnspod, .command]

    /// Whether `flag` chooses a provider (`--doh-url`, `--dnspod-id`).
    public static func chooses(_ flag: String) -> Bool { choosingFlags.contains(flag) }

    /// Every flag that chooses a provider, gathered once: option tables ask for each of their rows at start-up.
    private static let choosingFlags: [String] = all.flatMap(\.flags)

    /// `--aliyun or --dnspod`: the flags of the providers `option` applies to, for `OPTION needs ...`.
    public static func flags(accepting option: String) -> String {
        alternatives(all.filter { $0.options.contains(option) }.map(\.flag))
    }

    /// The flag that sets `setting`, when a provider owns it (``settingFlags``).
    static func flag(for setting: ResolutionError.Setting) -> String? {
        for descriptor in all {
            if let owned = descriptor.settingFlags.first(where: { $0.setting == setting }) { return owned.flag }
        }
        return nil
    }

    /// `a`, `a or b`, `a, b or c`.
    static func alternatives(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
    }

    /// The cache-key text of a provider whose servers are its arguments: `KIND URL...`, each URL without user info
    /// and query (a token there must not be recoverable from the cache's file names: FNV-1a is no cryptographic
    /// hash); the defaults when none was given.
    static func serverListKey(_ choice: ProviderChoice, _ settings: ResolverSettings) -> String {
        // A loop, not joined(separator:), the stdlib's unspecialized generic (ResolveEntry says why).
        var key = choice.descriptor.kind.rawValue + " "
        let urls = choice.descriptor.servers?.urls(choice, settings) ?? []
        for index in urls.indices { key += (index == 0 ? "" : " ") + CurlURL.redacted(text: urls[index]) }
        return key
    }

    /// The end of a vendor's cache-key text: the `--httpdns-server` URLs as given (which carry no user info or
    /// query) and ` ecs IP` for `--httpdns-client-ip`.
    static func vendorKeySuffix(_ settings: ResolverSettings) -> String {
        settings.httpdnsServers.joined(separator: " ") + (settings.clientIP.map { " ecs \($0)" } ?? "")
    }
}
