import CurlKit
import HTTPDNS

/// One URL of a command line as given: its pattern, the output and the upload paired with it, and its operation
/// (the part of the command line between `--next`s).
public struct URLSlot: Sendable {
    public let url: String
    /// `-o FILE`, or `nil` for stdout.
    public let output: String?
    /// `-O`: the file is named after the URL.
    public let remoteName: Bool
    /// The operation's index.
    public let operation: Int
    /// `-g`: `[]{}` are literal, in the URL and in the upload's name.
    public let globoff: Bool
    /// `-T FILE` (a pattern globbed as curl globs it), or `nil` when this URL uploads nothing.
    public let upload: String?

    public init(url: String, output: String?, remoteName: Bool, operation: Int, globoff: Bool, upload: String? = nil) {
        (self.url, self.output, self.remoteName, self.operation, self.globoff) = (url, output, remoteName, operation, globoff)
        self.upload = upload
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
    /// The file `-T` uploads to this URL (`-` and `.` are stdin), after globbing; `nil` for none.
    public let upload: String?
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
    /// `--rate`: the least time between the starts of two transfers, in milliseconds; serial transfers only, as
    /// curl ignores it with `-Z`.
    public var startIntervalMS: Int?

    public init(operations: [Operation]) { self.operations = operations }

    /// The transfers of `slots` in order, each glob parsed here and expanded one URL at a time as the run asks
    /// (`-g` keeps a slot as it is); a pattern that does not parse is told to its operation's diagnostics and
    /// returned. A slot with a globbed `-T` pattern runs every URL of its pattern for the first file, then for the
    /// next, as curl does.
    public func plan(_ slots: [URLSlot]) -> Result<TransferPlan, CurlError> {
        var entries: [TransferPlan.Entry] = []
        for number in slots.indices {  // not enumerated(): one generic type fewer at every start
            let slot = slots[number]
            let keptAsIs = slot.globoff || (URLGlob.isLiteral(slot.url) && slot.upload.map(URLGlob.isLiteral) ?? true)
            guard !keptAsIs else {
                entries.append(TransferPlan.Entry(slot: slot, number: number, urls: nil, uploads: nil))
                continue
            }
            do throws(CurlError) {
                let uploads = try slot.upload.map { upload throws(CurlError) in try URLGlob(upload) }
                entries.append(TransferPlan.Entry(slot: slot, number: number, urls: try URLGlob(slot.url), uploads: uploads))
            } catch {
                operations[slot.operation].diagnostics.error(error)
                return .failure(error)
            }
        }
        return .success(TransferPlan(entries))
    }

    /// Runs the transfers of `plan`, each made when its turn comes and its request built with `request`, and
    /// returns the failure that decides curl's exit code for them (``FetchBatch``); every failure has been told by
    /// then. A request that cannot be built (two methods) or whose `-T` file cannot be opened ends the run with its
    /// error, as a transfer curl cannot set up ends curl's.
    public func run(_ plan: TransferPlan,
                    request: @escaping @Sendable (PlannedTransfer, Diagnostics) throws(CurlError) -> FetchRequest) -> CurlError? {
        let inParallel = FetchBatch.runsInParallel(count: plan.count, parallel: parallel)
        let share = CommandShare(parallel: inParallel)
        let gate = inParallel ? nil : startIntervalMS.map(StartGate.init(milliseconds:))
        return FetchBatch.run(plan.makeIterator(), count: plan.count, parallel: parallel, failEarly: failEarly,
                              ends: { $0.beforeStart }) { [self] transfer in
            gate?.wait()
            return run(transfer, share: share, request: request)
        }?.error
    }

    /// `--rate`'s pacing: each transfer starts at least the interval after the one before.
    private final class StartGate: @unchecked Sendable {
        private let interval: Duration
        private var last: ContinuousClock.Instant?
        init(milliseconds: Int) { interval = .milliseconds(milliseconds) }

        func wait() {
            if let last {
                let due = last + interval
                if due > .now { FetchRun.sleep(milliseconds: (due - .now).wholeMilliseconds) }
            }
            last = .now
        }
    }

    /// A transfer's error, and whether it came before the transfer started.
    private struct Failure: Sendable {
        let error: CurlError
        let beforeStart: Bool
    }

    /// One transfer: its request, the fetch, its error told, `-w` printed.
    private func run(_ transfer: PlannedTransfer, share: CommandShare,
                     request make: (PlannedTransfer, Diagnostics) throws(CurlError) -> FetchRequest) -> Failure? {
        let diagnostics = operations[transfer.operation].diagnostics
        do throws(CurlError) {
            let session = try operations[transfer.operation].session.get()
            var request: FetchRequest
            do throws(CurlError) { request = try make(transfer, diagnostics) } catch {
                diagnostics.error(error)
                return Failure(error: error, beforeStart: true)
            }
            if let error = request.unopenedUpload {
                // As curl: the transfer never starts, its -w line tells so (libcurl's message), and the run ends.
                diagnostics.error(error)
                var report = TransferReport(url: request.protocols.absolute(request.url))
                (report.url, report.exitCode, report.errorMessage) = (request.url, error.exitCode, CurlError.readError.message)
                printWriteOut(request.writeOut, report, transfer, diagnostics)
                return Failure(error: error, beforeStart: true)
            }
            // The run's trust, limits and families are the session's, made once per operation.
            request.template.transport = session.transport
            request.template.families = session.settings.families
            request.trace = trace
            let outcome = Fetch.run(request, session: session, share: share)
            if let error = outcome.error { diagnostics.error(error) }
            printWriteOut(request.writeOut, outcome.report, transfer, diagnostics)
            return outcome.error.map { Failure(error: $0, beforeStart: false) }
        } catch {
            diagnostics.error(error)
            return Failure(error: error, beforeStart: false)
        }
    }

    /// Prints `format` (`-w`), if any, with `report` for `transfer`.
    private func printWriteOut(_ format: String?, _ report: TransferReport, _ transfer: PlannedTransfer, _ diagnostics: Diagnostics) {
        guard let format else { return }
        var report = report
        report.urlNumber = transfer.urlNumber
        if format.lowercased().contains("%{json}") { report.curlVersion = CurlRuntime.versionLine }
        WriteOutPrinter.print(format, report: report, diagnostics: diagnostics)
    }
}
