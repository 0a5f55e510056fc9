#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CurlKit

/// Decides how a host:port gets its addresses, in this order:
/// 1. an IP literal needs nothing, and a `--resolve` entry wins;
/// 2. a fresh cached answer is used as is; with ``staleSeconds``, an expired one is used at once while a
///    background query refreshes it;
/// 3. the HTTPDNS provider is asked, and its answer is cached for its TTL (`origin_ttl` where given);
/// 4. when every HTTPDNS server failed (error, timeout, rejected answer), the ``fallback`` resolver is asked.
///    A definite answer (NXDOMAIN, no records, no address of the wanted family) is trusted, not second-guessed
///    by the system resolver that HTTPDNS is there to avoid.
///
/// Every answer is then restricted to ``families`` (IPv4 first) before it becomes a ``ResolveEntry``.
/// It deals only in validated values, never in libcurl types. Not `Sendable`: it owns the provider's handles.
/// - SeeAlso: curl's `--resolve`, `-4`, `-6`; `CURLOPT_RESOLVE`.
public final class ResolutionPolicy {
    /// The user's `--resolve` entries.
    public let pinned: StaticResolver
    /// `-4`/`-6`: the address families entries may hold.
    public var families = AddressFamilies.both
    /// The persistent answer cache; `nil` turns caching off.
    public var cache: AnswerCache?
    /// `--dns-stale`: seconds after expiry during which a cached answer is still served while it is refreshed.
    public var staleSeconds: UInt32 = 0
    /// Asked when the provider failed; `nil` (the default) makes a provider failure final.
    public var fallback: (any Resolver)?
    /// After this instant the fallback is not started (the request's `--max-time` has run out).
    public var deadline: ContinuousClock.Instant?
    /// Receives one `-v` line (without prefix or newline) per cache problem and background refresh.
    public var note: (String) -> Void = { _ in }

    private let provider: String
    private let makeResolver: (@Sendable () throws(CurlError) -> any Resolver)?
    private var resolver: (any Resolver)?
    private var refresh: BackgroundTask<[String]>?

    /// A policy whose provider is built by `makeResolver` on first need (and again on the background refresh
    /// thread); `providerConfiguration` names the provider's settings in cache keys and must hold no secret.
    public init(staticEntries: [ResolveEntry], providerConfiguration: String,
                makeResolver: @escaping @Sendable () throws(CurlError) -> any Resolver) {
        pinned = StaticResolver(staticEntries)
        provider = AnswerCache.providerDigest(providerConfiguration)
        self.makeResolver = makeResolver
    }

    /// A policy over an already built `resolver`; it cannot refresh stale answers in the background.
    public init(staticEntries: [ResolveEntry], resolver: any Resolver, providerConfiguration: String = "") {
        pinned = StaticResolver(staticEntries)
        provider = AnswerCache.providerDigest(providerConfiguration)
        self.resolver = resolver
        makeResolver = nil
    }

    /// Resolves `host` for a connection to `port`. Throws exit 6 for a host that is not a plain DNS name.
    public func resolve(host: String, port: Int) throws(CurlError) -> Resolution {
        try resolve(hosts: [host], port: port)[0].get()
    }

    /// Resolves several hosts for `port`, in order, letting the provider batch the ones that need asking.
    public func resolve(hosts: [String], port: Int) -> [Result<Resolution, CurlError>] {
        var results: [Result<Resolution, CurlError>?] = []
        var pending: [(index: Int, name: String)] = []
        var stale: [String] = []
        let now = Self.now()
        for host in hosts {
            if IPAddress(host) != nil {
                results.append(.success(Resolution(entry: nil, answer: nil)))
            } else if let name = HostName.normalized(host) {
                if let fixed = pinned.resolution(host: name, port: port) {
                    results.append(usable(fixed.answer!, port: port, cache: .off))
                } else if let (answer, use) = cached(name, now: now) {
                    if case .stale = use { stale.append(name) }
                    results.append(usable(answer, port: port, cache: use))
                } else {
                    pending.append((results.count, name))
                    results.append(nil)
                }
            } else {
                results.append(.failure(CurlError.couldntResolveHost.with(
                    message: "Could not resolve host: \(ResolveEntry.quoted(host)) is not a plain DNS name")))
            }
        }
        if !pending.isEmpty {
            let answers: [Result<ResolverAnswer, CurlError>]
            do { answers = try activeResolver().resolve(hosts: pending.map(\.name), port: port) } catch {
                answers = pending.map { _ in .failure(error) }
            }
            var fresh: [CacheRecord] = []
            for (slot, answer) in zip(pending, answers) {
                if case .success(let answer) = answer { fresh += Self.records(for: answer, provider: provider, now: now) }
                results[slot.index] = answer.flatMap { usable($0, port: port, cache: cache == nil ? .off : .miss) }
                    .flatMapError { fallingBack(slot.name, port: port, after: $0) }
            }
            save(fresh)
        }
        if !stale.isEmpty { startRefresh(stale, port: port) }
        return zip(hosts, results).map { host, result in
            result ?? .failure(ResolverFailure.couldNotResolve(host, "the resolver gave no answer"))
        }
    }

