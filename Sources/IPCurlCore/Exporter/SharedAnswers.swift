import CurlKit
import HTTPDNS
import Locking

/// The answers an exporter's probes share: each `host:port` is resolved by one probe at a time (the others wait for
/// its answer instead of asking HTTPDNS too, each at most until its own time limit ends), and the answer serves
/// every probe until its TTL ends. A failed lookup is not kept: the next probe asks again. At most
/// ``maximumNames`` names are held; past that, the answers that expire first go.
/// - SeeAlso: ``ResolverSession`` (each miss is resolved by a session of its own, with the on-disk cache, fallback
///   and validation rules of every lookup); `pthread_cond_timedwait(3)`.
final class SharedAnswers: @unchecked Sendable {
    /// The most names held at once.
    static let maximumNames = 10_000

    private struct Entry {
        var lookup: NameLookup
        var expires: ContinuousClock.Instant
    }

    private let lock = Lock()
    private var entries: [String: Entry] = [:]
    private var resolving: Set<String> = []

    /// The answer for `host`:`port`: a held one (as a cache hit that cost no lookup), else `resolve`'s, run here while
    /// other probes of the name wait for it. A probe that waits for another's lookup past `budget` fails as a lone
    /// probe whose lookup ran out of time does (exit 28, "Operation timed out after … while resolving HOST").
    func lookup(host: String, port: Int, within budget: TimeBudget,
                _ resolve: () throws(CurlError) -> NameLookup) throws(CurlError) -> NameLookup {
        let key = "\(host):\(port)"
        let held = try lock.locked { () throws(CurlError) -> NameLookup? in
            while true {
                if let entry = entries[key], entry.expires > .now {
                    var resolution = entry.lookup.resolution
                    resolution.cache = .hit(remaining: UInt32(max(0, (entry.expires - .now) / .seconds(1))))
                    return NameLookup(resolution: resolution, microseconds: 0)
                }
                guard resolving.contains(key) else { break }
                if budget.isSpent { throw budget.timedOut(resolving: host) }
                _ = lock.wait(until: budget.deadline)
            }
            resolving.insert(key)
            return nil
        }
        if let held { return held }
        let result = Result { () throws(CurlError) in try resolve() }
        lock.locked {
            resolving.remove(key)
            if case .success(let lookup) = result, let ttl = lookup.resolution.answer?.ttl, ttl > 0 {
                if entries.count >= Self.maximumNames { trim() }
                entries[key] = Entry(lookup: lookup, expires: .now + .seconds(Int(ttl)))
            }
            lock.broadcast()
        }
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
