#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock on the heap: a class around a `pthread_mutex_t` that never moves, so the mutex is not
/// a stored property passed as `&mutex` (which Swift may copy). A pthread lock rather than `Synchronization.Mutex`:
/// ThreadSanitizer (make sanitize) sees the ordering a pthread lock gives, while it takes accesses under Mutex's
/// futex for races.
final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
