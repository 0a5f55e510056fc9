#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// curl's connection-routing options: where a request's connections go (`--connect-to`, a unix socket, the
/// alt-svc and HSTS caches) and leave from (`--interface`, `--local-port`); fetch only, never the HTTPDNS queries.
/// Every host they make libcurl connect to is pinned as the URL's host is (``ConnectionRoute``).
struct RoutingOptions: Sendable {
    /// The route as given; ``apply(to:)`` checks the interface.
    var route = ConnectionRoute()

    static let category = ResolverOptions.connectionCategory

    static let rows: [OptionRow<RoutingOptions>] = [
        OptionRow("connect-to", nil, .string, "HOST1:PORT1:HOST2:PORT2", category,
                  "Connect to HOST2:PORT2 for requests to HOST1:PORT1 (empty parts: any, or the request's); HOST2 is "
                  + "resolved through HTTPDNS, SNI and Host stay the URL's", repeatable: true) { $0.route.connectTo.append($1.text) },
        OptionRow("unix-socket", nil, .file, "path", category, "Connect through this unix socket; nothing is resolved") {
            $0.route.unixSocket = ConnectionRoute.UnixSocket(path: $1.text, abstract: false)
        },
        OptionRow("abstract-unix-socket", nil, .string, "name", category,
                  "Connect through this abstract unix socket; nothing is resolved") {
            $0.route.unixSocket = ConnectionRoute.UnixSocket(path: $1.text, abstract: true)
        },
        OptionRow("interface", nil, .string, "name", category,
                  "Leave from this interface (NAME, if!NAME) or address (IP, host!IP); a host name is refused") {
            $0.route.interface = $1.text
        },
        OptionRow("local-port", nil, .string, "num[-num]", category, "Leave from this local port, or the first free one of a range") {
            $0.route.localPorts = try localPorts($1)
        },
        OptionRow("alt-svc", nil, .file, "file", category,
                  "Read and write alt-svc entries in FILE; an alternative host is resolved through HTTPDNS") { $0.route.altSvcFile = $1.text },
        OptionRow("hsts", nil, .file, "file", category,
                  "Read and write HSTS entries in FILE; an upgraded request is pinned on its https port") { $0.route.hstsFile = $1.text },
    ]

    /// curl's reading of `--local-port` (`tool_getparam.c`): decimal digits, then optionally `-LAST` (blanks allowed
    /// around the dash); anything else after the digits is ignored. The ports must lie within 0–65535, LAST not
    /// below the first.
    static func localPorts(_ argument: OptionArgument) throws -> (first: Int, count: Int) {
        let text = Substring(argument.text)
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        var rest = text.dropFirst(digits.count).drop { $0 == " " }
        var last: Substring?
        if rest.hasPrefix("-") {
            rest = rest.dropFirst().drop { $0 == " " }
            let word = rest.prefix { $0 != " " }
            if !word.isEmpty { last = word.prefix(6) }
        }
        guard let first = Int(digits), first <= 65535 else { throw argument.problem("is badly used here") }
        guard let last else { return (first, 1) }
        guard last.allSatisfy({ $0.isASCII && $0.isNumber }), let end = Int(last), end <= 65535, end >= first else {
            throw argument.problem("is badly used here")
        }
        return (first, end - first + 1)
    }

    /// Fills the request's route. An interface given by a host name (`host!NAME`, or a NAME that is neither an
    /// interface of this machine nor an address) is refused with curl's exit 45: libcurl would look the name up with
    /// the system resolver. A NAME that is an interface is handed over as `if!NAME`, so libcurl never falls back to
    /// looking it up either.
    func apply(to request: inout FetchRequest) throws(CurlError) {
        var route = self.route
        route.interface = try route.interface.map(Self.bindable)
        request.template.route = route
    }

    /// `given` in a form libcurl binds to without a name lookup, or exit 45.
    static func bindable(_ given: String) throws(CurlError) -> String {
        if given.hasPrefix("if!") { return given }
        let isHost = given.hasPrefix("host!")
        let name = isHost ? String(given.dropFirst(5)) : given
        if IPAddress(name) != nil { return given }
        if !isHost, if_nametoindex(name) != 0 { return "if!" + name }
        throw CurlError.interfaceFailed.with(message: "--interface \(Printable.escaped(given)): \(Printable.escaped(name)) is "
            + (isHost ? "" : "neither an interface of this machine nor ") + "an IP address, and ipcurl does not hand a "
            + "name to bind to to the system resolver; give the interface or its address")
    }
}
