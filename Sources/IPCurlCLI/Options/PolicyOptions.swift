#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// How answers are used: cache, serve-stale, fallback, time budget and address family.
struct PolicyOptions: Sendable {
    var dnsTimeout: Double = 2
    var dnsStale: UInt32 = 0
    var noDNSCache = false
    var noFallback = false
    var ipv4 = false
    var ipv6 = false

    static let rows: [OptionRow<PolicyOptions>] = [
        OptionRow("dns-timeout", nil, .seconds, "seconds", ResolverOptions.resolverCategory,
                  "Maximum seconds for each lookup (each host, hop and retry), every server included (default 2)") {
            options, argument in
            let seconds = try argument.seconds()
            guard seconds > 0, seconds <= 600 else { throw argument.problem("expected 0 < SECONDS <= 600") }
            options.dnsTimeout = seconds
        },
        OptionRow("dns-stale", nil, .number, "seconds", ResolverOptions.resolverCategory,
                  "Use a cached answer up to SECONDS past its TTL while a fresh one is fetched alongside") {
            $0.dnsStale = UInt32(try $1.integer(in: 0...Int(ResolverAnswer.maximumTTL)))
        },
        OptionRow("dns-cache", nil, .boolean, "", ResolverOptions.resolverCategory,
                  "Read and write the answer cache ($IPCURL_CACHE_DIR; on by default, --no-dns-cache turns it off)") {
            $0.noDNSCache = !$1.isOn
        },
        OptionRow("no-fallback", nil, .none, "", ResolverOptions.resolverCategory,
                  "When HTTPDNS gives no usable address, fail (exit 6) instead of asking the system resolver",
                  important: true) { options, _ in options.noFallback = true },
        OptionRow("ipv4", "4", .none, "", ResolverOptions.connectionCategory, "Use IPv4 addresses only (the last of -4/-6 wins)") {
            options, _ in (options.ipv4, options.ipv6) = (true, false)
        },
        OptionRow("ipv6", "6", .none, "", ResolverOptions.connectionCategory, "Use IPv6 addresses only (the last of -4/-6 wins)") {
            options, _ in (options.ipv4, options.ipv6) = (false, true)
        },
    ]

    /// Fills the policy part of `settings`; a cache location that must be corrected is a usage error.
    func apply(to settings: inout ResolverSettings) throws(CurlError) {
        settings.dnsTimeoutMS = max(1, Int(dnsTimeout * 1000))
        settings.staleSeconds = dnsStale
        settings.fallback = !noFallback
        settings.families = ipv4 ? .v4Only : ipv6 ? .v6Only : .both
        let location = noDNSCache ? nil : try Self.cacheLocation()
        settings.cacheDirectory = location?.directory
        settings.cacheNote = location?.note
    }

    /// `$IPCURL_CACHE_DIR`, else `$XDG_CACHE_HOME/ipcurl`, else `~/.cache/ipcurl` when HOME is an existing
    /// directory; otherwise why the cache is off. A relative `IPCURL_CACHE_DIR` is a usage error (exit 2).
    static func cacheLocation() throws(CurlError) -> AnswerCache.Location {
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        let location = AnswerCache.location(cacheDir: variable("IPCURL_CACHE_DIR"), xdgCacheHome: variable("XDG_CACHE_HOME"),
                                            home: variable("HOME"))
        if case .refused(let reason) = location { throw CurlError.usage(reason) }
        return location
    }
}
