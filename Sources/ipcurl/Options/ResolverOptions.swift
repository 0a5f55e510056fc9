import ArgumentParser
import CurlKit
import HTTPDNS
import IPCurlCore

/// Resolver, TLS and timeout options shared by every subcommand; they apply to the HTTPDNS queries too.
struct ResolverOptions: ParsableArguments {
    @Option(name: [.customLong("doh"), .customLong("doh-url")],
            help: ArgumentHelp("DNS-over-HTTPS server (RFC 8484) to resolve with; repeat to add fallbacks.", valueName: "URL"))
    var doh: [String] = []

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
                throw ValidationError("--doh \(url): not an https:// URL")
            }
        }
        for entry in resolve { _ = try parsedEntry(entry) }
        for (name, value) in [("--connect-timeout", connectTimeout), ("--max-time", maxTime)] {
            if let value, !(value > 0 && value < 86_400 * 365) { throw ValidationError("\(name): expected positive seconds") }
        }
    }

    private func parsedEntry(_ text: String) throws -> ResolveEntry {
        do { return try ResolveEntry(parsing: text) } catch { throw ValidationError(error.message) }
    }

    /// TLS and timeouts; fails with exit 77 when the CA file cannot be read, as curl does.
    func transport() throws(CurlError) -> TransportOptions {
        if let cacert, !LocalFiles.isReadableFile(cacert) {
            throw CurlError.caCertBadFile.with(message: "error setting certificate file: \(cacert)")
        }
        return TransportOptions(caFile: cacert, insecure: insecure,
                                connectTimeoutMS: connectTimeout.map { Int($0 * 1000) },
                                timeoutMS: maxTime.map { Int($0 * 1000) })
    }

    /// The resolver settings these options describe.
    func settings() throws -> ResolverSettings {
        var settings = ResolverSettings()
        if !doh.isEmpty { settings.dohServers = doh }
        settings.staticEntries = try resolve.map(parsedEntry)
        return settings
    }
}
