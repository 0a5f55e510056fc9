import CurlKit
import HTTPDNS

/// Which HTTPDNS provider resolves host names: chosen by one command-line flag, else by `IPCURL_DNS`,
/// else the built-in DoH servers.
public enum ProviderChoice: Sendable, Equatable {
    /// `--doh URL` (RFC 8484 wire format); the built-in public servers when empty.
    case doh([String])
    /// `--doh-json URL`: JSON DoH (Google `/resolve`, Cloudflare `application/dns-json`).
    case dohJSON([String])
    /// `--aliyun ACCOUNT`: Alibaba Cloud HTTPDNS.
    case aliyun(account: String)
    /// `--dnspod`: Tencent DNSPod HTTPDNS; `id` selects the encrypted mode.
    case dnspod(id: String?)
    /// `--resolver-cmd CMD`: a program that prints `HOST:PORT:IP[,IP...]` lines.
    case command(String)

    /// The flag that selects this provider, for messages.
    public var flag: String {
        switch self {
        case .doh: "--doh"
        case .dohJSON: "--doh-json"
        case .aliyun: "--aliyun"
        case .dnspod: "--dnspod"
        case .command: "--resolver-cmd"
        }
    }

    /// Parses `IPCURL_DNS`: `doh[:URL]`, `doh-json:URL`, `aliyun:ACCOUNT`, `dnspod[:ID]` or `command:CMD`.
    /// Throws a usage error (exit 2) for anything else.
    public init(environment value: String) throws(CurlError) {
        let parts = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let kind = String(parts[0])
        let argument = parts.count == 2 ? String(parts[1]) : nil
        switch (kind, argument) {
        case ("doh", nil): self = .doh([])
        case ("doh", let url?) where !url.isEmpty: self = .doh([url])
        case ("doh-json", let url?) where !url.isEmpty: self = .dohJSON([url])
        case ("aliyun", let account?) where !account.isEmpty: self = .aliyun(account: account)
        case ("dnspod", nil): self = .dnspod(id: nil)
        case ("dnspod", let id?) where !id.isEmpty: self = .dnspod(id: id)
        case ("command", let command?) where !command.isEmpty: self = .command(command)
        default:
            throw CurlError.usage("IPCURL_DNS=\(ResolveEntry.quoted(String(ServerURL.redacted(value).prefix(80)))): expected doh[:URL], doh-json:URL, aliyun:ACCOUNT, "
                                  + "dnspod[:ID] or command:CMD")
        }
    }

}
