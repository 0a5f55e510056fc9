import ArgumentParser
import CurlKit
import IPCurlCore

/// `ipcurl [OPTIONS] URL`: one IP-direct request, output like curl's.
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch URL IP-direct (the default: 'ipcurl URL' means 'ipcurl fetch URL')."
    )

    @OptionGroup var resolver: ResolverOptions
    @OptionGroup var transfer: TransferOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var follow: FollowOptions

    @Argument(help: "The http:// or https:// URL to fetch.")
    var url: String

    func run() throws {
        let request: FetchRequest
        do {
            request = try makeRequest()
        } catch {
            report(error)
            throw ExitCode(error.exitCode)
        }
        let outcome = Fetch.run(request)
        if let error = outcome.error { report(error) }
        if let format = request.writeOut {
            var report = outcome.report
            if format.lowercased().contains("%{json}") { report.curlVersion = CurlRuntime.versionLine }
            WriteOutPrinter.print(format, report: report)
        }
        if let error = outcome.error { throw ExitCode(error.exitCode) }
    }

    private func makeRequest() throws(CurlError) -> FetchRequest {
        var request = FetchRequest(url: url)
        request.transport = try resolver.transport()
        request.resolver = try resolver.settings()
        try transfer.apply(to: &request, arguments: Array(CommandLine.arguments.dropFirst()))
        try output.apply(to: &request)
        follow.apply(to: &request)
        if transfer.user != nil { ArgumentScrubber.blankValues(short: "u", long: "--user") }
        return request
    }

    /// Prints `error` unless `-s` hides it; usage errors always print, as curl's option errors do.
    private func report(_ error: CurlError) {
        if output.showsErrors || error == .usage("") { DescriptorWriter.standardError.write("ipcurl: \(error)\n") }
    }
}
