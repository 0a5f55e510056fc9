#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CurlKit
import HTTPDNS
import IPCurlCore

/// Resolver, TLS and timeout options shared by every subcommand; they apply to the HTTPDNS queries too.
struct ResolverOptions: ParsableArguments {
    @Option(name: [.customLong("doh"), .customLong("doh-url")],
            help: ArgumentHelp("DNS-over-HTTPS server (RFC 8484) to resolve with; repeat to race more (hedged).", valueName: "URL"))
    var doh: [String] = []

    @Option(name: .customLong("doh-json"),
            help: ArgumentHelp("JSON DNS-over-HTTPS endpoint (Google /resolve, Cloudflare dns-json); repeatable.",
                               valueName: "URL"))
    var dohJSON: [String] = []

    @Option(name: .customLong("resolver-cmd"),
            help: ArgumentHelp("Run CMD HOST PORT (no shell) and read HOST:PORT:IP[,IP] lines from it.", valueName: "CMD"))
    var resolverCommand: String?

    @OptionGroup var vendor: VendorOptions

    @OptionGroup var policy: PolicyOptions

    @Option(name: .customLong("resolve"),
            help: ArgumentHelp("Use ADDR for HOST:PORT, as in curl; wins over HTTPDNS. Repeatable.",
                               valueName: "HOST:PORT:ADDR[,ADDR]"))
    var resolve: [String] = []

    @Option(name: .customLong("cacert"), help: ArgumentHelp("Verify peers with this CA bundle (PEM).", valueName: "FILE"))
    var cacert: String?

    @Flag(name: [.customShort("k"), .customLong("insecure")],
          help: "Skip certificate verification, for the request and the DoH query. Never implied.")
    var insecure = false

    @Option(name: .customLong("connect-timeout"),
            help: ArgumentHelp("Maximum seconds allowed for each connection.", valueName: "SECONDS"))
    var connectTimeout: Double?

    @Option(name: [.customShort("m"), .customLong("max-time")],
            help: ArgumentHelp("Maximum seconds for the whole operation, resolution included.", valueName: "SECONDS"))
    var maxTime: Double?

    func validate() throws {
        for url in doh {
            guard let parsed = try? CurlURL(url, guessScheme: false), parsed.scheme == "https" else {
                throw ValidationError("--doh \(ResolveEntry.quoted(ServerURL.redacted(url))): not an https:// URL")
            }
        }
        for url in dohJSON {
            guard let parsed = try? CurlURL(url, guessScheme: false), parsed.scheme == "https" || parsed.scheme == "http" else {
                throw ValidationError("--doh-json \(ResolveEntry.quoted(ServerURL.redacted(url))): not an http(s):// URL")
            }
        }
        for (name, value) in [("--connect-timeout", connectTimeout), ("--max-time", maxTime)] {
            if let value, !(value > 0 && value < 86_400 * 365) { throw ValidationError("\(name): expected positive seconds") }
        }
    }

    /// TLS and timeouts; fails with exit 77 when the CA file cannot be read, as curl does.
    func transport() throws(CurlError) -> TransportOptions {
        if let cacert, !LocalFiles.isReadableFile(cacert) {
            throw CurlError.caCertBadFile.with(message: "error setting certificate file: \(cacert)")
        }
        // As in curl, a limit under a millisecond is 0, which means no limit.
        func milliseconds(_ seconds: Double?) -> Int? { seconds.map { Int($0 * 1000) }.flatMap { $0 > 0 ? $0 : nil } }
        return TransportOptions(caFile: cacert, insecure: insecure, connectTimeoutMS: milliseconds(connectTimeout),
                                timeoutMS: milliseconds(maxTime))
    }

    /// The resolver settings these options describe: at most one provider flag, else `IPCURL_DNS`, else DoH.
    func settings() throws(CurlError) -> ResolverSettings {
        var settings = ResolverSettings()
        var chosen: [ProviderChoice] = []
        if !doh.isEmpty { chosen.append(.doh(doh)) }
        if !dohJSON.isEmpty { chosen.append(.dohJSON(dohJSON)) }
        if let account = vendor.aliyun { chosen.append(.aliyun(account: account)) }
        if vendor.wantsDNSPod { chosen.append(.dnspod(id: vendor.dnspodID)) }
        if let resolverCommand { chosen.append(.command(resolverCommand)) }
        if chosen.count > 1 {
            throw CurlError.usage("choose one resolver: \(chosen.map(\.flag).joined(separator: " and ")) were both given")
        }
        if let flag = chosen.first {
            settings.provider = flag
        } else if let environment = getenv("IPCURL_DNS").map({ String(cString: $0) }), !environment.isEmpty {
            settings.provider = try ProviderChoice(environment: environment)
        }
        try vendor.apply(to: &settings)
        policy.apply(to: &settings)
        for text in resolve {
            do { settings.staticEntries.append(try ResolveEntry(parsing: text)) } catch { throw CurlError(error) }
        }
        return settings
    }
}
