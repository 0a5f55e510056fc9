#if canImport(Glibc)
import Glibc
#endif
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
    /// `--dns-timeout`: milliseconds each lookup may take (every server of it; each host of each hop and each
    /// retry gets its own).
    public var dnsTimeoutMS = 2000
    /// `--dns-stale`: seconds after expiry a cached answer is still served while it is refreshed.
    public var staleSeconds: UInt32 = 0
    /// The answer cache directory; `nil` with `--no-dns-cache` (or when no directory can be named).
    public var cacheDirectory: String?
    /// Why there is no cache directory, when ipcurl could not name one (`HOME` points nowhere); for `-v`.
    public var cacheNote: String?
    /// Whether the system resolver is asked when every HTTPDNS server failed (off with `--no-fallback`).
    public var fallback = true
    /// `-4`/`-6`.
    public var families = AddressFamilies.both

    /// libcurl's connect timeout when none is set (300 s): the bound of a system lookup without `--connect-timeout`.
    static let defaultConnectTimeoutMS = 300_000

    /// Defaults: the embedded DoH servers, no static entries, no cache, system fallback.
    public init() {}

    /// The policy these settings describe. HTTPDNS queries use `transport` for TLS; each lookup gets
    /// ``dnsTimeoutMS``, cut short by the request's `--max-time` (the caller sets ``ResolutionPolicy/deadline``),
    /// and the system fallback is bounded by `--connect-timeout`. The provider is built on first need.
    public func policy(transport: TransportOptions) -> ResolutionPolicy {
        let policy = ResolutionPolicy(staticEntries: staticEntries, providerConfiguration: providerConfiguration(transport)) {
            () throws(ResolutionError) -> any Resolver in try resolver(transport: transport)
        }
        policy.families = families
        policy.cache = cacheDirectory.map(AnswerCache.init(directory:))
        policy.staleSeconds = staleSeconds
        policy.fallback = fallback ? SystemResolver() : nil
        policy.lookupTimeoutMS = dnsTimeoutMS
        policy.fallbackTimeoutMS = transport.connectTimeoutMS ?? Self.defaultConnectTimeoutMS
        return policy
    }

    /// The `-v` lines for HTTPDNS servers named by a host name that no pin covers: libcurl looks those names up
    /// with the system resolver, which is said rather than left unannounced.
    public func serverNameNotes() -> [String] {
        guard let (urls, setting, _) = serverURLs(dnspodDefaults: []) else { return [] }
        let servers = (try? ServerURL.servers(urls, setting: setting)) ?? []
        return servers.filter { server in
            IPAddress(server.host) == nil && !staticEntries.contains {
                HostName.normalized($0.host) == HostName.normalized(server.host) && $0.port == server.port
            }
        }.map { "server \($0.label): its name is looked up by the system resolver (pin it with --resolve)" }
    }

    /// What identifies the provider in cache keys: kind, account, servers, mode, client IP and the TLS trust the
    /// answers were fetched under (`-k`, and the CA file's and CA directory's identity — device, inode, size and modification time,
    /// so a file replaced under the same path is a new key), so an unverified answer never serves a verified run;
    /// never a secret.
    func providerConfiguration(_ transport: TransportOptions) -> String {
        let trust = (transport.insecure ? " insecure" : "") + (transport.caFile.map { " cacert=" + Self.fileIdentity($0) } ?? "")
            + (transport.caPath.map { " capath=" + Self.fileIdentity($0) } ?? "")
        return providerKind + trust
    }

    /// `device:inode:size:mtime` of `path`, or the path itself when it cannot be examined.
    static func fileIdentity(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "unreadable " + path }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    private var providerKind: String {
        let servers = httpdnsServers.joined(separator: " ")
        let ecs = clientIP.map { " ecs \($0)" } ?? ""
        switch provider {
        // Server URLs without user info and query: a token there must not be recoverable from the cache's
        // file names (FNV-1a is no cryptographic hash).
        case .doh(let urls): return "doh " + (urls.isEmpty ? DoHResolver.defaultServers : urls).map(ServerURL.redacted).joined(separator: " ")
        case .dohJSON(let urls): return "doh-json " + urls.map(ServerURL.redacted).joined(separator: " ")
        case .aliyun(let account): return "aliyun \(account) signed=\(aliyunSecret != nil) \(servers)\(ecs)"
        case .dnspod(let id):
            let mode = id.map { "id=\($0) \(dnspodAlgorithm)" } ?? (dnspodToken != nil ? "token" : "plain")
            return "dnspod \(mode) \(servers)\(ecs)"
        case .command(let command): return "command \(command)"
        }
    }

    /// The provider's server URLs (the documented ones when none are given), the setting they belong to and the
    /// vendor's TLS service name; `nil` for a resolver command. DNSPod's defaults depend on its mode.
    private func serverURLs(dnspodDefaults: [String]) -> (urls: [String], setting: ResolutionError.Setting, serviceName: String?)? {
        func or(_ defaults: [String], _ given: [String]) -> [String] { given.isEmpty ? defaults : given }
        switch provider {
        case .doh(let urls): return (or(DoHResolver.defaultServers, urls), .dohServer, nil)
        case .dohJSON(let urls): return (urls, .dohJSONServer, nil)
        case .aliyun: return (or(AliyunResolver.defaultServers, httpdnsServers), .vendorServer, AliyunResolver.serviceName)
        case .dnspod: return (or(dnspodDefaults, httpdnsServers), .vendorServer, nil)
        case .command: return nil
        }
    }

    private func resolver(transport: TransportOptions) throws(ResolutionError) -> any Resolver {
        let network = try CurlTransport(options: transport)
        func client(dnspodDefaults: [String] = []) throws(ResolutionError) -> HTTPDNSClient {
            let (urls, setting, serviceName) = serverURLs(dnspodDefaults: dnspodDefaults) ?? ([], .resolverCommand, nil)
            return HTTPDNSClient(servers: try ServerURL.servers(urls, setting: setting, serviceName: serviceName),
                                 transport: network, pins: staticEntries)
        }
        switch provider {
        case .doh: return try DoHResolver(client: client(), families: families)
        case .dohJSON: return DoHJSONResolver(client: try client(), families: families)
        case .aliyun(let account):
            return try AliyunResolver(account: account, secret: aliyunSecret?.value, clientIP: clientIP, client: client())
        case .dnspod(let id):
            let mode = try dnspodMode(id: id)
            return try DNSPodResolver(mode: mode, clientIP: clientIP, client: client(dnspodDefaults: mode.defaultServers))
        case .command(let command):
            return try CommandResolver(command: command, hiddenVariablePrefixes: ["IPCURL_"])  // ipcurl's secrets
        }
    }

    private func dnspodMode(id: String?) throws(ResolutionError) -> DNSPodResolver.Mode {
        switch (id, dnspodKey, dnspodToken) {
        case (nil, nil, nil): return .plain
        case (nil, nil, let token?):
            guard token.isURLSafe else { throw .configuration(.dnspodToken, "\(token.origin): the DNSPod token has characters a URL cannot carry") }
            return .token(token.value)
        case (let id?, let key?, nil):
            guard (1...32).contains(id.utf8.count), id.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                throw .configuration(.dnspodID, value: String(id.prefix(40)), "expected the numeric authorization ID")
            }
            do { return .encrypted(id: id, cipher: try SymmetricCipher(dnspodAlgorithm, key: Array(key.value.utf8))) } catch {
                throw .configuration(.dnspodKey, "\(key.origin): \(error.message)",
                                     underlying: error.unavailable ? CurlError.notBuiltIn.with(message: error.message) : nil)
            }
        case (_?, nil, _): throw .configuration(.dnspodID, "needs --dnspod-key-file or IPCURL_DNSPOD_KEY")
        case (nil, _?, _): throw .configuration(.dnspodKey, "needs --dnspod-id")
        case (_?, _?, _?): throw .configuration(.dnspodToken, "cannot be combined with --dnspod-id (a different mode)")
        }
    }
}
