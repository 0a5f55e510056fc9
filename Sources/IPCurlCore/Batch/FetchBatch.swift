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

    /// Runs `transfer` for `0..<count` and returns the exit code; `transfer` returns each transfer's exit code.
    public static func run(count: Int, parallel: Int?, failEarly: Bool,
                           _ transfer: @escaping @Sendable (Int) -> Int32) -> Int32 {
        guard let parallel, parallel > 1, count > 1 else {
            var last: Int32 = 0
            for index in 0..<count {
                last = transfer(index)
                if failEarly, last != 0 { return last }
            }
            return last
        }
        let queue = WorkQueue(count: count, failEarly: failEarly)
        let workers = (0..<min(parallel, count)).map { _ in
            BackgroundTask<Void> {
                while let index = queue.next() { queue.finish(index, code: transfer(index)) }
            }
        }
        for worker in workers { worker.wait() }
        return queue.firstFailure
    }
}

/// The next transfer to start and the codes of finished ones, shared by the parallel workers.
private final class WorkQueue: @unchecked Sendable {
    private var mutex = pthread_mutex_t()  // not Synchronization.Mutex: ThreadSanitizer can't see its futex (see FetchSession)
    private var nextIndex = 0
    private var codes: [Int32]
    private var stopped = false
    private let count: Int
    private let failEarly: Bool

    init(count: Int, failEarly: Bool) {
        self.count = count
        self.failEarly = failEarly
        codes = Array(repeating: 0, count: count)
        pthread_mutex_init(&mutex, nil)
    }

    deinit { pthread_mutex_destroy(&mutex) }

    func next() -> Int? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard !stopped, nextIndex < count else { return nil }
        nextIndex += 1
        return nextIndex - 1
    }

    func finish(_ index: Int, code: Int32) {
        pthread_mutex_lock(&mutex)
        codes[index] = code
        if code != 0, failEarly { stopped = true }
        pthread_mutex_unlock(&mutex)
    }

    var firstFailure: Int32 {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return codes.first { $0 != 0 } ?? 0
    }
}
