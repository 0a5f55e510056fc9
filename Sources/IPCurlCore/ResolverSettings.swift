import CurlKit
import HTTPDNS

/// The resolver choice shared by every subcommand: the provider, its servers and credentials, and the
/// `--resolve` entries that win over it.
public struct ResolverSettings: Sendable {
    /// The provider; the built-in DoH servers unless a flag or `IPCURL_DNS` says otherwise.
    public var provider = ProviderChoice.doh([])
    /// `--httpdns-server URL`: vendor servers to ask instead of the documented public ones.
    public var httpdnsServers: [String] = []
    /// `--httpdns-client-ip IP`: the client subnet (ECS) vendor APIs should answer for.
    public var clientIP: IPAddress?
    /// Alibaba's signing secret (`--httpdns-secret-file` or `$IPCURL_HTTPDNS_SECRET`): requests use `sign_d`.
    public var aliyunSecret: Secret?
    /// DNSPod's encryption key (`--dnspod-key-file` or `$IPCURL_DNSPOD_KEY`) for the encrypted mode.
    public var dnspodKey: Secret?
    /// `--dnspod-alg`: the cipher of the encrypted mode.
    public var dnspodAlgorithm = SymmetricCipher.Algorithm.aes
    /// DNSPod's HTTPS token (`--dnspod-token-file` or `$IPCURL_DNSPOD_TOKEN`) for the token mode.
    public var dnspodToken: Secret?
    /// `--resolve HOST:PORT:ADDR[,ADDR]` entries; they win over HTTPDNS.
    public var staticEntries: [ResolveEntry] = []
    /// `--dns-timeout`: milliseconds the whole HTTPDNS step may take (every server, every retry).
    public var dnsTimeoutMS = 2000
    /// `--dns-stale`: seconds after expiry a cached answer is still served while it is refreshed.
    public var staleSeconds: UInt32 = 0
    /// The answer cache directory; `nil` with `--no-dns-cache` (or when no directory can be named).
    public var cacheDirectory: String?
    /// Whether the system resolver is asked when every HTTPDNS server failed (off with `--no-fallback`).
    public var fallback = true
    /// `-4`/`-6`.
    public var families = AddressFamilies.both

    /// Defaults: the embedded DoH servers, no static entries, no cache, system fallback.
    public init() {}

    /// The policy these settings describe. HTTPDNS queries use `transport` for TLS, with its `--max-time`
    /// capped by ``dnsTimeoutMS`` as the budget of the whole step. The provider is built on first need.
    public func policy(transport: TransportOptions) -> ResolutionPolicy {
        var budgeted = transport
        budgeted.timeoutMS = min(transport.timeoutMS ?? dnsTimeoutMS, dnsTimeoutMS)
        let policy = ResolutionPolicy(staticEntries: staticEntries, providerConfiguration: providerConfiguration(transport)) {
            [budgeted] () throws(CurlError) -> any Resolver in try resolver(transport: budgeted)
        }
        policy.families = families
        policy.cache = cacheDirectory.map(AnswerCache.init(directory:))
        policy.staleSeconds = staleSeconds
        policy.fallback = fallback ? SystemResolver() : nil
        return policy
    }

    /// What identifies the provider in cache keys: kind, account, servers, mode, client IP and the TLS trust the
    /// answers were fetched under (`-k`, `--cacert`), so an unverified answer never serves a verified run; never
    /// a secret.
    func providerConfiguration(_ transport: TransportOptions) -> String {
        let trust = (transport.insecure ? " insecure" : "") + (transport.caFile.map { " cacert=\($0)" } ?? "")
        return providerKind + trust
    }

    private var providerKind: String {
        let servers = httpdnsServers.joined(separator: " ")
        let ecs = clientIP.map { " ecs \($0)" } ?? ""
        switch provider {
        case .doh(let urls): return "doh " + (urls.isEmpty ? DoHResolver.defaultServers : urls).joined(separator: " ")
        case .dohJSON(let urls): return "doh-json " + urls.joined(separator: " ")
        case .aliyun(let account): return "aliyun \(account) signed=\(aliyunSecret != nil) \(servers)\(ecs)"
        case .dnspod(let id):
            let mode = id.map { "id=\($0) \(dnspodAlgorithm)" } ?? (dnspodToken != nil ? "token" : "plain")
            return "dnspod \(mode) \(servers)\(ecs)"
        case .command(let command): return "command \(command)"
        }
    }

    private func resolver(transport: TransportOptions) throws(CurlError) -> any Resolver {
        switch provider {
        case .doh(let servers):
            return try DoHResolver(servers: servers.isEmpty ? DoHResolver.defaultServers : servers, transport: transport)
        case .dohJSON(let servers):
            return DoHJSONResolver(client: try HTTPDNSClient(servers: try HTTPDNSServer.list(servers), transport: transport))
        case .aliyun(let account):
            let servers = try HTTPDNSServer.list(httpdnsServers.isEmpty ? AliyunResolver.defaultServers : httpdnsServers,
                                                 serviceName: AliyunResolver.serviceName)
            return try AliyunResolver(account: account, secret: aliyunSecret?.value, clientIP: clientIP,
                                      client: try HTTPDNSClient(servers: servers, transport: transport))
        case .dnspod(let id):
            let mode = try dnspodMode(id: id)
            let servers = try HTTPDNSServer.list(httpdnsServers.isEmpty ? mode.defaultServers : httpdnsServers)
            return DNSPodResolver(mode: mode, clientIP: clientIP, client: try HTTPDNSClient(servers: servers, transport: transport))
        case .command(let command):
            return try CommandResolver(command: command, timeoutMS: transport.timeoutMS ?? dnsTimeoutMS)
        }
    }

    private func dnspodMode(id: String?) throws(CurlError) -> DNSPodResolver.Mode {
        switch (id, dnspodKey, dnspodToken) {
        case (nil, nil, nil): return .plain
        case (nil, nil, let token?):
            guard token.isURLSafe else { throw CurlError.usage("\(token.origin): the DNSPod token has characters a URL cannot carry") }
            return .token(token.value)
        case (let id?, let key?, nil):
            guard (1...32).contains(id.utf8.count), id.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                throw CurlError.usage("--dnspod-id \(id.prefix(40)): expected the numeric authorization ID")
            }
            do { return .encrypted(id: id, cipher: try SymmetricCipher(dnspodAlgorithm, key: Array(key.value.utf8))) } catch {
                throw error == .usage("") ? error.with(message: "\(key.origin): \(error.message)") : error
            }
        case (_?, nil, _): throw CurlError.usage("--dnspod-id needs --dnspod-key-file or IPCURL_DNSPOD_KEY")
        case (nil, _?, _): throw CurlError.usage("--dnspod-key-file needs --dnspod-id")
        case (_?, _?, _?): throw CurlError.usage("--dnspod-token-file and --dnspod-id are different modes; choose one")
        }
    }
}
