#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Work running on its own POSIX thread, joined with ``wait()``: the serve-stale refresh that asks HTTPDNS while
/// the request's transfer goes on. A plain thread keeps Foundation and Dispatch out of the binary.
///
/// The work must build its own libcurl handles; easy and multi handles never cross threads.
/// - SeeAlso: `pthread_create(3)`, `pthread_join(3)`.
public final class BackgroundTask<Value: Sendable> {
    private let result = ResultSlot<Value>()
    private var thread: pthread_t?
    private var abandoned = false

    /// Starts `work` at once; if no thread can be started it runs here, before `init` returns.
    public init(_ work: @escaping @Sendable () -> Value) {
        let slot = result
        let job = ThreadJob {
            slot.value = work()
            sem_post(slot.done)
        }
        thread = job.start()
        if thread == nil { job.run() }
    }

    /// Waits for the work to finish and returns its value. Not after ``wait(until:)`` gave up on it.
    public func wait() -> Value {
        precondition(!abandoned, "the work was abandoned by wait(until:)")
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
        return result.value!
    }

    /// Waits at most until `deadline` (`nil`: no limit) and returns the value, or `nil` when the work has not
    /// finished by then; the thread is then left to finish on its own and its value is dropped.
    ///
    /// `sem_timedwait` measures against the wall clock, so the wait goes in slices of at most 100 ms, each
    /// checked against the monotonic `deadline`: a wall clock that jumps cannot stretch or cut it.
    public func wait(until deadline: ContinuousClock.Instant?) -> Value? {
        guard let deadline, thread != nil else { return wait() }
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            let slice = min(left, .milliseconds(100))
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            let total = Int64(now.tv_nsec) + slice.components.seconds * 1_000_000_000 + slice.components.attoseconds / 1_000_000_000
            var until = timespec(tv_sec: now.tv_sec + Int(total / 1_000_000_000), tv_nsec: Int(total % 1_000_000_000))
            if sem_timedwait(result.done, &until) == 0 { return wait() }
            guard errno == EINTR || errno == ETIMEDOUT else { break }
        }
        if sem_trywait(result.done) == 0 { return wait() }  // finished at the last moment
        if let thread { pthread_detach(thread) }
        thread = nil
        abandoned = true
        return nil
    }

    deinit { if let thread { pthread_join(thread, nil) } }
}

@available(*, unavailable, message: "join a task from the thread that started it")
extension BackgroundTask: Sendable {}

/// The value a thread leaves behind; written before ``done`` is posted and read only after waiting on it or
/// after `pthread_join`.
private final class ResultSlot<Value>: @unchecked Sendable {
    var value: Value?
    let done: UnsafeMutablePointer<sem_t> = {
        let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
        return semaphore
    }()

    deinit {
        sem_destroy(done)
        done.deallocate()
    }
}

/// A closure handed to a new thread through `pthread_create`'s context pointer.
private final class ThreadJob: @unchecked Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }

    /// Starts a thread running ``run``; `nil` when the system refused.
    func start() -> pthread_t? {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        // The thread starts with SIGINT and SIGTERM blocked (a new thread inherits the mask), so they always reach
        // the main thread, whose handler knows which temporary files to remove.
        var hold = sigset_t(), previous = sigset_t()
        sigemptyset(&hold)
        sigaddset(&hold, SIGINT)
        sigaddset(&hold, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &hold, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        guard pthread_create(&thread, nil, threadJobEntry, context) == 0 else {
            Unmanaged<ThreadJob>.fromOpaque(context).release()
            return nil
        }
        return thread
    }
}

private func threadJobEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadJob>.fromOpaque(context!).takeRetainedValue().run()
    return nil
}
