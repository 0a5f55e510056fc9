#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex on the heap with a condition variable on the monotonic clock: the mutex never moves, and
/// ThreadSanitizer sees the ordering a pthread lock gives.
final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Wakes every thread in `wait(until:)`; call holding the lock.
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits for a broadcast or the monotonic `deadline`; call holding the lock (inside `locked`). Returns false
    /// once the deadline has passed.
    func wait(until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    /// The monotonic clock `milliseconds` from now.
    static func deadline(in milliseconds: Int) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let total = Int(now.tv_nsec) + (max(0, milliseconds) % 1000) * 1_000_000
        return timespec(tv_sec: now.tv_sec + max(0, milliseconds) / 1000 + total / 1_000_000_000,
                        tv_nsec: total % 1_000_000_000)
    }
}

/// The requests between entering their handler and having their response sent, and the closing of that door for
/// `HTTPServer.stop`: while stopping, responses ask for the connection to close; once closed, no handler starts.
final class RequestGate: @unchecked Sendable {
    private let lock = Lock()
    private var active = 0
    private var stopping = false
    private var closed = false

    /// Counts a request in, unless the gate has closed.
    func enter() -> Bool {
        lock.locked {
            if closed { return false }
            active += 1
            return true
        }
    }

    /// Counts a request out (its response was sent or its connection ended).
    func leave() {
        lock.locked {
            active -= 1
            if active == 0 { lock.broadcast() }
        }
    }

    var isStopping: Bool { lock.locked { stopping } }

    /// Waits up to `graceMilliseconds` for the requests inside to finish, then closes. Returns how many are still
    /// inside.
    func drain(graceMilliseconds: Int) -> Int {
        let deadline = Lock.deadline(in: graceMilliseconds)
        return lock.locked {
            stopping = true
            while active > 0 && lock.wait(until: deadline) {}
            closed = true
            return active
        }
    }
}
