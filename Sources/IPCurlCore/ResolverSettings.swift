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

    /// Defaults: the embedded DoH servers and no static entries.
    public init() {}

    /// The policy these settings describe; HTTPDNS queries use `transport` for TLS and timeouts.
    public func policy(transport: TransportOptions) throws(CurlError) -> ResolutionPolicy {
        ResolutionPolicy(staticEntries: staticEntries, resolver: try resolver(transport: transport))
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
            return try CommandResolver(command: command, timeoutMS: transport.timeoutMS ?? Self.commandTimeoutMS)
        }
    }

    /// How long a `--resolver-cmd` program may run when `--max-time` sets no smaller limit.
    static let commandTimeoutMS = 10_000

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
