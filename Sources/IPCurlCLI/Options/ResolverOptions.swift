#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// Resolver, TLS and timeout options shared by every subcommand; they apply to the HTTPDNS queries too.
struct ResolverOptions: Sendable {
    /// Every use of a flag that chooses a provider, in order (``ProviderDescriptor/flags``); ``settings()`` asks
    /// the registry which provider they chose and with which arguments.
    var providerFlags: [GivenFlag] = []
    var vendor = VendorOptions()
    var policy = PolicyOptions()
    var resolve: [String] = []
    var cacert: String?
    var capath: String?
    var insecure = false
    /// `--doh-insecure`, `--doh-cert-status`: the HTTPDNS queries' own verification.
    var queriesInsecure = false, queriesVerifyStatus = false
    var connectTimeout: Double?
    var maxTime: Double?

    static let resolverCategory = OptionCategory("dns", "How names are resolved: HTTPDNS, DoH, cache, fallback")
    static let tlsCategory = OptionCategory("tls", "TLS trust and verification")
    static let connectionCategory = OptionCategory("connection", "Connections and time limits")

    /// The resolver, trust and time-limit rows every subcommand has. The rows of the flags that only choose a
    /// provider are made from the registry (``providerRows``); a row whose flag chooses a provider only checks its
    /// value: ``recordingProviderFlag(_:)`` records the flag.
    static let rows: [OptionRow<ResolverOptions>] = (providerRows + PolicyOptions.rows.map { $0.lifted({ try $1(&$0.policy) }) } + [
        OptionRow("resolve", nil, .string, "[+]host:port:addr[,addr]", resolverCategory,
                  "Use ADDR for HOST:PORT (* for every host on PORT), as in curl; wins over HTTPDNS; -HOST:PORT removes "
                  + "an earlier entry", repeatable: true) { $0.resolve.append($1.text) },
        OptionRow("cacert", nil, .file, "file", tlsCategory, "Verify peers with this CA bundle (PEM)",
                  power: .changesTrust) { $0.cacert = $1.text },
        OptionRow("capath", nil, .file, "dir", tlsCategory,
                  "Verify peers with the hashed CA certificates in DIR too (openssl rehash)", power: .changesTrust) {
            $0.capath = $1.text
        },
        OptionRow("insecure", "k", .boolean, "", tlsCategory,
                  "Skip certificate verification, for the request and the DoH query; never implied",
                  important: true, power: .skipsVerification) { $0.insecure = $1.isOn },
        OptionRow("doh-insecure", nil, .boolean, "", tlsCategory,
                  "Skip certificate verification for the HTTPDNS and DoH queries only (every provider's); never implied",
                  power: .skipsVerification) { $0.queriesInsecure = $1.isOn },
        OptionRow("doh-cert-status", nil, .boolean, "", tlsCategory,
                  "Require a good stapled OCSP response from the HTTPDNS and DoH servers (every provider's)") {
            $0.queriesVerifyStatus = $1.isOn
        },
        OptionRow("connect-timeout", nil, .seconds, "seconds", connectionCategory,
                  "Maximum seconds allowed for each connection (0: no limit)") { $0.connectTimeout = try $1.seconds() },
        OptionRow("max-time", "m", .seconds, "seconds", connectionCategory,
                  "Maximum seconds for the whole operation, resolution included (0: no limit)",
                  important: true) { $0.maxTime = try $1.seconds() },
    ]).map(recordingProviderFlag)

    /// The providers' rows and the vendor options: first the rows of the flags of the providers that take their
    /// servers as arguments or have none (``ProviderDescriptor/flagRows``), in registry order; then, in the vendor
    /// category, each vendor's (a provider whose servers are `--httpdns-server`'s) followed by the vendor options
    /// only it accepts, and last the vendor options several accept.
    private static var providerRows: [OptionRow<ResolverOptions>] {
        let vendorOptions: [OptionRow<ResolverOptions>] = VendorOptions.rows.map { $0.lifted({ try $1(&$0.vendor) }) }
        // Made at every start: plain loops over indices, no set, key path or descriptor copy.
        let descriptors = ProviderDescriptor.all
        var owner = [Int](repeating: -1, count: vendorOptions.count)  // the one provider accepting it, else -1
        for option in vendorOptions.indices {
            let spelling = vendorOptions[option].spelling
            let accepting = descriptors.indices.filter { descriptors[$0].accepts(spelling) }
            if accepting.count == 1 { owner[option] = accepting[0] }
        }
        var rows: [OptionRow<ResolverOptions>] = []
        for index in descriptors.indices where descriptors[index].servers?.source != .vendorServerFlag {
            for flag in descriptors[index].flagRows { rows.append(row(flag, resolverCategory)) }
        }
        for index in descriptors.indices where descriptors[index].servers?.source == .vendorServerFlag {
            for flag in descriptors[index].flagRows { rows.append(row(flag, VendorOptions.category)) }
            for option in vendorOptions.indices where owner[option] == index { rows.append(vendorOptions[option]) }
        }
        for option in vendorOptions.indices where owner[option] == -1
            || descriptors[owner[option]].servers?.source != .vendorServerFlag {
            rows.append(vendorOptions[option])
        }
        return rows
    }

