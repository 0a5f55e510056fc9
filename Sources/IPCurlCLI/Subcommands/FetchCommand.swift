#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS
import IPCurlCore

/// `ipcurl [OPTIONS] URL...`: the adapter from a fetch command line to ``FetchJob``: each operation's diagnostics
/// and resolver session, the URL slots in command-line order, and each transfer's request from its operation's
/// options.
enum FetchCommand {
    static func run(_ line: FetchCommandLine, _ base: Diagnostics) -> Completion {
        if let path = line.stderrPath {
            // curl's --stderr: everything meant for stderr goes to FILE ("-": stdout) from here on; a file another
            // user planted is refused (PlantedFiles), one that cannot be opened leaves stderr where it was.
            let descriptor: Int32
            do throws(CurlError) { descriptor = path == "-" ? 1 : try PlantedFiles.open(path, O_WRONLY | O_CREAT | O_TRUNC) } catch {
                return .refused(error)
            }
            if descriptor >= 0 { dup2(descriptor, 2) }
        }
        if line.manual { return Commands.printListing(Documentation.manualText()) }
        if line.operations.contains(where: \.tls.listsEngines) {
            let engines = (try? EasyHandle())?.sslEngines ?? []
            return Commands.printListing("Build-time engines:\n" + (engines.isEmpty ? "  <none>\n" : engines.map { "  \($0)\n" }.joined()))
        }
        let operations = line.operations.map { operation in
            var operation = operation
            operation.output = operation.output.with(globalsFrom: line.globalOutput)
            return operation
        }
        // The transfers of one operation share a session, serial or parallel, so each name is asked once per run.
        var job = FetchJob(operations: operations.map { operation in
            let diagnostics = operation.output.diagnostics(base)
            return FetchJob.Operation(diagnostics: diagnostics, session: Result { () throws(CurlError) in
                try operation.resolver.session(diagnostics)
            })
        })
        var slots: [URLSlot] = []
        // Index loops, not enumerated(): each enumerated sequence is one more generic type made at every start.
        for number in operations.indices {
            let operation = operations[number]
            for line in operation.ignored.warnings { job.operations[number].diagnostics.warnOnce(line) }
            let given = operation.urls.transfers, uploads = operation.transfer.uploads
            if operation.urls.hasUnusedOutputs || uploads.count > given.count, !given.isEmpty {
                job.operations[number].diagnostics.warning("Got more output options than URLs")
            }
            // As curl pairs them: the first -T goes with the first URL, the second with the second.
            slots += given.indices.map { index in
                let slot = given[index]
                return URLSlot(url: slot.url ?? "", output: slot.output, remoteName: slot.remoteName, operation: number,
                               globoff: operation.globoff,
                               upload: index < uploads.count && !uploads[index].isEmpty ? uploads[index] : nil)
            }
        }
        let transfers: TransferPlan
        switch job.plan(slots) {
        case .success(let plan): transfers = plan
        case .failure(let error): return .reported(error)
        }
        guard transfers.count > 0 else { return .refused(.usage("no URL specified (see 'ipcurl --help')")) }
        // libcurl writes each cookie jar when the run ends: checked, and claimed in a shared directory, before it starts.
        var jars = Set<String>()
        for jar in operations.compactMap(\.transfer.template.cookieJar) where jar != "-" && jars.insert(jar).inserted {
            do throws(CurlError) { try PlantedFiles.claimCookieJar(jar) } catch { return .refused(error) }
        }
        if let (path, asciiOnly) = line.trace {
            let descriptor: Int32
            do throws(CurlError) { descriptor = path == "-" ? 1 : try PlantedFiles.open(path, O_WRONLY | O_CREAT | O_TRUNC) } catch {
                return .refused(error)
            }
            guard descriptor >= 0 else { return .refused(CurlError.writeError.with(message: "Failed to create/open output: \(path)")) }
            job.trace = TraceOutput(descriptor: descriptor, asciiOnly: asciiOnly, stamped: line.traceTime)
        }
        job.parallel = line.parallel ? line.parallelMax : nil
        job.failEarly = line.failEarly
        job.startIntervalMS = line.startIntervalMS
        // Every operation's files and stdin are read once, in command-line order, before the first transfer.
        let prepared = operations.indices.map { number in
            PreparedOperation(operations[number], diagnostics: job.operations[number].diagnostics)
        }
        let failure = job.run(transfers) { transfer, diagnostics throws(CurlError) in
            try makeRequest(transfer, prepared[transfer.operation])
        }
        return failure.map(Completion.reported) ?? .success
    }

    /// One operation's options, what its inputs read and the request parts its URLs share, made once for all its
    /// transfers (a reference, so a transfer's request is built without copying the options).
    private final class PreparedOperation: Sendable {
        let operation: FetchOperation
        let inputs: TransferInputs
        /// The request every URL of the operation starts from: all but the URL's own parts.
        let base: FetchRequest
        /// Why the inputs could not be read or the shared parts made: every transfer of the operation fails with it.
        let failure: CurlError?

        init(_ operation: FetchOperation, diagnostics: Diagnostics) {
            self.operation = operation
            for warning in operation.protocols.warnings + operation.auth.warnings { diagnostics.warning(warning) }
            var inputs = TransferInputs(), base = FetchRequest(url: "")
            do throws(CurlError) {
                let conditions = try operation.conditions.resolve(diagnostics)
                inputs = try operation.transfer.readInputs(diagnostics)
                try operation.transfer.applyShared(to: &base, inputs: inputs)
                base.template.tuning = operation.tuning
                base.template.tuning.timeCondition = conditions.timeCondition
                if let line = conditions.ifNoneMatch { base.template.headers.append(line) }
                base.etagSavePath = conditions.etagSave
                operation.follow.apply(to: &base)
                try operation.tls.apply(to: &base)
                try operation.proxy.apply(to: &base)
                try operation.auth.apply(to: &base)
                operation.protocols.apply(to: &base)
                try operation.routing.apply(to: &base)
                failure = nil
            } catch {
                failure = error
            }
            (self.inputs, self.base) = (inputs, base)
        }
    }

    /// The request `prepared`'s options describe for `transfer`: the operation's shared parts, then the URL's own
    /// (its query, body or upload, and its output).
    private static func makeRequest(_ transfer: PlannedTransfer, _ prepared: PreparedOperation) throws(CurlError) -> FetchRequest {
        if let failure = prepared.failure { throw failure }
        var request = prepared.base
        request.url = transfer.url
        try prepared.operation.transfer.apply(to: &request, inputs: prepared.inputs, upload: transfer.upload)
        request.outputPath = transfer.output.map(prepared.operation.output.placed)
        // As curl: -O names the file after the URL as given, before -T appends the upload's name to it.
        if transfer.remoteName { request.outputPath = prepared.operation.output.placed(try URLList.remoteName(of: transfer.url)) }
        try prepared.operation.output.apply(to: &request)
        return request
    }
}
