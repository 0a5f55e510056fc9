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

    /// Runs every transfer of `line`; each transfer's error is told when it ends, and the ending carries curl's
    /// error for several transfers (``FetchBatch``).
    static func run(_ line: FetchCommandLine, _ base: Diagnostics) -> Completion {
        if let path = line.stderrPath {
            // curl's --stderr: everything meant for stderr goes to FILE ("-": stdout) from here on.
            let descriptor = path == "-" ? 1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
            if descriptor >= 0 { dup2(descriptor, 2) }
        }
        var planned: [Planned] = []
        var urlNumber = 0
        let operations = line.operations.map { operation in
            var operation = operation
            operation.output = operation.output.with(globalsFrom: line.globalOutput)
            return operation
        }
        let diagnostics = operations.map { $0.output.diagnostics(base) }
        for (number, operation) in operations.enumerated() {
            let slots = operation.urls.transfers
            if operation.urls.hasUnusedOutputs, !slots.isEmpty { diagnostics[number].warning("Got more output options than URLs") }
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
                    diagnostics[number].error(error)
                    return .reported(error)
                }
                for index in 0..<glob.count {
                    let (expanded, values) = glob.url(index)
                    let output = slot.output.map { URLGlob.substitute(into: $0, values: values) }
                    planned.append(Planned(url: expanded, output: output, remoteName: slot.remoteName, operation: number,
                                           urlNumber: urlNumber))
                }
            }
        }
        guard !planned.isEmpty else { return .refused(.usage("no URL specified (see 'ipcurl --help')")) }
        var trace: TraceOutput?
        if let (path, asciiOnly) = line.trace {
            let descriptor = path == "-" ? 1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else { return .refused(CurlError.writeError.with(message: "Failed to create/open output: \(path)")) }
            trace = TraceOutput(descriptor: descriptor, asciiOnly: asciiOnly, stamped: line.traceTime)
        }
        let transfers = planned, dump = trace
        // The transfers of one operation share a session, serial or parallel, so each name is asked once per run.
        let sessions = SharedSessions(operations.enumerated().map { number, operation in
            Result { () throws(CurlError) in
                let transport = try operation.resolver.transport()
                return ResolverSession(settings: try operation.resolver.settings(), transport: transport,
                                       diagnostics: diagnostics[number])
            }
        })
        let failure = FetchBatch.run(count: planned.count, parallel: line.parallel ? line.parallelMax : nil,
                                     failEarly: line.failEarly) { index in
            let transfer = transfers[index]
            return run(transfer, operations[transfer.operation], diagnostics[transfer.operation],
                       session: sessions.session(transfer.operation), trace: dump)
        }
        return failure.map(Completion.reported) ?? .success
    }

    /// One transfer: its request built from the operation's options, run, its error told, `-w` printed.
    private static func run(_ transfer: Planned, _ operation: FetchOperation, _ diagnostics: Diagnostics,
                            session: Result<ResolverSession, CurlError>, trace: TraceOutput?) -> CurlError? {
        var request: FetchRequest
        do throws(CurlError) {
            let session = try session.get()
            request = try makeRequest(transfer, operation, diagnostics)
            request.template.families = session.settings.families
            request.trace = trace
            let outcome = Fetch.run(request, session: session)
            if let error = outcome.error { diagnostics.error(error) }
            if let format = request.writeOut {
                var report = outcome.report
                report.urlNumber = transfer.urlNumber
                if format.lowercased().contains("%{json}") { report.curlVersion = CurlRuntime.versionLine }
                WriteOutPrinter.print(format, report: report, diagnostics: diagnostics)
            }
            return outcome.error
        } catch {
            diagnostics.error(error)
            return error
        }
    }

    private static func makeRequest(_ transfer: Planned, _ operation: FetchOperation,
                                    _ diagnostics: Diagnostics) throws(CurlError) -> FetchRequest {
        var request = FetchRequest(url: transfer.url)
        try operation.transfer.apply(to: &request, diagnostics: diagnostics)
        request.template.transport = try operation.resolver.transport()
        request.outputPath = transfer.output.map(operation.output.placed)
        if transfer.remoteName { request.outputPath = operation.output.placed(try URLList.remoteName(of: request.url)) }
        try operation.output.apply(to: &request)
        operation.follow.apply(to: &request)
        try operation.tls.apply(to: &request)
        try operation.proxy.apply(to: &request)
        request.template.tuning = operation.tuning
        return request
    }
}

/// The operations' sessions, by operation index (a session locks itself for parallel transfers).
private final class SharedSessions: @unchecked Sendable {
    private let sessions: [Result<ResolverSession, CurlError>]
    init(_ sessions: [Result<ResolverSession, CurlError>]) { self.sessions = sessions }
    func session(_ operation: Int) -> Result<ResolverSession, CurlError> { sessions[operation] }
}
