#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS

/// The resolver choice shared by every subcommand: the provider, its servers and credentials, and the
/// `--resolve` entries that win over it.
public struct ResolverSettings: Sendable {
    /// The provider; the built-in DoH servers unless a flag or `IPCURL_DNS` says otherwise.
    public var provider = ProviderChoice(.doh)
    /// `--httpdns-server URL`: vendor servers to ask instead of the documented public ones.
    public var httpdnsServers: [String] = []
    /// `--aliyun-boot-server URL`: the servers Alibaba's v2 API asks for an account's service addresses instead
    /// of the built-in boot addresses (``HTTPDNS/AliyunV2/bootServerURLs``).
    public var aliyunBootServers: [String] = []
    /// `--httpdns-client-ip IP`: the client subnet (ECS) vendor APIs should answer for.
    public var clientIP: IPAddress?
    /// Alibaba's signing secret (`--httpdns-secret-file` or `$IPCURL_HTTPDNS_SECRET`): requests use `sign_d`.
    public var aliyunSecret: Secret?
    /// Alibaba's v2 API (`--aliyun-api v2`): the account, the signing key (the secret, hex-decoded) and the
    /// encryption of its queries; `nil` for v1.
    public var aliyunV2: AliyunV2?
    /// DNSPod's encryption key (`--dnspod-key-file` or `$IPCURL_DNSPOD_KEY`) for the encrypted mode.
    public var dnspodKey: Secret?
    /// `--dnspod-alg`: the cipher of the encrypted mode.
    public var dnspodAlgorithm = SymmetricCipher.Algorithm.aes
    /// DNSPod's HTTPS token (`--dnspod-token-file` or `$IPCURL_DNSPOD_TOKEN`) for the token mode.
    public var dnspodToken: Secret?
    /// `--resolve HOST:PORT:ADDR[,ADDR]` and `*:PORT:ADDR` entries (after the `-HOST:PORT` removals); they win
    /// over HTTPDNS.
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
    /// The run connects to none of the addresses it resolves (`ipcurl resolve`): its answers are cached as
    /// unverified (``HTTPDNS/CacheRecord/unverified``).
    public var connectsNowhere = false

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
        policy.insecure = transport.queriesSkipVerification
        policy.connectsNowhere = connectsNowhere
        policy.fallback = fallback ? SystemResolver() : nil
        policy.lookupTimeoutMS = dnsTimeoutMS
        policy.fallbackTimeoutMS = transport.connectTimeoutMS ?? Self.defaultConnectTimeoutMS
        return policy
    }

    /// The `-v` lines for HTTPDNS servers named by a host name that no pin covers: libcurl looks those names up
    /// with the system resolver, which is said rather than left unannounced.
    public func serverNameNotes() -> [String] {
        unpinnedServers().map { "server \($0.label): its name is looked up by the system resolver (pin it with --resolve)" }
    }

    /// Under `--no-fallback`, the warnings for the names libcurl still asks the system resolver about, one line
    /// each: HTTPDNS servers named by a host name that no `--resolve` entry pins, and the environment's proxies
    /// for the HTTPDNS queries named by one (their queries take no pin but the server's).
    func systemLookupWarnings() -> [String] {
        guard !fallback, let given = provider.descriptor.servers else { return [] }
        let servers = unpinnedServers().map { server in
            "HTTPDNS server \(server.label): \(Self.lookedUp); pin it with --resolve \(server.host):\(server.port):ADDRESS "
                + "or give the server by IP address"
        }
        let all = (try? ServerURL.servers(given.urls(provider, self), setting: given.setting)) ?? []
        let proxies = all.compactMap { ProxyEnvironment.route(forQueryTo: $0) }.flatMap(\.locallyResolved).compactMap { hop in
            proxyWarning(hop, for: "HTTPDNS queries", pinnable: false)
        }
        return servers + proxies
    }

    /// Under `--no-fallback`, the warning for a proxy named by a host name (`hop`, used for `traffic`), or `nil`:
    /// libcurl asks the system resolver for its name unless it is an address, or (`pinnable`: the request's own
    /// handle, which carries every `--resolve` entry) a `--resolve` entry pins it.
    func proxyWarning(_ hop: ProxyEnvironment.Hop, for traffic: String, pinnable: Bool) -> String? {
        guard !fallback, let url = try? CurlURL(hop.proxy), IPAddress(url.host) == nil else { return nil }
        // libcurl's proxy port when none is given: 443 for an https:// proxy, else 1080 (not the scheme's own).
        let given = hop.proxy.lowercased().contains("\(url.host.lowercased()):\(url.port)")
        let port = given ? url.port : hop.type == .https ? 443 : 1080
        let name = HostName.normalized(url.host)
        if pinnable, let name, StaticResolver.first(pinning: name, port: port, in: staticEntries) != nil { return nil }
        return "proxy \(url.host) \(hop.givenPhrase), for the \(traffic): \(Self.lookedUp); "
            + (pinnable ? "pin it with --resolve \(url.host):\(port):ADDRESS or give the proxy by IP address" : "give the proxy by IP address")
    }

    private static let lookedUp = "its name is looked up by the system resolver despite --no-fallback"

    /// The provider's servers named by a host name that no `--resolve` entry pins.
    private func unpinnedServers() -> [HTTPDNSServer] {
        guard let given = provider.descriptor.servers else { return [] }
        let servers = (try? ServerURL.servers(given.urls(provider, self), setting: given.setting)) ?? []
        return servers.filter { server in
            IPAddress(server.host) == nil && HostName.normalized(server.host).flatMap {
                StaticResolver.first(pinning: $0, port: server.port, in: staticEntries)
            } == nil
        }
    }

    /// What identifies the provider in cache keys: kind, account, servers, mode, client IP and the TLS trust the
    /// answers were fetched under (`-k`, `--doh-cert-status`, and the CA file's and CA directory's identity —
    /// device, inode, size and modification time, so a file replaced under the same path is a new key), so an
    /// answer fetched with less verification never serves a run that asks for more; never a secret.
    func providerConfiguration(_ transport: TransportOptions) -> String {
        provider.descriptor.cacheKey(provider, self) + Self.trustKey(transport)
    }

    /// The TLS trust of HTTPDNS queries as cache keys spell it: ` insecure` for `-k`, ` cert-status` for
    /// `--doh-cert-status`, ` cacert=IDENTITY`, ` capath=IDENTITY`.
    static func trustKey(_ transport: TransportOptions) -> String {
        (transport.queriesSkipVerification ? " insecure" : "") + (transport.queriesVerifyStatus ? " cert-status" : "")
            + (transport.caFile.map { " cacert=" + Self.fileIdentity($0) } ?? "")
            + (transport.caPath.map { " capath=" + Self.fileIdentity($0) } ?? "")
    }

    /// `device:inode:size:mtime` of `path`, or the path itself when it cannot be examined.
    static func fileIdentity(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "unreadable " + path }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    /// Makes the provider once without asking it anything, so a setting it refuses (a server URL libcurl rejects,
    /// port 0, credentials over http) is a usage error before any work, as a fetch's first lookup makes it one;
    /// any other failure is left to the lookups, which report it.
    public func checkProvider(transport: TransportOptions) throws(CurlError) {
        do throws(ResolutionError) { _ = try resolver(transport: transport) } catch {
            if error.kind == .configuration { throw CurlError(error) }
        }
    }

    private func resolver(transport: TransportOptions) throws(ResolutionError) -> any Resolver {
        let network = try CurlTransport(options: transport)
        return try provider.descriptor.makeResolver(ProviderContext(choice: provider, settings: self, trust: Self.trustKey(transport), transport: network))
    }
}
