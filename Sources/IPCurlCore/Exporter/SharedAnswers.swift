#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS

/// The answers an exporter's probes share: each `host:port` is resolved by one probe at a time (the others wait for
/// its answer instead of asking HTTPDNS too), and the answer serves every probe until its TTL ends. A failed lookup
/// is not kept: the next probe asks again. At most ``maximumNames`` names are held; past that, the answers that
/// expire first go.
/// - SeeAlso: ``ResolverSession`` (each miss is resolved by a session of its own, with the on-disk cache, fallback
///   and validation rules of every lookup); `pthread_cond_wait(3)`.
final class SharedAnswers: @unchecked Sendable {
    /// The most names held at once.
    static let maximumNames = 10_000

    private struct Entry {
        var lookup: NameLookup
        var expires: ContinuousClock.Instant
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var entries: [String: Entry] = [:]
    private var resolving: Set<String> = []

    init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        changed.initialize(to: pthread_cond_t())
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    /// The answer for `host`:`port`: a held one (as a cache hit that cost no lookup), else `resolve`'s, run here while
    /// other probes of the name wait for it.
    func lookup(host: String, port: Int, _ resolve: () throws(CurlError) -> NameLookup) throws(CurlError) -> NameLookup {
        let key = "\(host):\(port)"
        pthread_mutex_lock(mutex)
        while true {
            if let entry = entries[key], entry.expires > .now {
                pthread_mutex_unlock(mutex)
                var resolution = entry.lookup.resolution
                resolution.cache = .hit(remaining: UInt32(max(0, (entry.expires - .now) / .seconds(1))))
                return NameLookup(resolution: resolution, microseconds: 0)
            }
            guard resolving.contains(key) else { break }
            pthread_cond_wait(changed, mutex)
        }
        resolving.insert(key)
        pthread_mutex_unlock(mutex)
        let result = Result { () throws(CurlError) in try resolve() }
        pthread_mutex_lock(mutex)
        resolving.remove(key)
        if case .success(let lookup) = result, let ttl = lookup.resolution.answer?.ttl, ttl > 0 {
            if entries.count >= Self.maximumNames { trim() }
            entries[key] = Entry(lookup: lookup, expires: .now + .seconds(Int(ttl)))
        }
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
        return try result.get()
    }

    /// Drops expired answers, then the tenth that expire first (under the lock).
    private func trim() {
        let now = ContinuousClock.now
        entries = entries.filter { $0.value.expires > now }
        guard entries.count >= Self.maximumNames else { return }
        for key in entries.sorted(by: { $0.value.expires < $1.value.expires }).prefix(Self.maximumNames / 10).map(\.key) {
            entries[key] = nil
        }
    }
}
