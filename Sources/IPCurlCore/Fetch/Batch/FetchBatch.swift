#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPDNS

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

    /// Runs `transfer` for `0..<count` and returns the failure that decides the run's exit code: the last
    /// transfer's when serial, the first failed one's in command-line order when parallel; `transfer` returns
    /// each transfer's failure, `nil` for success. A failure `ends` tells ends the run as `--fail-early` does.
    public static func run<Failure: Sendable>(count: Int, parallel: Int?, failEarly: Bool,
                                              ends: @escaping @Sendable (Failure) -> Bool = { _ in false },
                                              _ transfer: @escaping @Sendable (Int) -> Failure?) -> Failure? {
        guard let parallel, runsInParallel(count: count, parallel: parallel) else {
            var last: Failure?
            for index in 0..<count {
                last = transfer(index)
                if let last, failEarly || ends(last) { return last }
            }
            return last
        }
        let queue = WorkQueue<Failure>(count: count, failEarly: failEarly, ends: ends)
        let workers = (0..<min(parallel, count)).map { _ in
            BackgroundTask<Void> {
                while let index = queue.next() { queue.finish(index, failure: transfer(index)) }
            }
        }
        for worker in workers { worker.wait() }
        return queue.firstFailure
    }
}

/// The next transfer to start and the codes of finished ones, shared by the parallel workers.
private final class WorkQueue<Failure: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    private var nextIndex = 0
    private var failures: [Failure?]
    private var stopped = false
    private let count: Int
    private let failEarly: Bool
    private let ends: @Sendable (Failure) -> Bool

    init(count: Int, failEarly: Bool, ends: @escaping @Sendable (Failure) -> Bool) {
        self.count = count
        self.failEarly = failEarly
        self.ends = ends
        failures = Array(repeating: nil, count: count)
    }

    func next() -> Int? {
        lock.locked {
            guard !stopped, nextIndex < count else { return nil }
            nextIndex += 1
            return nextIndex - 1
        }
    }

    func finish(_ index: Int, failure: Failure?) {
        lock.locked {
            failures[index] = failure
            if let failure, failEarly || ends(failure) { stopped = true }
        }
    }

    var firstFailure: Failure? { lock.locked { failures.lazy.compactMap { $0 }.first } }
}
