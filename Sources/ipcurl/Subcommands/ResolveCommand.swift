import ArgumentParser
import CurlKit
import HTTPDNS
import IPCurlCore

extension ResolveListing.Format: ExpressibleByArgument {}

/// `ipcurl resolve [OPTIONS] HOST...`: print `CURLOPT_RESOLVE` entries for plain curl's `--resolve`.
struct ResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Resolve HOSTs through HTTPDNS and print HOST:PORT:IP[,IP...] lines for curl --resolve."
    )

    @OptionGroup var resolver: ResolverOptions

    @Option(help: ArgumentHelp("Port to put in the entries.", valueName: "N"))
    var port = 443

    @Option(help: ArgumentHelp("plain (HOST:PORT:IP), curl (--resolve HOST:PORT:IP) or json.", valueName: "FORMAT"))
    var format = ResolveListing.Format.plain

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "Show which resolver answered on stderr.")
    var verbose = false

    @Argument(help: "Host names to resolve.")
    var hosts: [String]

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port \(port): expected 1-65535") }
        for host in hosts where HostSpelling.lookupName(host) == nil {
            let why = IPAddress(host) != nil ? " (an IP literal needs no resolving)" : ""
            throw ValidationError("\(ResolveEntry.quoted(host)): not a host name\(why)")
        }
    }

    func run() throws {
        let policy: ResolutionPolicy
        let settings: ResolverSettings
        switch Result(catching: { () throws(CurlError) in
            let settings = try resolver.settings()
            return (settings, settings.policy(transport: try resolver.transport()))
        }) {
        case .success(let made): (settings, policy) = made
        case .failure(let error):
            DescriptorWriter.standardError.write("ipcurl: \(error)\n")
            throw ExitCode(error.exitCode)
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
        DescriptorWriter.standardOutput.write(ResolveListing.render(items, port: port, format: format))
        let refreshed = policy.finishRefresh()
        if verbose { DescriptorWriter.standardError.write(DecisionLog.notes(refreshed)) }
        let failures = items.compactMap { item -> CurlError? in
            if case .failure(let error) = item.result { return error } else { return nil }
        }
        if let first = failures.first { throw ExitCode(first.exitCode) }
    }
}
