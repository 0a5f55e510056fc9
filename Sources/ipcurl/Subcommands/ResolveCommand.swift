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
        for host in hosts where HostName.normalized(host) == nil || IPAddress(host) != nil {
            throw ValidationError("\(host): not a host name (IP literals need no resolving)")
        }
    }

    func run() throws {
        let policy: ResolutionPolicy
        switch Result(catching: { () throws(CurlError) in try resolver.settings().policy(transport: resolver.transport()) }) {
        case .success(let made): policy = made
        case .failure(let error):
            DescriptorWriter.standardError.write("ipcurl: \(error)\n")
            throw ExitCode(error.exitCode)
        }
        if verbose { policy.note = { DescriptorWriter.standardError.write(DecisionLog.notes([$0])) } }
        var items: [ResolveListing.Item] = []
        for (host, result) in zip(hosts, policy.resolve(hosts: hosts, port: port)) {
            switch result {
            case .success(let resolution):
                if verbose { DescriptorWriter.standardError.write(DecisionLog.answer(resolution, host: host)) }
            case .failure(let error):
                DescriptorWriter.standardError.write("ipcurl: \(error)\n")
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
