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
        if let format = request.writeOut { WriteOutPrinter.print(format, report: outcome.report) }
        if let error = outcome.error { throw ExitCode(error.exitCode) }
    }

    private func makeRequest() throws(CurlError) -> FetchRequest {
        var request = FetchRequest(url: url)
        request.transport = try resolver.transport()
        request.resolver = try resolver.settings()
        request.method = transfer.method
        request.headers = transfer.headers
        request.outputPath = transfer.output
        request.includeHeaders = transfer.include
        request.verbose = transfer.verbose
        request.showsWarnings = !transfer.silent
        if !transfer.data.isEmpty { request.body = try FormData.join(transfer.data) }
        if let format = transfer.writeOut {
            request.writeOut = format.hasPrefix("@")
                ? String(decoding: try LocalFiles.read(String(format.dropFirst())), as: UTF8.self) : format
        }
        return request
    }

    /// Prints `error` unless `-s` hides it; usage errors always print, as curl's option errors do.
    private func report(_ error: CurlError) {
        if transfer.showsErrors || error == .usage("") { DescriptorWriter.standardError.write("ipcurl: \(error)\n") }
    }
}