    /// The option row of a flag that only chooses a provider: it checks the value, and ``recordingProviderFlag(_:)``
    /// records the flag.
    private static func row(_ flag: ProviderFlag, _ category: OptionCategory) -> OptionRow<ResolverOptions> {
        let long = String(flag.flag.dropFirst(2))
        switch flag.value {
        case .boolean:
            return OptionRow(long, nil, .boolean, "", category, flag.help, repeatable: flag.repeatable,
                             important: flag.important) { _, _ in }
        case .text(let placeholder):
            return OptionRow(long, nil, .string, placeholder, category, flag.help, repeatable: flag.repeatable,
                             important: flag.important) { _, _ in }
        case .serverURL(let plainHTTP):
            return OptionRow(long, nil, .string, "url", category, flag.help, repeatable: flag.repeatable,
                             important: flag.important, secret: SecretArguments.url) { _, argument in
                try checkServerURL(argument, schemes: plainHTTP ? ["https", "http"] : ["https"],
                                   named: plainHTTP ? "http(s)://" : "https://")
            }
        case .program:
            return OptionRow(long, nil, .string, "cmd", category, flag.help, repeatable: flag.repeatable,
                             important: flag.important, power: .runsProgram) { _, _ in }
        }
    }

    /// `row`, or, when its flag chooses a provider, `row` recording each use in ``providerFlags``.
    private static func recordingProviderFlag(_ row: OptionRow<ResolverOptions>) -> OptionRow<ResolverOptions> {
        let flag = row.spelling
        guard ProviderDescriptor.chooses(flag) else { return row }
        return row.lifted({ options, apply in try apply(&options) }, after: { options, argument in
            options.providerFlags.append(GivenFlag(flag, value: argument.text, isOn: argument.isOn))
        })
    }

    /// Refuses a server URL libcurl cannot parse or whose scheme is not one of `schemes`, which the message calls
    /// `name` (`not an https:// URL`).
    private static func checkServerURL(_ argument: OptionArgument, schemes: [String], named name: String) throws {
        guard let parsed = try? CurlURL(argument.text, guessScheme: false), schemes.contains(parsed.scheme) else {
            throw argument.problem("\(Printable.quoted(CurlURL.redacted(text: argument.text))): not an \(name) URL")
        }
    }

    /// TLS trust and timeouts, with curl's CA environment variables when no `--cacert`, `--capath` or `-k` was
    /// given; fails with exit 77 when the CA file (given or from the environment) cannot be read, as curl does.
    func transport() throws(CurlError) -> TransportOptions {
        // As in curl, a limit under a millisecond is 0, which means no limit.
        func milliseconds(_ seconds: Double?) -> Int? { seconds.map { Int($0 * 1000) }.flatMap { $0 > 0 ? $0 : nil } }
        var options = TransportOptions(caFile: cacert, insecure: insecure, connectTimeoutMS: milliseconds(connectTimeout),
                                       timeoutMS: milliseconds(maxTime))
        options.caPath = capath
        (options.queriesInsecure, options.queriesVerifyStatus) = (queriesInsecure, queriesVerifyStatus)
        options = options.honoringCAEnvironment()
        if let caFile = options.caFile, !LocalFiles.isReadableFile(caFile) {
            throw CurlError.caCertBadFile.with(message: "error setting certificate file: \(caFile)")
        }
        return options
    }

    /// The run's resolver session these options describe, telling `diagnostics`; trust errors (exit 77) come
    /// before resolver-setting errors, as they are checked in that order. `connectsNowhere` for a run that only
    /// resolves (``ResolverSettings/connectsNowhere``).
    func session(_ diagnostics: Diagnostics, connectsNowhere: Bool = false) throws(CurlError) -> ResolverSession {
        let transport = try transport()
        var settings = try settings()
        settings.connectsNowhere = connectsNowhere
        return ResolverSession(settings: settings, transport: transport, diagnostics: diagnostics)
    }

    /// The resolver settings these options describe: at most one provider flag, else `IPCURL_DNS`, else DoH.
    func settings() throws(CurlError) -> ResolverSettings {
        var settings = ResolverSettings()
        let chosen = ProviderChoice.chosen(by: providerFlags)
        if chosen.count > 1 {
            throw CurlError.usage("choose one resolver: \(chosen.map(\.flag).joined(separator: " and ")) were both given")
        }
        if let flag = chosen.first {
            settings.provider = flag
        } else if let environment = getenv("IPCURL_DNS").map({ String(cString: $0) }), !environment.isEmpty {
            settings.provider = try ProviderChoice(environment: environment)
        }
        try vendor.apply(to: &settings)
        try policy.apply(to: &settings)
        do { settings.staticEntries = try ResolveEntry.list(parsing: resolve) } catch { throw CurlError(error) }
        return settings
    }
}
