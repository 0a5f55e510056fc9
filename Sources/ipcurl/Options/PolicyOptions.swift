#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CurlKit
import HTTPDNS
import IPCurlCore

/// How answers are used: cache, serve-stale, fallback, time budget and address family.
struct PolicyOptions: ParsableArguments {
    @Option(name: .customLong("dns-timeout"),
            help: ArgumentHelp("Maximum seconds for each lookup (each host, hop and retry), every server included (default 2).",
                               valueName: "SECONDS"))
    var dnsTimeout: Double = 2

    @Option(name: .customLong("dns-stale"),
            help: ArgumentHelp("Use a cached answer up to SECONDS past its TTL while a fresh one is fetched alongside.",
                               valueName: "SECONDS"))
    var dnsStale: UInt32 = 0

    @Flag(name: .customLong("no-dns-cache"), help: "Neither read nor write the answer cache ($IPCURL_CACHE_DIR).")
    var noDNSCache = false

    @Flag(name: .customLong("no-fallback"),
          help: "When HTTPDNS gives no usable address, fail (exit 6) instead of asking the system resolver.")
    var noFallback = false

    @Flag(name: [.customShort("4"), .customLong("ipv4")], help: "Use IPv4 addresses only.")
    var ipv4 = false

    @Flag(name: [.customShort("6"), .customLong("ipv6")], help: "Use IPv6 addresses only.")
    var ipv6 = false

    func validate() throws {
        guard dnsTimeout > 0, dnsTimeout <= 600 else { throw ValidationError("--dns-timeout: expected 0 < SECONDS <= 600") }
        guard dnsStale <= ResolverAnswer.maximumTTL else {
            throw ValidationError("--dns-stale: expected at most \(ResolverAnswer.maximumTTL) seconds")
        }
        if ipv4 && ipv6 { throw ValidationError("-4/--ipv4 and -6/--ipv6 exclude each other") }
    }

    /// Fills the policy part of `settings`.
    func apply(to settings: inout ResolverSettings) {
        settings.dnsTimeoutMS = max(1, Int(dnsTimeout * 1000))
        settings.staleSeconds = dnsStale
        settings.fallback = !noFallback
        settings.families = ipv4 ? .v4Only : ipv6 ? .v6Only : .both
        let location = noDNSCache ? nil : Self.cacheLocation()
        settings.cacheDirectory = location?.directory
        settings.cacheNote = location?.note
    }

    /// `$IPCURL_CACHE_DIR`, else `$XDG_CACHE_HOME/ipcurl`, else `~/.cache/ipcurl` when HOME is an existing
    /// directory; otherwise why the cache is off.
    static func cacheLocation() -> AnswerCache.Location {
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        return AnswerCache.location(cacheDir: variable("IPCURL_CACHE_DIR"), xdgCacheHome: variable("XDG_CACHE_HOME"),
                                    home: variable("HOME"))
    }

    /// ``cacheLocation()``'s directory; `nil` when the cache is off.
    static func cacheDirectory() -> String? { cacheLocation().directory }
}