    /// Waits for a background refresh, if one runs, and returns its `-v` lines. A policy that goes away waits too.
    public func finishRefresh() -> [String] {
        defer { refresh = nil }
        return refresh?.wait() ?? []
    }

    // MARK: Steps

    private func activeResolver() throws(CurlError) -> any Resolver {
        if let resolver { return resolver }
        let made = try makeResolver!()
        resolver = made
        return made
    }

    /// The resolution for `answer` restricted to ``families``, or exit 6 when no address is left.
    private func usable(_ answer: ResolverAnswer, port: Int, cache use: CacheUse) -> Result<Resolution, CurlError> {
        let addresses = families.ordered(answer.addresses)
        guard let entry = ResolveEntry(host: answer.host, port: port, addresses: addresses) else {
            let had = answer.addresses.map(\.description).joined(separator: ", ")
            return .failure(ResolverFailure.noRecords(answer.host, "no \(families.wanted) address from \(answer.source.name): \(had)"))
        }
        return .success(Resolution(entry: entry, answer: answer, cache: use))
    }

    /// The fallback's resolution after the provider failed with `failure`, or `failure` itself when it was a
    /// definite answer or a setup error, when there is no fallback, or when the deadline has passed.
    private func fallingBack(_ host: String, port: Int, after failure: CurlError) -> Result<Resolution, CurlError> {
        guard failure == .couldntResolveHost || failure == .operationTimedOut, !failure.isAuthoritative, let fallback,
              deadline.map({ ContinuousClock.now < $0 }) ?? true else { return .failure(failure) }
        let both = { (second: CurlError) in
            ResolverFailure.couldNotResolve(host, ResolverFailure.reason(failure, host: host) + "; " + ResolverFailure.reason(second, host: host))
        }
        do {
            return usable(try fallback.resolve(host, port: port), port: port, cache: .off).map { resolution in
                var resolution = resolution
                resolution.fallbackReason = failure.message
                return resolution
            }.mapError(both)
        } catch {
            return .failure(both(error))
        }
    }

    // MARK: Cache

    /// The cached answer for every wanted family, fresh or (with ``staleSeconds``) stale, or `nil`.
    private func cached(_ host: String, now: Int64) -> (ResolverAnswer, CacheUse)? {
        guard let cache else { return nil }
        let found = cache.records(provider: provider, host: host, families: families.families, problem: note)
        let records = found.compactMap { $0 }
        guard records.count == found.count else { return nil }
        if let future = records.first(where: { $0.stored > now + Self.clockSkew }) {
            note("ignoring the cached answer for \(host): stored \(future.stored - now) s in the future (was the clock changed?)")
            return nil
        }
        let addresses = records.flatMap(\.addresses)
        let expires = records.map(\.expires).min() ?? 0
        guard !addresses.isEmpty else { return nil }
        let answer = { (ttl: Int64) in
            ResolverAnswer(host: host, addresses: addresses, ttl: ResolverAnswer.clampedTTL(ttl), source: .cached(records[0].origin))
        }
        if now < expires { return (answer(expires - now), .hit(remaining: UInt32(clamping: expires - now))) }
        if makeResolver != nil, now < expires + Int64(staleSeconds) {
            return (answer(0), .stale(by: UInt32(clamping: now - expires)))
        }
        return nil
    }

    /// One record per family for `answer`, cached for `origin_ttl` when the provider gave one, else its TTL.
    static func records(for answer: ResolverAnswer, provider: String, now: Int64) -> [CacheRecord] {
        let ttl = answer.originTTL ?? answer.ttl
        guard ttl > 0, CacheRecord.sourceNames.contains(answer.source.name) else { return [] }
        return [IPAddress.Family.v4, .v6].map { family in
            CacheRecord(host: answer.host, family: family, provider: provider, sourceName: answer.source.name,
                        origin: answer.source.description, addresses: answer.addresses, ttl: ttl, stored: now)
        }
    }

    private func save(_ records: [CacheRecord]) {
        if let problem = cache?.store(reporting: records) { note(problem) }
    }

    private func startRefresh(_ hosts: [String], port: Int) {
        guard let makeResolver, let cache, refresh == nil else { return }
        let provider = self.provider
        refresh = BackgroundTask {
            let answers: [Result<ResolverAnswer, CurlError>]
            do throws(CurlError) { answers = try makeResolver().resolve(hosts: hosts, port: port) } catch {
                answers = hosts.map { _ in .failure(error) }
            }
            var lines: [String] = [], records: [CacheRecord] = []
            for (host, answer) in zip(hosts, answers) {
                switch answer {
                case .success(let answer):
                    records += Self.records(for: answer, provider: provider, now: Self.now())
                    lines.append("\(host): refreshed in the background: "
                                 + answer.addresses.map(\.description).joined(separator: ", ")
                                 + " (\(answer.source), ttl \(answer.originTTL ?? answer.ttl))")
                case .failure(let error):
                    lines.append("\(host): background refresh failed, the stale answer stays: \(error.message)")
                }
            }
            if let problem = cache.store(reporting: records) { lines.append(problem) }
            return lines
        }
    }

    static func now() -> Int64 { Int64(time(nil)) }

    /// How far in the future a record's store time may lie before the record is distrusted.
    static let clockSkew: Int64 = 300
}
