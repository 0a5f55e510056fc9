#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS

/// Which proxies libcurl will use for a URL, decided as libcurl 7.88.1's `url.c` decides them, so ipcurl knows
/// whether the name it would pin is looked up at all: `--noproxy` (else `no_proxy`, else `NO_PROXY`) listing the
/// host means direct; else `-x` (or `--socks5` and the other forms of it) and `--preproxy`, where an empty one
/// counts as not given but still keeps the environment out; else, when neither was given, the environment:
/// `http_proxy` for http (never `HTTP_PROXY`), `https_proxy` then `HTTPS_PROXY` for https, then `all_proxy`,
/// `ALL_PROXY`. Empty variables count as unset.
///
/// Each proxy string goes to one of two slots by its type (``ProxyType/of(_:given:)``: its scheme, else the
/// option's): an HTTP(S) proxy, and a SOCKS proxy, connected to first; the later of two for one slot wins. Through
/// an HTTP(S) proxy, or a SOCKS proxy with remote resolution (`socks4a`, `socks5h`) and no HTTP proxy behind it,
/// the proxy resolves the name, so ipcurl pins nothing and says so; through `socks4` or `socks5` alone libcurl
/// resolves the name itself and the pin is used as without a proxy.
/// - SeeAlso: `CURLOPT_PROXY`, `CURLOPT_PROXYTYPE`, `CURLOPT_PRE_PROXY`, `CURLOPT_NOPROXY`, curl's `-x`,
///   `--preproxy`, `--noproxy` and "ENVIRONMENT" man page section.
enum ProxyEnvironment {
    /// One proxy of a route: where it was given and the string, whose credential must never be printed.
    struct Hop: Equatable {
        /// `-x` (or the option that gave it) or `$name` of the environment variable.
        var origin: String
        /// The proxy as given (`[scheme://][user:password@]host[:port]`).
        var proxy: String
        /// Its type as libcurl reads it.
        var type: ProxyType

        /// `from $https_proxy` or `given with -x`, as `-v` and warnings say where the proxy came from.
        var givenPhrase: String { origin.hasPrefix("$") ? "from \(origin)" : "given with \(origin)" }
    }

    /// The proxies a transfer will go through.
    struct Route: Equatable {
        /// The proxy that decides who looks the target's name up: the HTTP(S) one if any, else the SOCKS one.
        var decider: Hop
        /// The proxies whose own names libcurl looks up: the first one, and an HTTP(S) proxy behind a `socks4` or
        /// `socks5` one.
        var locallyResolved: [Hop]

        /// Whether the proxy (not libcurl) looks the target's name up: an HTTP(S) proxy, or a `socks4a` or
        /// `socks5h` one.
        var resolvesNames: Bool { decider.type.resolvesTargetNames }

        /// `-v`'s line on who resolves `host`.
        func decision(for host: String) -> String {
            let given = decider.givenPhrase
            return resolvesNames ? "* HTTPDNS \(host): the proxy \(given) resolves this name; nothing is pinned\n"
                : "* HTTPDNS \(host): the SOCKS proxy \(given) is sent the pinned address\n"
        }
    }

    /// The route libcurl will take for `url` with `settings`, or `nil` for a direct connection.
    static func route(for url: CurlURL, settings: ProxySettings) -> Route? {
        guard !isDirect(settings) else { return nil }
        return route(scheme: url.scheme, host: url.host, settings: settings, lookup: ProcessProxyVariables.value(of:))
    }

    /// Whether every URL goes direct with `settings`: no proxy option and no proxy variable, whatever the host.
    static func isDirect(_ settings: ProxySettings) -> Bool {
        settings.url == nil && settings.preProxy == nil && !ProcessProxyVariables.namesAProxy
    }

    /// Whether no proxy option and no proxy variable, `no_proxy` included, is set: libcurl would read the
    /// variables for every transfer to find nothing (and `-v` would say nothing about them).
    static func isUnconfigured(_ settings: ProxySettings) -> Bool {
        isDirect(settings) && settings.noProxy == nil && ProcessProxyVariables.values.allSatisfy(\.isEmpty)
    }

    /// The environment's proxy for the HTTPDNS queries to `server` (`-x` is the request's only), or `nil`.
    static func route(forQueryTo server: HTTPDNSServer) -> Route? {
        guard ProcessProxyVariables.namesAProxy else { return nil }
        return route(scheme: server.scheme, host: server.host, settings: ProxySettings(), lookup: ProcessProxyVariables.value(of:))
    }

