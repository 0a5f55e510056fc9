/// One `CURLOPT_RESOLVE` entry: `HOST:PORT:ADDR[,ADDR...]`, IPv6 addresses in brackets.
///
/// Both ways in are validated: ``init(host:port:addresses:)`` needs a ``HostName`` and ``IPAddress`` values,
/// and ``init(parsing:)`` re-parses curl's `--resolve` syntax field by field, so the rendered string only
/// ever holds a checked name, a port number and `inet_pton`-checked addresses.
/// - SeeAlso: `CURLOPT_RESOLVE`, curl's `--resolve`.
public struct ResolveEntry: Sendable, Equatable, CustomStringConvertible {
    /// The host name exactly as libcurl will look it up: lowercased, with a trailing dot kept when the URL has
    /// one (`a.test.` and `a.test` are different keys in libcurl's DNS cache); ``wildcard`` for every host.
    public let host: String
    /// The TCP port, 1–65535.
    public let port: Int
    /// The addresses, in the order libcurl should try them; never empty.
    public let addresses: [IPAddress]
    /// The one spelling of an entry as text: what libcurl is handed when a handle is configured, what
    /// `ipcurl resolve` prints and what `-v` shows. Everything before that holds the typed entry. Rendered once,
    /// when the entry is made: every transfer pinned to it hands libcurl the same text.
    public let description: String

    /// The host of an entry for every host on its port that has no entry of its own (libcurl's `*:PORT:ADDR`).
    public static let wildcard = "*"

    /// Whether the entry is for every host on its port (``wildcard``).
    public var isWildcard: Bool { host == Self.wildcard }

    /// Builds an entry; returns `nil` for an invalid host (neither a name nor ``wildcard``) or port or no addresses.
    public init?(host: String, port: Int, addresses: [IPAddress]) {
        guard let name = host == Self.wildcard ? host : HostName.lookupName(host), (1...65535).contains(port),
              !addresses.isEmpty else { return nil }
        self.host = name
        self.port = port
        self.addresses = addresses
        // A loop, not joined(separator:): that is the stdlib's unspecialized generic, whose first call resolves an
        // associated type at run time (about 100,000 instructions of the start that calls it).
        var text = "\(name):\(port):"
        for index in addresses.indices { text += (index == 0 ? "" : ",") + addresses[index].resolveEntryForm }
        description = text
    }

    /// The entry for `answer` on `port`.
    public init?(_ answer: ResolverAnswer, port: Int) {
        self.init(host: answer.host, port: port, addresses: answer.addresses)
    }

    /// Parses curl's `--resolve` syntax, `[+]HOST:PORT:ADDR[,ADDR]...` (`+`, libcurl's entry that times out, is
    /// taken as a plain one; `*` as HOST is ``wildcard``); IPv6 addresses may be bracketed.
    /// Throws a configuration error of ``ResolutionError/Setting/staticEntry``.
    public init(parsing text: String) throws(ResolutionError) {
        func bad(_ why: String) -> ResolutionError { .configuration(.staticEntry, value: text, why) }
        var rest = Substring(text)
        if rest.hasPrefix("+") { rest = rest.dropFirst() }
        let parts = rest.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw bad("expected HOST:PORT:ADDRESS[,ADDRESS]") }
        guard let port = Int(parts[1]), (1...65535).contains(port) else { throw bad("invalid port") }
        var addresses: [IPAddress] = []
        for field in parts[2].split(separator: ",", omittingEmptySubsequences: false) {
            var text = field
            if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
            guard let address = IPAddress(text) else { throw bad("\(Printable.quoted(String(field))) is not an IP address") }
            addresses.append(address)
        }
        guard let entry = ResolveEntry(host: String(parts[0]), port: port, addresses: addresses) else {
            throw bad("invalid host name")
        }
        self = entry
    }

    /// The entries a command line's `--resolve` arguments leave, in order: each `[+]HOST:PORT:ADDR` is added, and
    /// each `-HOST:PORT` (libcurl's removal, anything after the port ignored as libcurl ignores it) removes the
    /// earlier entries of that host, as libcurl spells it, and port, so the name is resolved again (by HTTPDNS).
    public static func list(parsing texts: [String]) throws(ResolutionError) -> [ResolveEntry] {
        var entries: [ResolveEntry] = []
        for text in texts {
            guard text.hasPrefix("-") else {
                entries.append(try ResolveEntry(parsing: text))
                continue
            }
            let parts = text.dropFirst().split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, let port = Int(parts[1]), (1...65535).contains(port),
                  let host = parts[0] == Substring(wildcard) ? wildcard : HostName.lookupName(String(parts[0])) else {
                throw .configuration(.staticEntry, value: text, "expected -HOST:PORT to remove an entry")
            }
            entries.removeAll { $0.host == host && $0.port == port }
        }
        return entries
    }

    /// Whether the entry pins `host` (``HostName/normalized(_:)``) on `port`: by name, or as ``wildcard``.
    public func pins(_ host: String, port: Int) -> Bool {
        self.port == port && (isWildcard || HostName.normalized(self.host) == host)
    }

    /// The same entry for the name spelled `lookupName` (a trailing dot, another case).
    public func spelled(_ lookupName: String) -> ResolveEntry {
        ResolveEntry(host: lookupName, port: port, addresses: addresses) ?? self
    }
}
