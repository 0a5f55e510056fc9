#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ipcurl's one lock: a pthread mutex and a condition variable on the monotonic clock, on the heap.
///
/// A class around pointers that never move, so no `pthread_mutex_t` is a stored property passed as `&mutex` (which
/// Swift may copy). A pthread lock rather than `Synchronization.Mutex`: ThreadSanitizer (`make sanitize`) sees the
/// ordering a pthread lock gives, while it takes accesses under Mutex's futex for races. ``locked(_:)`` holds it
/// around a closure; ``wait()``, ``wait(until:)`` and ``broadcast()`` are the condition, called holding it;
/// ``lock()`` and ``unlock()`` are for a C library's separate lock and unlock callbacks.
/// - SeeAlso: `pthread_mutex_lock(3)`, `pthread_cond_timedwait(3)`, `pthread_condattr_setclock(3)`.
public final class Lock: @unchecked Sendable {
    @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// An unlocked lock.
    public init() {
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
    @inlinable
    public func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Takes the lock, for a C callback that releases it in another call (libcurl's share lock function);
    /// Swift code uses ``locked(_:)``.
    public func lock() { pthread_mutex_lock(mutex) }

    /// Releases the lock ``lock()`` took.
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Wakes every thread in ``wait()`` or ``wait(until:)``; call holding the lock.
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// Releases the lock until a broadcast (or a spurious wake-up: wait in a loop that checks the condition), then
    /// holds it again; call holding the lock.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// As ``wait()``, but no later than `deadline`, measured on the monotonic clock. Returns false once the
    /// deadline has passed (at once for one already past), true when woken before it.
    public func wait(until deadline: ContinuousClock.Instant) -> Bool {
        let left = max(.zero, deadline - .now).components
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        // `left` is never negative; a wait of more than 2^32 s (136 years) is cut there, so the sum cannot overflow.
        let nanoseconds = Int(now.tv_nsec) + Int(left.attoseconds / 1_000_000_000)
        var end = timespec(tv_sec: now.tv_sec + Int(min(left.seconds, 1 << 32)) + nanoseconds / 1_000_000_000,
                           tv_nsec: nanoseconds % 1_000_000_000)
        return pthread_cond_timedwait(condition, mutex, &end) != ETIMEDOUT
    }
}
