import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// `ipcurl resolve [OPTIONS] HOST...`: print `CURLOPT_RESOLVE` entries for plain curl's `--resolve`.
struct ResolveCommand: SubcommandLine {
    var resolver = ResolverOptions()
    var port = 443
    var format = ResolveListing.Format.plain
    var verbose = false
    var hosts: [String] = []
    var help: String?
    var version = false

    static let category = OptionCategory("resolve", "What ipcurl resolve prints")

    static let rows: [OptionRow<ResolveCommand>] = commonRows(category) + [
        OptionRow("port", nil, .number, "n", category, "Port to put in the entries (default 443)", important: true) {
            $0.port = try $1.integer(in: 1...65535)
        },
        OptionRow("format", nil, .string, "format", category,
                  "plain (HOST:PORT:IP), curl (--resolve HOST:PORT:IP) or json", important: true) { command, argument in
            guard let format = ResolveListing.Format(rawValue: argument.text) else {
                throw argument.problem("\(ResolveEntry.quoted(String(argument.text.prefix(40)))): expected plain, curl or json")
            }
            command.format = format
        },
        OptionRow("verbose", "v", .boolean, "", category, "Show which resolver answered on stderr") { $0.verbose = $1.isOn },
    ] + ResolverOptions.rows.map { $0.lifted({ try $1(&$0.resolver) }) }

    /// Accepts a host name argument; an IP literal or a malformed name is a usage error.
    mutating func add(host: String) throws {
        guard HostSpelling.lookupName(host) != nil else {
            let why = IPAddress(host) != nil ? " (an IP literal needs no resolving)" : ""
            throw OptionError("\(ResolveEntry.quoted(host)): not a host name\(why)")
        }
        hosts.append(host)
    }

    func run() -> Int32 {
        guard !hosts.isEmpty else {
            DescriptorWriter.standardError.write("ipcurl: resolve: no host given (see 'ipcurl help resolve')\n")
            return 2
        }
        let policy: ResolutionPolicy
        let settings: ResolverSettings
        do throws(CurlError) {
            settings = try resolver.settings()
            policy = settings.policy(transport: try resolver.transport())
        } catch {
            DescriptorWriter.standardError.write("ipcurl: \(error)\n")
            return error.exitCode
        }
        let log = DescriptorWriter.standardError
        if verbose {
            policy.note = { log.write(DecisionLog.notes([$0])) }
            if let note = settings.cacheNote { log.write(DecisionLog.notes([note])) }
        }
        var items: [ResolveListing.Item] = []
        let names = hosts.map { HostSpelling.lookupName($0) ?? $0 }
        for (host, name) in zip(hosts, names) where verbose && host.utf8.contains(where: { $0 >= 0x80 }) {
            log.write(DecisionLog.idn(host, is: name))
        }
        for (host, result) in zip(names, policy.resolve(hosts: names, port: port).map(\.curl)) {
            switch result {
            case .success(let resolution):
                if verbose { log.write(DecisionLog.answer(resolution, host: host)) }
                if let reason = resolution.fallbackReason {
                    log.write("ipcurl: warning: \(DecisionLog.fallbackWarning(host, reason))\n")
                }
            case .failure(let error):
                log.write("ipcurl: \(error)\n")
            }
            items.append(ResolveListing.Item(host: host, result: result))
        }
        let printed = Commands.printListing(ResolveListing.render(items, port: port, format: format))
        let refreshed = policy.finishRefresh()
        if verbose { DescriptorWriter.standardError.write(DecisionLog.notes(refreshed)) }
        for item in items { if case .failure(let error) = item.result { return error.exitCode } }
        return printed
    }
}
