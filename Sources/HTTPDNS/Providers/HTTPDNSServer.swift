/// One HTTPDNS server and how it is reached: its URL, split into parts by the program's URL parser.
///
/// A vendor server given by IP over `https` is verified against the vendor's documented service name when there
/// is one: requests go to `https://NAME:PORT/…` with `NAME:PORT:IP` pinned, as Alibaba's own C SDK does.
/// Without a service name the certificate must cover the IP itself.
///
/// The URL may carry a query or user info (some DoH providers put a token there); ``label``, the only form
/// that reaches a message, shows neither the user info nor any query value. Both are credentials, as the label
/// treats them (a query value may be a bare token), and go over https only
/// (``refusingPlainHTTP(carrying:setting:)``).
/// - SeeAlso: `CURLOPT_RESOLVE`, `CURLOPT_URL`.
public struct HTTPDNSServer: Sendable, Equatable {
    /// `http` or `https`.
    public let scheme: String
    /// The host to connect to (the service name when pinned), without brackets.
    public let host: String
    /// The TCP port.
    public let port: Int
    /// The path prefix without a trailing slash; empty for `/`.
    public let path: String
    /// The query without `?`, if the URL had one (sent, never shown).
    public let query: String?
    /// `user[:password]` for HTTP authentication, if the URL had it (sent, never shown).
    public let userInfo: String?
    /// `scheme://host:port/path`, plus `?name=***` per query parameter (`***` for one without `=`) and the
    /// verified name when pinned.
    public let label: String
    /// The pin that lets the certificate be checked against the vendor's service name, if any.
    public let pin: ResolveEntry?

    /// A server from URL parts. Throws a configuration error of `setting` for a scheme other than http(s), an
    /// empty host, a port outside 1–65535, or user info or a query over http. `serviceName` is the vendor's
    /// documented TLS name, used when `host` is an IP and the scheme https.
    public init(scheme: String, host: String, port: Int, path: String = "", query: String? = nil,
                userInfo: String? = nil, serviceName: String? = nil, setting: ResolutionError.Setting) throws(ResolutionError) {
        let scheme = scheme.lowercased()
        guard scheme == "http" || scheme == "https", !host.isEmpty, (1...65535).contains(port) else {
            throw .configuration(setting, value: "\(scheme)://\(host)", "expected http:// or https://HOST[:PORT][/PATH]")
        }
        self.scheme = scheme
        self.port = port
        self.path = path.hasSuffix("/") ? String(path.dropLast()) : path
        self.query = query.flatMap { $0.isEmpty ? nil : $0 }
        self.userInfo = userInfo.flatMap { $0.isEmpty ? nil : $0 }
        let bracketed = host.contains(":") ? "[\(host)]" : host
        // A parameter shows its name only; one without `=` may be a bare token, so none of it is shown.
        let shownQuery = self.query.map { query in
            "?" + query.split(separator: "&").map { $0.contains("=") ? $0.prefix { $0 != "=" } + "=***" : "***" }
                .joined(separator: "&")
        } ?? ""
        let credentials = self.userInfo == nil ? "" : "***@"
        if scheme == "https", let address = IPAddress(host), let serviceName,
           let pin = ResolveEntry(host: serviceName, port: port, addresses: [address]) {
            self.host = pin.host
            self.pin = pin
            label = "https://\(credentials)\(bracketed):\(port)\(self.path)\(shownQuery) as \(pin.host)"
        } else {
            self.host = host
            pin = nil
            label = "\(scheme)://\(credentials)\(bracketed):\(port)\(self.path)\(shownQuery)"
        }
        if self.userInfo != nil { try refusingPlainHTTP(carrying: "the URL's user info", setting: setting) }
        if self.query != nil { try refusingPlainHTTP(carrying: "the URL's query", setting: setting) }
    }

    /// The one rule for a credential on its way to a resolver, whichever provider carries it (the URL's user info
    /// or query, the DNSPod token): over http it is a configuration error of `setting` naming the server by its
    /// ``label``, and nothing is sent.
    public func refusingPlainHTTP(carrying credential: String, setting: ResolutionError.Setting) throws(ResolutionError) {
        guard isPlainHTTP else { return }
        throw .configuration(setting, value: label, "\(credential) is sent over https only; use an https:// server")
    }

    /// The URL of `path` (and `query`, joined to the server's own query) on this server.
    public func url(path extra: String = "", query extraQuery: String? = nil) -> String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        let credentials = userInfo.map { "\($0)@" } ?? ""
        let queries = [query, extraQuery].compactMap { $0 }
        return "\(scheme)://\(credentials)\(bracketed):\(port)\(path)\(extra)" + (queries.isEmpty ? "" : "?" + queries.joined(separator: "&"))
    }

    /// Whether requests travel in clear text.
    public var isPlainHTTP: Bool { scheme == "http" }
}
