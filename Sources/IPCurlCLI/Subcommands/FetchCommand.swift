#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS
import IPCurlCore

/// `ipcurl [OPTIONS] URL...`: IP-direct requests, output like curl's. Every URL of every operation (split by
/// `--next`) is expanded from its glob pattern, paired with its output and run in order, or in parallel with `-Z`.
enum FetchCommand {
    /// One transfer to run: the URL after globbing, its output name after `#N` substitution, its operation.
    struct Planned: Sendable {
        let url: String
        let output: String?
        let remoteName: Bool
        let operation: Int
        /// `%{urlnum}`: the URL's place on the command line (0-based); a glob's URLs share their pattern's.
        let urlNumber: Int
    }

    /// Runs every transfer of `line` and returns curl's exit code for several transfers (``FetchBatch``).
    static func run(_ line: FetchCommandLine) -> Int32 {
        var planned: [Planned] = []
        var urlNumber = 0
        let operations = line.operations.map { operation in
            var operation = operation
            operation.output = operation.output.with(globalsFrom: line.globalOutput)
            return operation
        }
        for (number, operation) in operations.enumerated() {
            let slots = operation.urls.transfers
            if operation.urls.hasUnusedOutputs, !slots.isEmpty, !operation.output.silent {
                DescriptorWriter.standardError.write("ipcurl: warning: Got more output options than URLs\n")
            }
            for slot in slots {
                defer { urlNumber += 1 }
                let url = slot.url ?? ""
                guard !operation.globoff else {
                    planned.append(Planned(url: url, output: slot.output, remoteName: slot.remoteName, operation: number,
                                           urlNumber: urlNumber))
                    continue
                }
                let glob: URLGlob
                do { glob = try URLGlob(url) } catch {
                    report(error, operation)
                    return error.exitCode
                }
                for index in 0..<glob.count {
                    let (expanded, values) = glob.url(index)
                    let output = slot.output.map { URLGlob.substitute(into: $0, values: values) }
                    planned.append(Planned(url: expanded, output: output, remoteName: slot.remoteName, operation: number,
                                           urlNumber: urlNumber))
                }
            }
        }
        guard !planned.isEmpty else {
            DescriptorWriter.standardError.write("ipcurl: no URL specified (see 'ipcurl --help')\n")
            return 2
        }
        var trace: TraceOutput?
        if let (path, asciiOnly) = line.trace {
            let descriptor = path == "-" ? 1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else {
                DescriptorWriter.standardError.write("ipcurl: Failed to create/open output: \(path)\n")
                return 23
            }
            trace = TraceOutput(descriptor: descriptor, asciiOnly: asciiOnly, stamped: line.traceTime)
        }
        let transfers = planned, dump = trace
        // The transfers of one operation share a session, serial or parallel, so each name is asked once per run.
        let sessions = operations.map { operation in
            (try? operation.resolver.settings()).flatMap { settings in
                (try? operation.resolver.transport()).map { FetchSession(policy: settings.policy(transport: $0)) }
            }
        }
        let shared = SharedSessions(sessions)
        return FetchBatch.run(count: planned.count, parallel: line.parallel ? line.parallelMax : nil,
                              failEarly: line.failEarly) { index in
            let transfer = transfers[index]
            return run(transfer, operations[transfer.operation], session: shared.session(transfer.operation), trace: dump)
        }
    }

    /// One transfer: its request built from the operation's options, run, `-w` printed.
    private static func run(_ transfer: Planned, _ operation: FetchOperation, session: FetchSession?,
                            trace: TraceOutput?) -> Int32 {
        var request: FetchRequest
        do {
            request = try makeRequest(transfer, operation)
            request.trace = trace
        } catch {
            report(error, operation)
            return error.exitCode
        }
        let outcome = Fetch.run(request, session: session)
        if let error = outcome.error { report(error, operation) }
        if let format = request.writeOut {
            var report = outcome.report
            report.urlNumber = transfer.urlNumber
            if format.lowercased().contains("%{json}") { report.curlVersion = CurlRuntime.versionLine }
            WriteOutPrinter.print(format, report: report)
        }
        return outcome.error?.exitCode ?? 0
    }

    private static func makeRequest(_ transfer: Planned, _ operation: FetchOperation) throws(CurlError) -> FetchRequest {
        var request = FetchRequest(url: transfer.url)
        request.transport = try operation.resolver.transport()
        request.resolver = try operation.resolver.settings()
        try operation.transfer.apply(to: &request, warns: !operation.output.silent)
        request.outputPath = transfer.output.map(operation.output.placed)
        if transfer.remoteName { request.outputPath = operation.output.placed(try URLList.remoteName(of: request.url)) }
        try operation.output.apply(to: &request)
        operation.follow.apply(to: &request)
        try operation.tls.apply(to: &request)
        try operation.proxy.apply(to: &request)
        request.tuning = operation.tuning
        return request
    }

    /// Prints `error` unless `-s` hides it; usage errors always print, as curl's option errors do.
    private static func report(_ error: CurlError, _ operation: FetchOperation) {
        if operation.output.showsErrors || error == .usage("") { DescriptorWriter.standardError.write("ipcurl: \(error)\n") }
    }
}

/// The operations' sessions, by operation index (a session locks itself for parallel transfers).
private final class SharedSessions: @unchecked Sendable {
    private let sessions: [FetchSession?]
    init(_ sessions: [FetchSession?]) { self.sessions = sessions }
    func session(_ operation: Int) -> FetchSession? { operation < sessions.count ? sessions[operation] : nil }
}
