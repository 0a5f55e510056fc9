import CurlKit
import HTTPDNS

/// Where a request's connections go and leave from, besides its URL's host and port: curl's `--connect-to`,
/// `--unix-socket`, `--abstract-unix-socket`, `--interface`, `--local-port`, `--alt-svc` and `--hsts`. Every hop's
/// handle gets them all, as curl's one handle keeps them across redirects; ``Fetch`` pins the host each hop
/// connects to (``destination(host:port:secure:)``), so no name these options bring reaches the system resolver.
/// - SeeAlso: `CURLOPT_CONNECT_TO`, `CURLOPT_UNIX_SOCKET_PATH`, `CURLOPT_ABSTRACT_UNIX_SOCKET`, `CURLOPT_INTERFACE`,
///   `CURLOPT_LOCALPORT`, `CURLOPT_LOCALPORTRANGE`, `CURLOPT_ALTSVC`, `CURLOPT_HSTS`.
public struct ConnectionRoute: Sendable {
    /// `--connect-to HOST1:PORT1:HOST2:PORT2` entries, in command-line order, as libcurl reads them.
    public var connectTo: [String] = []
    /// `--unix-socket` / `--abstract-unix-socket`: every connection goes there and no name is resolved.
    public var unixSocket: UnixSocket?
    /// `--interface`, in the form libcurl is handed: `if!NAME`, an address, or `host!ADDRESS`, never a name
    /// libcurl would look up.
    public var interface: String?
    /// `--local-port N[-M]`: the first local port and how many to try from it.
    public var localPorts: (first: Int, count: Int)?
    /// `--alt-svc FILE`: the alt-svc cache.
    public var altSvcFile: String?
    /// `--hsts FILE`: the HSTS cache.
    public var hstsFile: String?

    /// A unix socket to connect through: a path, or a name in Linux's abstract namespace.
    public struct UnixSocket: Sendable {
        /// The path or abstract name.
        public var path: String
        /// Whether ``path`` names an abstract socket.
        public var abstract: Bool

        /// The socket at `path`.
        public init(path: String, abstract: Bool) {
            self.path = path
            self.abstract = abstract
        }

        /// `unix socket PATH` or `abstract unix socket NAME`, for `-v`.
        public var label: String { (abstract ? "abstract unix socket " : "unix socket ") + Printable.escaped(path) }
    }

    /// Where a connection for a host and port goes instead, and why (the `-v` line's start).
    public struct Destination: Sendable, Equatable {
        /// The host libcurl connects to (an address or a name it looks up).
        public var host: String
        /// The port it connects to.
        public var port: Int
        /// `CONNECT-TO a.test:443 -> b.test:8443 (--connect-to …)` or `ALT-SVC …`; `nil` for the URL's own.
        public var reason: String?
    }

    /// No routing options: the URL's host and port, libcurl's defaults.
    public init() {}

    /// Sets the options that are given on `handle`.
    func apply(to handle: EasyHandle) throws(CurlError) {
        if !connectTo.isEmpty { try handle.set(connectTo: connectTo) }
        if let unixSocket { try handle.set(unixSocket: unixSocket.path, abstract: unixSocket.abstract) }
        if let interface { try handle.set(interface: interface) }
        if let localPorts { try handle.set(localPort: localPorts.first, count: localPorts.count) }
        if let altSvcFile { try handle.set(altSvcFile: altSvcFile) }
        if let hstsFile { try handle.set(hstsFile: hstsFile) }
    }

    /// Where libcurl connects for `host`:`port` (`secure`: over https, where alt-svc applies): the first
    /// `--connect-to` entry that matches, else an alt-svc alternative, else the host and port themselves; `nil`
    /// when the matching entry's port is not a number (libcurl fails the transfer then, before any lookup).
    public func destination(host: String, port: Int, secure: Bool) -> Destination? {
        switch ConnectTo.target(for: host, port: port, in: connectTo) {
        case .invalid: return nil
        case .target(let toHost, let toPort, let entry):
            let (host2, port2) = (toHost ?? host, toPort ?? port)
            return Destination(host: host2, port: port2,
                               reason: "CONNECT-TO \(Self.place(host, port)) -> \(Self.place(host2, port2)) (--connect-to \(Printable.escaped(entry)))")
        case nil: break
        }
        if secure, let altSvcFile, let alternative = AltSvcFile.alternative(in: altSvcFile, host: host, port: port) {
            return Destination(host: alternative.host, port: alternative.port,
                               reason: "ALT-SVC \(Self.place(host, port)) -> \(Self.place(alternative.host, alternative.port)) "
                                   + "(\(alternative.alpn), from \(Printable.escaped(altSvcFile)))")
        }
        return Destination(host: host, port: port, reason: nil)
    }

    /// `host:port`, an IPv6 address in brackets.
    static func place(_ host: String, _ port: Int) -> String {
        (host.contains(":") ? "[\(host)]" : Printable.escaped(host)) + ":\(port)"
    }
}

/// libcurl's reading of `CURLOPT_CONNECT_TO` entries (`url.c`, `parse_connect_to_slist`), so ipcurl pins the host
/// libcurl will connect to.
enum ConnectTo {
    enum Match: Equatable {
        /// The entry's target: a host and a port, `nil` where the entry leaves the request's own.
        case target(host: String?, port: Int?, entry: String)
        /// The entry matches but its port is not a number from 0 to 65535.
        case invalid
    }

    /// The first entry of `entries` that matches `host`:`port` and names a host or a port to connect to; an
    /// empty HOST1 or PORT1 matches any, names compare without case, and the request's name without its
    /// trailing dot (an IPv6 address in brackets).
    static func target(for host: String, port: Int, in entries: [String]) -> Match? {
        var name = host
        if name.hasSuffix(".") { name.removeLast() }
        if name.contains(":") { name = "[\(name)]" }
        for entry in entries {
            var rest = Substring(entry)
            if rest.hasPrefix(":") {
                rest = rest.dropFirst()
            } else {
                guard rest.count > name.count, rest.prefix(name.count).lowercased() == name.lowercased(),
                      rest.dropFirst(name.count).first == ":" else { continue }
                rest = rest.dropFirst(name.count + 1)
            }
            if rest.hasPrefix(":") {
                rest = rest.dropFirst()
            } else {
                guard let colon = rest.firstIndex(of: ":"), Int(rest[..<colon]) == port else { continue }
                rest = rest[rest.index(after: colon)...]
            }
            guard let (toHost, toPort) = hostAndPort(rest) else { return .invalid }
            if toHost == nil && toPort == nil { continue }
            return .target(host: toHost, port: toPort, entry: entry)
        }
        return nil
    }

    /// `HOST2:PORT2` (HOST2 an IPv6 address in brackets, either part empty): the host (without brackets) and the
    /// port, `nil` where empty; `nil` altogether for a port that is not a number from 0 to 65535.
    private static func hostAndPort(_ text: Substring) -> (String?, Int?)? {
        var host = text, portText: Substring = ""
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if let colon = after.firstIndex(of: ":") { portText = after[after.index(after: colon)...] }
        } else if let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        var port: Int?
        if !portText.isEmpty {
            guard let number = Int(portText), (0...65535).contains(number) else { return nil }
            port = number
        }
        return (host.isEmpty ? nil : String(host), port)
    }
}
