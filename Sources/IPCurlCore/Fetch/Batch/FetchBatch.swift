#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPDNS
import Locking

/// Several transfers of one run, as curl runs them: one after another (the exit code is the last transfer's), or
/// with `-Z/--parallel` up to `--parallel-max` at once (the exit code is the first failed transfer's, in command-line
/// order); `--fail-early` starts no transfer after one has failed and exits with that failure's code.
///
/// Parallel transfers each run on a thread of their own, with their own libcurl handles (handles never cross
/// threads); their output interleaves on stdout as curl's does.
/// - SeeAlso: curl's `-Z/--parallel`, `--parallel-max`, `--fail-early`; `src/tool_operate.c`.
public enum FetchBatch {
    /// curl's default and largest `--parallel-max`.
    public static let defaultParallelMax = 50, largestParallelMax = 300

    /// Whether `count` transfers with `-Z`'s `parallel` (`nil` without `-Z`) run on threads of their own: with more
    /// than one of each.
    public static func runsInParallel(count: Int, parallel: Int?) -> Bool { (parallel ?? 1) > 1 && count > 1 }

    /// Runs `transfer` for `0..<count` (``run(_:count:parallel:failEarly:ends:_:)`` over the indices).
    public static func run<Failure: Sendable>(count: Int, parallel: Int?, failEarly: Bool,
                                              ends: @escaping @Sendable (Failure) -> Bool = { _ in false },
                                              _ transfer: @escaping @Sendable (Int) -> Failure?) -> Failure? {
        run((0..<count).makeIterator(), count: count, parallel: parallel, failEarly: failEarly, ends: ends, transfer)
    }

    /// Runs `transfer` for each of the `count` items `items` makes, taking each only when a transfer is about to
    /// start, and returns the failure that decides the run's exit code: the last transfer's when serial, the first
    /// failed one's in `items`' order when parallel; `transfer` returns each transfer's failure, `nil` for success. A
    /// failure `ends` tells ends the run as `--fail-early` does.
    public static func run<Items: IteratorProtocol & Sendable, Failure: Sendable>(
        _ items: Items, count: Int, parallel: Int?, failEarly: Bool, ends: @escaping @Sendable (Failure) -> Bool = { _ in false },
        _ transfer: @escaping @Sendable (Items.Element) -> Failure?
    ) -> Failure? where Items.Element: Sendable {
        guard let parallel, runsInParallel(count: count, parallel: parallel) else {
            var items = items
            var last: Failure?
            while let item = items.next() {
                last = transfer(item)
                if let last, failEarly || ends(last) { return last }
            }
            return last
        }
        let queue = WorkQueue(items, failEarly: failEarly, ends: ends)
        let workers = (0..<min(parallel, count)).map { _ in
            BackgroundTask<Void> {
                while let (index, item) = queue.next() { queue.finish(index, failure: transfer(item)) }
            }
        }
        for worker in workers { worker.wait() }
        return queue.firstFailure
    }
}

/// The items not started yet and the first failure in their order, shared by the parallel workers.
private final class WorkQueue<Items: IteratorProtocol, Failure: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    private var items: Items
    private var nextIndex = 0
    /// The failure of the lowest index so far.
    private var first: (index: Int, failure: Failure)?
    private var stopped = false
    private let failEarly: Bool
    private let ends: @Sendable (Failure) -> Bool

    init(_ items: Items, failEarly: Bool, ends: @escaping @Sendable (Failure) -> Bool) {
        self.items = items
        self.failEarly = failEarly
        self.ends = ends
    }

    /// The next item and its index, or `nil` when there is none or the run has stopped.
    func next() -> (Int, Items.Element)? {
        lock.locked {
            guard !stopped, let item = items.next() else { return nil }
            nextIndex += 1
            return (nextIndex - 1, item)
        }
    }

    func finish(_ index: Int, failure: Failure?) {
        guard let failure else { return }
        lock.locked {
            if first.map({ index < $0.index }) ?? true { first = (index, failure) }
            if failEarly || ends(failure) { stopped = true }
        }
    }

    var firstFailure: Failure? { lock.locked { first?.failure } }
}
