import CurlKit
import IPCurlCore

/// `ipcurl [OPTIONS] URL...`: IP-direct requests, output like curl's; each URL in order, operations split by `--next`.
enum FetchCommand {
    /// Runs every transfer of `line` and returns the exit code: the last failed transfer's, as curl's.
    static func run(_ line: FetchCommandLine) -> Int32 {
        var code: Int32 = 0
        var ranAny = false
        for operation in line.operations {
            let slots = operation.urls.transfers
            if slots.isEmpty, operation.urls.slots.isEmpty, line.operations.count == 1 {
                DescriptorWriter.standardError.write("ipcurl: no URL specified\n")
                return 2
            }
            if operation.urls.hasUnusedOutputs, !slots.isEmpty, !operation.output.silent {
                DescriptorWriter.standardError.write("ipcurl: warning: Got more output options than URLs\n")
            }
            for slot in slots {
                ranAny = true
                let result = transfer(slot, operation)
                if result != 0 { code = result }
            }
        }
        if !ranAny, code == 0 {
            DescriptorWriter.standardError.write("ipcurl: no URL specified\n")
            return 2
        }
        return code
    }

    /// One URL of an operation: its request built from the operation's options, run, `-w` printed.
    private static func transfer(_ slot: URLList.Slot, _ operation: FetchOperation) -> Int32 {
        let request: FetchRequest
        do {
            request = try makeRequest(slot, operation)
        } catch {
            report(error, operation)
            return error.exitCode
        }
        let outcome = Fetch.run(request)
        if let error = outcome.error { report(error, operation) }
        if let format = request.writeOut {
            var report = outcome.report
            if format.lowercased().contains("%{json}") { report.curlVersion = CurlRuntime.versionLine }
            WriteOutPrinter.print(format, report: report)
        }
        return outcome.error?.exitCode ?? 0
    }

    private static func makeRequest(_ slot: URLList.Slot, _ operation: FetchOperation) throws(CurlError) -> FetchRequest {
        var request = FetchRequest(url: slot.url ?? "")
        request.transport = try operation.resolver.transport()
        request.resolver = try operation.resolver.settings()
        try operation.transfer.apply(to: &request)
        request.outputPath = slot.output
        if slot.remoteName { request.outputPath = try URLList.remoteName(of: request.url) }
        try operation.output.apply(to: &request)
        operation.follow.apply(to: &request)
        try operation.tls.apply(to: &request)
        try operation.proxy.apply(to: &request)
        return request
    }

    /// Prints `error` unless `-s` hides it; usage errors always print, as curl's option errors do.
    private static func report(_ error: CurlError, _ operation: FetchOperation) {
        if operation.output.showsErrors || error == .usage("") { DescriptorWriter.standardError.write("ipcurl: \(error)\n") }
    }
}
