import CurlKit
import HTTPDNS

/// One URL of a command line as given: its pattern, the output paired with it, and its operation (the part of the
/// command line between `--next`s).
public struct URLSlot: Sendable {
    public let url: String
    /// `-o FILE`, or `nil` for stdout.
    public let output: String?
    /// `-O`: the file is named after the URL.
    public let remoteName: Bool
    /// The operation's index.
    public let operation: Int
    /// `-g`: `[]{}` are literal.
    public let globoff: Bool

    public init(url: String, output: String?, remoteName: Bool, operation: Int, globoff: Bool) {
        (self.url, self.output, self.remoteName, self.operation, self.globoff) = (url, output, remoteName, operation, globoff)
    }
}

/// One transfer to run: the URL after globbing, its output name after `#N` substitution, its operation.
public struct PlannedTransfer: Sendable {
    public let url: String
    public let output: String?
    public let remoteName: Bool
    public let operation: Int
    /// `%{urlnum}`: the URL's place on the command line (0-based); a glob's URLs share their pattern's.
    public let urlNumber: Int
}

/// The fetch orchestrator: every transfer of a command line, run as curl runs them — in order, or `-Z` up to
/// `--parallel-max` at once — each operation's transfers sharing one ``ResolverSession``, each transfer's error
/// told when it ends, its `-w` printed after it. The command line supplies the slots and, per transfer, the
/// request its options describe.
/// - SeeAlso: curl's `--next`, `-Z/--parallel`, `--fail-early`, `-g/--globoff`, `-w/--write-out`.
public struct FetchJob: Sendable {
    /// One operation's share of the run: its diagnostics (`-s`, `-S`, `-v`) and its session, or why it has none.
    public struct Operation: Sendable {
        public let diagnostics: Diagnostics
        public let session: Result<ResolverSession, CurlError>

        public init(diagnostics: Diagnostics, session: Result<ResolverSession, CurlError>) {
            self.diagnostics = diagnostics
            self.session = session
        }
    }

    public let operations: [Operation]
    /// `-Z`: most transfers at once (`--parallel-max`); `nil` runs them in order.
    public var parallel: Int?
    /// `--fail-early`.
    public var failEarly = false
    /// `--trace`/`--trace-ascii`, shared by every transfer.
    public var trace: TraceOutput?

    public init(operations: [Operation]) { self.operations = operations }

    /// The transfers of `slots` in order, each glob expanded (`-g` keeps a slot as it is); a pattern that does not
    /// parse is told to its operation's diagnostics and returned.
    public func plan(_ slots: [URLSlot]) -> Result<[PlannedTransfer], CurlError> {
        var planned: [PlannedTransfer] = []
        for (number, slot) in slots.enumerated() {
            guard !slot.globoff else {
                planned.append(PlannedTransfer(url: slot.url, output: slot.output, remoteName: slot.remoteName,
                                               operation: slot.operation, urlNumber: number))
                continue
            }
            let glob: URLGlob
            do { glob = try URLGlob(slot.url) } catch {
                operations[slot.operation].diagnostics.error(error)
                return .failure(error)
            }
            for index in 0..<glob.count {
                let (expanded, values) = glob.url(index)
                planned.append(PlannedTransfer(url: expanded, output: slot.output.map { URLGlob.substitute(into: $0, values: values) },
                                               remoteName: slot.remoteName, operation: slot.operation, urlNumber: number))
            }
        }
        return .success(planned)
    }

    /// Runs `transfers`, building each one's request with `request`, and returns the failure that decides curl's
    /// exit code for them (``FetchBatch``); every failure has been told by then.
    public func run(_ transfers: [PlannedTransfer],
                    request: @escaping @Sendable (PlannedTransfer, Diagnostics) throws(CurlError) -> FetchRequest) -> CurlError? {
        let share = CommandShare(parallel: (parallel ?? 1) > 1 && transfers.count > 1)
        return FetchBatch.run(count: transfers.count, parallel: parallel, failEarly: failEarly) { [self] index in
            run(transfers[index], share: share, request: request)
        }
    }

    /// One transfer: its request, the fetch, its error told, `-w` printed.
    private func run(_ transfer: PlannedTransfer, share: CommandShare,
                     request make: (PlannedTransfer, Diagnostics) throws(CurlError) -> FetchRequest) -> CurlError? {
        let diagnostics = operations[transfer.operation].diagnostics
        do throws(CurlError) {
            let session = try operations[transfer.operation].session.get()
            var request = try make(transfer, diagnostics)
            // The run's trust, limits and families are the session's, made once per operation.
            request.template.transport = session.transport
            request.template.families = session.settings.families
            request.trace = trace
            let outcome = Fetch.run(request, session: session, share: share)
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
}
