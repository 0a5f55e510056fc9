import HTTPDNS

/// One HTTPDNS provider as ipcurl offers it, in one value: its kind, the flags that choose it and their option rows,
/// its `IPCURL_DNS` form, its servers, the text that identifies its configuration in cache keys and how its resolver
/// is built.
///
/// ``all`` is the registry: option parsing and the option rows of the choosing flags, `IPCURL_DNS`, usage errors,
/// cache keys and resolver construction read it instead of naming providers, so adding a provider is two files (its
/// resolver in HTTPDNS, which declares its ``ProviderKind``, and its descriptor here) and the descriptor's line in
/// ``all``.
/// - SeeAlso: `CURLOPT_RESOLVE` (what every provider's answers become).
public struct ProviderDescriptor: Sendable, Equatable {
    /// `%{dns_source}`'s and the cache files' name for the provider.
    public let kind: ProviderKind
    /// The flags that choose the provider: those of ``flagRows``, then those of the provider's settings that imply
    /// it (`--dnspod-key-file`). The first names it in messages (`--dnspod`). A boolean one chooses it while on:
    /// `--no-dnspod` takes `--dnspod` back.
    public let flags: [String]
    /// The flags that only choose the provider (`--dnspod`, `--dnspod-id`), from which the CLI makes their option
    /// rows: in the resolver category, or the vendor category for a provider whose servers are `--httpdns-server`'s.
    public let flagRows: [ProviderFlag]
    /// Which given flags' values are the choice's arguments.
    public let arguments: ArgumentFlags
    /// Options that apply to this provider besides its own flags (`--httpdns-server`); refused without one that
    /// accepts them.
    public let options: [String]
    /// How `IPCURL_DNS` names the provider.
    public let environment: EnvironmentForm
    /// Where its servers come from; `nil` for a provider without servers (a resolver command).
    public let servers: ProviderServers?
    /// The flag behind each of the provider's own ``ResolutionError/Setting`` values, for usage errors.
    public let settingFlags: [SettingFlag]
    /// What identifies the provider's configuration in cache keys (``ResolverSettings/providerConfiguration(_:)``
    /// adds the TLS trust). Its digest names users' cache files: a changed text orphans their entries. Never a
    /// secret, and server URLs only without user info and query.
    let cacheKey: @Sendable (ProviderChoice, ResolverSettings) -> String
    /// Builds the resolver; a configuration error names the setting at fault.
    let makeResolver: @Sendable (ProviderContext) throws(ResolutionError) -> any Resolver

    /// A descriptor chosen by the flags of `flags` and by `impliedBy` (the flags of its settings that imply it, whose
    /// rows set those settings); see the properties for what each part means.
    init(kind: ProviderKind, flags: [ProviderFlag], impliedBy: [String] = [], arguments: ArgumentFlags,
         options: [String] = [], environment: EnvironmentForm, servers: ProviderServers?, settingFlags: [SettingFlag],
         cacheKey: @escaping @Sendable (ProviderChoice, ResolverSettings) -> String,
         makeResolver: @escaping @Sendable (ProviderContext) throws(ResolutionError) -> any Resolver) {
        self.kind = kind
        self.flags = flags.map(\.flag) + impliedBy
        flagRows = flags
        self.arguments = arguments
        self.options = options
        self.environment = environment
        self.servers = servers
        self.settingFlags = settingFlags
        self.cacheKey = cacheKey
        self.makeResolver = makeResolver
    }

    /// The flag that names the provider in messages (`choose one resolver: --doh and --aliyun ...`).
    public var flag: String { flags[0] }

    /// Whether `option` applies when this provider is chosen: one of its flags or ``options``.
    public func accepts(_ option: String) -> Bool { flags.contains(option) || options.contains(option) }

    public static func == (lhs: ProviderDescriptor, rhs: ProviderDescriptor) -> Bool { lhs.kind == rhs.kind }
}

/// Which flags' values a choice takes as its arguments.
/// - SeeAlso: curl's `tool_getparam.c` (a repeated option adds to a list or replaces the earlier value).
public enum ArgumentFlags: Sendable {
    /// Every value of these flags, in command-line order (`--doh URL`, repeatable).
    case every([String])
    /// The last value of this flag (`--aliyun ACCOUNT`); none when it was not given (`--dnspod` without an ID).
    case last(String)

    /// The arguments `given` holds for these flags.
    func values(in given: [GivenFlag]) -> [String] {
        switch self {
        case .every(let flags): given.filter { flags.contains($0.flag) }.map(\.value)
        case .last(let flag): given.last { $0.flag == flag }.map { [$0.value] } ?? []
        }
    }
}

/// A provider setting and the flag that sets it: `--dnspod-id` for ``ResolutionError/Setting/dnspodID``.
/// - SeeAlso: ``ResolverFlag`` (the settings providers share).
public struct SettingFlag: Sendable {
    /// The library's setting.
    public let setting: ResolutionError.Setting
    /// ipcurl's flag for it.
    public let flag: String

    /// `setting` is set by `flag`.
    public init(_ setting: ResolutionError.Setting, _ flag: String) {
        self.setting = setting
        self.flag = flag
    }
}
