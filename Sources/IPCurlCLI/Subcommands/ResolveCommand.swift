import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// `ipcurl resolve [OPTIONS] HOST...`: print `CURLOPT_RESOLVE` entries for plain curl's `--resolve`.
struct ResolveCommand: Subcommand {
    static let name = "resolve"
    static let usage = "ipcurl resolve [options...] <host>..."
    static let summary = "Resolve hosts through HTTPDNS and print HOST:PORT:IP[,IP...] entries for curl --resolve."

    var resolver = ResolverOptions()
    var port = 443
    var format = ResolveListing.Format.plain
    var verbose = false
    var hosts: [String] = []
    var help: String?
    var version = false

    static let category = OptionCategory("resolve", "What ipcurl resolve prints")

    static let rows = commonRows(category, for: ownRows) + ownRows

    private static let ownRows: [OptionRow<ResolveCommand>] = [
        OptionRow("port", nil, .number, "n", category, "Port to put in the entries (default 443)", important: true) {
            $0.port = try $1.integer(in: 1...65535)
        },
        OptionRow("format", nil, .string, "format", category,
                  "plain (HOST:PORT:IP), curl (--resolve HOST:PORT:IP) or json", important: true) { command, argument in
            guard let format = ResolveListing.Format(rawValue: argument.text) else {
                throw argument.problem("\(Printable.quoted(String(argument.text.prefix(40)))): expected plain, curl or json")
            }
            command.format = format
        },
        OptionRow("verbose", "v", .boolean, "", category, "Show which resolver answered on stderr") { $0.verbose = $1.isOn },
    ] + ResolverOptions.rows.map { $0.lifted({ try $1(&$0.resolver) }) }

    /// The host name inside a URL (`https://a.test/x`) or a `host:port` given where a name belongs, for the hint.
    static func hostInside(_ text: String) -> String? {
        if text.contains("://"), let url = try? CurlURL(text, guessScheme: false), HostSpelling.lookupName(url.host) != nil {
            return url.host
        }
        let parts = text.split(separator: ":")
        guard parts.count == 2, parts[1].allSatisfy(\.isNumber), HostSpelling.lookupName(String(parts[0])) != nil else { return nil }
        return String(parts[0])
    }

    /// Accepts a host name argument; an IP literal or a malformed name is a usage error.
    mutating func take(_ host: String) throws {
        guard HostSpelling.lookupName(host) != nil else {
            var why = IPAddress(host) != nil ? " (an IP literal needs no resolving)" : ""
            if let name = Self.hostInside(host) { why = " (give the host name alone: 'ipcurl resolve \(name)'; --port sets the port)" }
            throw OptionError("\(Printable.quoted(host)): not a host name\(why)")
        }
        hosts.append(host)
    }

    /// Resolves every host in one lookup per run (within `-m`), tells each failure as it comes, prints the
    /// entries; the ending is the first failure's.
    func run(_ base: Diagnostics) -> Completion {
        guard !hosts.isEmpty else { return .refused(.usage("resolve: no host given (see 'ipcurl help resolve')")) }
        var diagnostics = base
        diagnostics.verbose = verbose
        let session: ResolverSession
        do throws(CurlError) { session = try resolver.session(diagnostics, connectsNowhere: true) } catch { return .failed(error) }
        let budget = session.transport.timeoutMS.map { TimeBudget(limitMS: $0) }
        let items = ResolveListing.resolve(hosts, port: port, session: session, within: budget)
        var printed = Commands.printListing(ResolveListing.render(items, port: port, format: format))
        if case .failed(let error) = printed {
            diagnostics.error(error)
            printed = .reported(error)
        }
        session.finish()
        for item in items { if case .failure(let error) = item.result { return .reported(error) } }
        return printed
    }
}