    /// ``route(for:settings:)`` over any environment lookup, for tests.
    static func route(scheme: String, host: String, settings: ProxySettings, lookup: (String) -> String?) -> Route? {
        func set(_ name: String) -> String? { lookup(name).flatMap { $0.isEmpty ? nil : $0 } }
        let exclusions = settings.noProxy ?? set("no_proxy") ?? set("NO_PROXY") ?? ""
        if NoProxyList(exclusions).matches(host) { return nil }
        var given: [(origin: String, proxy: String)] = []
        if settings.url != nil || settings.preProxy != nil {
            if let url = settings.url, !url.isEmpty { given.append((settings.origin, url)) }
            if let pre = settings.preProxy, !pre.isEmpty { given.append(("--preproxy", pre)) }
        } else {
            let candidates = switch scheme {
            case "http": ["http_proxy", "all_proxy", "ALL_PROXY"]
            case "https": ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
            default: ["\(scheme)_proxy", "\(scheme.uppercased())_PROXY", "all_proxy", "ALL_PROXY"]
            }
            for name in candidates {
                guard let proxy = set(name) else { continue }
                given.append(("$" + name, proxy))
                break
            }
        }
        var http: Hop?, socks: Hop?
        for (origin, proxy) in given {
            // A scheme libcurl refuses ends the transfer before any lookup: counted as an HTTP proxy, so nothing is asked.
            let type = ProxyType.of(proxy, given: settings.type) ?? .http
            if type.isSOCKS { socks = Hop(origin: origin, proxy: proxy, type: type) } else { http = Hop(origin: origin, proxy: proxy, type: type) }
        }
        if let http {
            guard let socks else { return Route(decider: http, locallyResolved: [http]) }
            return Route(decider: http, locallyResolved: socks.type.resolvesTargetNames ? [socks] : [socks, http])
        }
        guard let socks else { return nil }
        return Route(decider: socks, locallyResolved: [socks])
    }
}

/// The proxy variables of the process environment, read once: a command line's transfers all see the
/// environment the process started with, and a transfer does not pay for seven `getenv` calls.
private enum ProcessProxyVariables {
    static let names = ["no_proxy", "NO_PROXY", "http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
    /// Their values, empty when unset (every reader takes an empty variable for an unset one; plain strings spare
    /// the start an array type of optionals).
    static let values: [String] = names.map { name in getenv(name).map { String(cString: $0) } ?? "" }
    /// Whether a proxy variable (not `no_proxy`) is set and not empty.
    static let namesAProxy: Bool = {
        // Indices, not dropFirst: an ArraySlice of optionals is one more generic type to instantiate at every start.
        for index in 2..<values.count where !values[index].isEmpty { return true }
        return false
    }()

    /// The variable `name`'s value, `nil` or empty when unset.
    static func value(of name: String) -> String? {
        if let index = names.firstIndex(of: name) { return values[index] }
        return getenv(name).map { String(cString: $0) }
    }
}

/// A `NO_PROXY`/`--noproxy` list as libcurl 7.88.1 reads it (`Curl_check_noproxy`): `*` alone matches every host;
/// otherwise names separated by commas (or blanks), each matching the host itself or a domain under it (a
/// leading and a trailing dot ignored, case ignored); for an IP address host, addresses with an optional
/// `/bits` CIDR suffix.
/// - SeeAlso: `CURLOPT_NOPROXY`.
struct NoProxyList {
    let text: String
    init(_ text: String) { self.text = text }

    /// Whether `host` (a name, an IPv4 address, or an IPv6 address with or without brackets) is listed.
    func matches(_ host: String) -> Bool {
        guard !host.isEmpty, !text.isEmpty else { return false }
        if text == "*" { return true }
        var name = host
        if name.hasPrefix("["), let close = name.firstIndex(of: "]") {
            name = String(name[name.index(after: name.startIndex)..<close])
        }
        let address = IPAddress(name)
        if address == nil, name.hasSuffix(".") { name.removeLast() }
        let tokens = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" })
        return tokens.contains { token in
            if let address { return Self.cidr(String(token), contains: address) }
            var pattern = token.lowercased()
            if pattern.hasSuffix(".") { pattern.removeLast() }
            if pattern.hasPrefix(".") { pattern.removeFirst() }
            let lower = name.lowercased()
            return !pattern.isEmpty && (lower == pattern || lower.hasSuffix("." + pattern))
        }
    }

    /// `network[/bits]` containing `address`; no bits (or `/0`) means the exact address, as in libcurl.
    private static func cidr(_ token: String, contains address: IPAddress) -> Bool {
        let parts = token.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let network = IPAddress(parts[0]), network.family == address.family else { return false }
        let width = address.bytes.count * 8
        var bits = parts.count > 1 ? Int(parts[1].prefix { $0.isASCII && $0.isNumber }) ?? 0 : 0
        if bits > width { return false }
        if bits == 0 { bits = width }
        for bit in 0..<bits where (network.bytes[bit / 8] ^ address.bytes[bit / 8]) & (0x80 >> (bit % 8)) != 0 {
            return false
        }
        return true
    }
}
