#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decides how a host:port gets its addresses, in this order:
/// 1. an IP literal needs nothing, and a static entry (curl's `--resolve`) wins, restricted to ``families`` only;
/// 2. a fresh cached answer is used as is (cleaned as below, and falling back as in 4 when nothing usable is
///    left); with ``staleSeconds``, an expired one is used at once while a background query refreshes it;
/// 3. the HTTPDNS provider is asked within this lookup's own budget (``lookupTimeoutMS``, cut short by
///    ``deadline``), and its answer is cached for its TTL (`origin_ttl` where given) when it holds a usable address
///    (an answer of only unusable addresses, like one the provider rejected, is never cached);
/// 4. when HTTPDNS gives no usable address, whatever the reason (every server failed or was silent, NXDOMAIN,
///    no records, an empty vendor answer, no address of the wanted family), the ``fallback`` resolver is asked,
///    bounded by ``fallbackTimeoutMS`` and ``deadline``, and the resolution carries the reason so the caller can
///    say so. Without a fallback the HTTPDNS error is final.
///
/// Every answer is then cleaned (``IPAddress/isUsable(v6Only:)``, at most ``maximumAddressesPerFamily`` per
/// family), restricted to ``families`` (IPv4 first) and spelled as the request spells its host
/// (``HostName/lookupName(_:)``), so the entry matches exactly the name libcurl looks up.
/// It deals only in validated values, never in libcurl types. Not `Sendable`: it owns the provider.
/// - SeeAlso: curl's `--resolve`, `-4`, `-6`; `CURLOPT_RESOLVE`.
public final class ResolutionPolicy {
    /// The most addresses of one family an entry carries; more are dropped (and counted in ``Resolution/dropped``).
    public static let maximumAddressesPerFamily = 16

    /// The user's static entries.
    public let pinned: StaticResolver
    /// `-4`/`-6`: the address families entries may hold.
    public var families = AddressFamilies.both
    /// The persistent answer cache; `nil` turns caching off.
    public var cache: AnswerCache?
    /// Seconds after expiry during which a cached answer is still served while it is refreshed; never an
    /// unverified one (``CacheRecord/unverified``).
    public var staleSeconds: UInt32 = 0
    /// The run's TLS verification is off (`-k`): the records it stores say so (``CacheRecord/insecure``).
    public var insecure = false
    /// The caller connects to none of the addresses (`ipcurl resolve`), so nothing drops an answer whose every
    /// address fails (``forget(_:)``): the records it stores are marked unverified (``CacheRecord/unverified``).
    public var connectsNowhere = false
    /// Asked when HTTPDNS gave no usable address; `nil` makes an HTTPDNS failure final.
    public var fallback: (any Resolver)?
    /// The time each provider lookup may take, in milliseconds; `nil` for no limit.
    public var lookupTimeoutMS: Int?
    /// The time the fallback lookup may take (the request's connect timeout); `nil` for no limit of its own.
    public var fallbackTimeoutMS: Int?
    /// No lookup runs past this instant (the request's overall time limit), and the fallback is not started after it.
    public var deadline: ContinuousClock.Instant?
    /// Receives one line (without prefix or newline) per cache problem and background refresh.
    public var note: (String) -> Void = { _ in }

    private let provider: String
    private let makeResolver: (@Sendable () throws(ResolutionError) -> any Resolver)?
    private var resolver: (any Resolver)?
    private var refresh: BackgroundTask<[String]>?

    /// A policy whose provider is built by `makeResolver` on first need (and again on the background refresh
    /// thread); `providerConfiguration` names the provider's settings in cache keys and must hold no secret.
    public init(staticEntries: [ResolveEntry], providerConfiguration: String,
                makeResolver: @escaping @Sendable () throws(ResolutionError) -> any Resolver) {
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

    /// Resolves `host` (as the URL spells it) for a connection to `port`. An address literal, a pinned name or a
    /// cached answer is answered without the batch machinery (no arrays of results: their generic metadata costs a
    /// start-up about 0.2 M instructions).
    public func resolve(host: String, port: Int) throws(ResolutionError) -> Resolution {
        let now = Self.now()
        var stale: [String] = []
        if let known = answeredLocally(host, port: port, now: now, stale: &stale) {
            if !stale.isEmpty { startRefresh(stale, port: port) }
            return try known.get()
        }
        return try resolve(hosts: [host], port: port, local: [nil], times: [LookupTime(duration: .zero)], stale: [], now: now)[0]
            .result.get()
    }

    /// Resolves several hosts for `port`, in order, letting the provider batch the ones that need asking.
    /// Each call is one lookup with its own budget.
    public func resolve(hosts: [String], port: Int) -> [Result<Resolution, ResolutionError>] {
        timedResolve(hosts: hosts, port: port).map(\.result)
    }

    /// ``resolve(hosts:port:)`` with each name's lookup time: its own for a name answered locally or asked on its own
    /// (a provider that asks one name at a time is asked for each in turn, as ``Resolver/resolve(hosts:port:within:)``
    /// would); the query's, with the count of its names, for names a provider asks together
    /// (``Resolver/asksNamesTogether``). A name's fallback lookup adds to its time.
    public func timedResolve(hosts: [String], port: Int) -> [TimedResolution] {
        let now = Self.now()
        var stale: [String] = []
        var times: [LookupTime] = []
        let local = hosts.map { host in
            let began = ContinuousClock.now
            defer { times.append(.since(began)) }
            return answeredLocally(host, port: port, now: now, stale: &stale)
        }
        return resolve(hosts: hosts, port: port, local: local, times: times, stale: stale, now: now)
    }

    /// `hosts` with the answers known locally (``answeredLocally(_:port:now:stale:)``, `nil` where the provider
    /// must be asked, found in `times`) completed by asking the provider; then the stale names are refreshed in the
    /// background.
    private func resolve(hosts: [String], port: Int, local: [Result<Resolution, ResolutionError>?], times: [LookupTime],
                         stale: [String], now: Int64) -> [TimedResolution] {
        var results = local, times = times
        let pending = hosts.indices.compactMap { index in
            local[index] == nil ? HostName.normalized(hosts[index]).map { (index: index, name: $0) } : nil
        }
        if !pending.isEmpty {
            let budget = LookupBudget(milliseconds: lookupTimeoutMS, endingBy: deadline)
            var fresh: [CacheRecord] = []
            for (slot, (answer, time)) in zip(pending, ask(pending.map(\.name), port: port, within: budget)) {
                if case .success(let answer) = answer {
                    fresh += Self.records(for: answer, provider: provider, now: now, families: families.families,
                                          insecure: insecure, unverified: connectsNowhere)
                }
                let spelled = hosts[slot.index]
                var fallbackTime = Duration.zero
                results[slot.index] = answer.flatMap { usable($0, spelled: spelled, port: port, cache: cache == nil ? .off : .miss) }
                    .flatMapError { failure in
                        let began = ContinuousClock.now
                        defer { fallbackTime = ContinuousClock.now - began }
                        return fallingBack(spelled, port: port, after: failure)
                    }
                times[slot.index] = LookupTime(duration: time.duration + fallbackTime, names: time.names)
            }
            save(fresh)
        }
        if !stale.isEmpty { startRefresh(stale, port: port) }
        return hosts.indices.map { index in
            TimedResolution(result: results[index] ?? .failure(.unavailable(hosts[index], [])), time: times[index])
        }
    }

    /// The provider's answer for each of `names`, with its time: one call when the provider asks names together
    /// (each name gets the call's time and the count of names), else one lookup per name, each with a fresh budget of
    /// the same size (`budget` for the first), as ``Resolver/resolve(hosts:port:within:)`` asks them. Making the
    /// provider counts in the first name's time.
    private func ask(_ names: [String], port: Int,
                     within budget: LookupBudget) -> [(Result<ResolverAnswer, ResolutionError>, LookupTime)] {
        let began = ContinuousClock.now
        let resolver: any Resolver
        do { resolver = try activeResolver() } catch {
            let time = LookupTime.since(began, names: names.count)
            return names.map { (.failure(error.about($0)), time) }
        }
        guard names.count > 1, !resolver.asksNamesTogether else {
            let answers = resolver.resolve(hosts: names, port: port, within: budget)
            let time = LookupTime.since(began, names: names.count)
            return answers.map { ($0, time) }
        }
        return names.enumerated().map { index, name in
            let start = index == 0 ? began : ContinuousClock.now
            let answer = Result { () throws(ResolutionError) in
                try resolver.resolve(name, port: port, within: index == 0 ? budget : budget.renewed())
            }
            return (answer, LookupTime.since(start))
        }
    }

    /// Drops the cached answer behind `resolution`, when it came from the provider or the cache: every one of
    /// its addresses failed (refused, TLS or certificate failure), so it may be a spoofed answer, and the next
    /// run must ask again rather than reuse it for its TTL. Returns whether there was a cache to drop it from.
    @discardableResult
    public func forget(_ resolution: Resolution) -> Bool {
        guard let cache, let answer = resolution.answer, resolution.cache != .off || answer.source.kind.isCacheable,
              let name = HostName.normalized(answer.host) else { return false }
        if let problem = cache.remove(reporting: provider, host: name).problem { note(problem) }
        return true
    }

    /// Waits for a background refresh, if one runs, and returns its lines. A policy that goes away waits too.
    public func finishRefresh() -> [String] {
        defer { refresh = nil }
        return refresh?.wait() ?? []
    }

    // MARK: Steps

    /// `host`'s resolution when no provider needs asking: an address literal, a pinned name, a cached answer (a
    /// stale one's name goes to `stale`), or an invalid name; `nil` when the provider must be asked.
    private func answeredLocally(_ host: String, port: Int, now: Int64,
                                 stale: inout [String]) -> Result<Resolution, ResolutionError>? {
        if IPAddress(host) != nil { return .success(Resolution(entry: nil, answer: nil)) }
        guard let name = HostName.normalized(host) else { return .failure(.invalidName(host)) }
        if let fixed = pinned.resolution(host: name, port: port)?.answer {
            return usable(fixed, spelled: host, port: port, cache: .off, cleaning: false)
        }
        guard let (answer, use) = cached(name, now: now) else { return nil }
        if case .stale = use { stale.append(name) }
        return usable(answer, spelled: host, port: port, cache: use).flatMapError { fallingBack(host, port: port, after: $0) }
    }

    private func activeResolver() throws(ResolutionError) -> any Resolver {
        if let resolver { return resolver }
        let made = try makeResolver!()
        resolver = made
        return made
    }

    /// The resolution for `answer`'s addresses of ``families``, spelled as `spelled`, or `noAddress`. With
    /// `cleaning` (every answer but the user's own static entries), unusable addresses and those beyond
    /// ``maximumAddressesPerFamily`` are dropped too.
    private func usable(_ answer: ResolverAnswer, spelled: String, port: Int, cache use: CacheUse,
                        cleaning: Bool = true) -> Result<Resolution, ResolutionError> {
        var kept: [IPAddress] = []
        var perFamily = (v4: 0, v6: 0)  // counters, not a dictionary: no hashed-container metadata at start-up
        for address in families.ordered(answer.addresses) where !kept.contains(address) {
            let count = address.family == .v4 ? perFamily.v4 : perFamily.v6
            guard !cleaning || address.isUsable(v6Only: families == .v6Only) && count < Self.maximumAddressesPerFamily
            else { continue }
            if address.family == .v4 { perFamily.v4 += 1 } else { perFamily.v6 += 1 }
            kept.append(address)
        }
        let lookupName = HostName.lookupName(spelled) ?? answer.host
        guard let entry = ResolveEntry(host: lookupName, port: port, addresses: kept) else {
            let had = answer.addresses.prefix(8).map(\.description).joined(separator: ", ")
                + (answer.addresses.count > 8 ? ", ..." : "")
            let usable = cleaning ? "usable " : ""
            let what = families == .both ? "no \(usable)address" : "no \(usable)\(families.wanted) address"
            return .failure(.noAddress(answer.host, source: answer.source.name, "\(what): \(had)"))
        }
        var resolution = Resolution(entry: entry, answer: answer, cache: use)
        resolution.dropped = answer.addresses.filter { families.families.contains($0.family) }.count - kept.count
        return .success(resolution)
    }

    /// The fallback's resolution after HTTPDNS failed with `failure`, or `failure` itself when it is a
    /// configuration error, when there is no fallback, or when the deadline has passed (less than a whole millisecond
    /// left, where a ``LookupBudget`` counts as spent).
    private func fallingBack(_ host: String, port: Int, after failure: ResolutionError) -> Result<Resolution, ResolutionError> {
        // The name as the URL spells it, trailing dot kept: `foo.` is absolute, and without its dot the system
        // resolver would try its search domains (`foo.corp`) and answer for another name.
        guard failure.allowsFallback, let fallback, deadline.map({ $0 - ContinuousClock.now >= .milliseconds(1) }) ?? true,
              let name = HostName.lookupName(host) else { return .failure(failure) }
        let budget = LookupBudget(milliseconds: fallbackTimeoutMS, endingBy: deadline)
        let answered = Result { () throws(ResolutionError) in try fallback.resolve(name, port: port, within: budget) }
        return answered.flatMap { usable($0, spelled: host, port: port, cache: .off) }
            .map { resolution in
                var resolution = resolution
                resolution.fallbackReason = failure
                return resolution
            }
            .mapError { second in failure.adding(second.serverFailures) }
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
        // A record of only unusable addresses is none this policy wrote (see `records(for:)`): treated as absent.
        guard !addresses.isEmpty, records.allSatisfy({ Self.isEmptyOrUsable($0.addresses, v6Only: families == .v6Only) })
        else { return nil }
        let answer = { (ttl: Int64) in
            ResolverAnswer(host: host, addresses: addresses, ttl: ResolverAnswer.clampedTTL(ttl), source: .cached(records[0].origin))
        }
        if now < expires { return (answer(expires - now), .hit(remaining: UInt32(clamping: expires - now))) }
        if makeResolver != nil, now < expires + Int64(staleSeconds), !records.contains(where: \.unverified) {
            return (answer(0), .stale(by: UInt32(clamping: now - expires)))
        }
        return nil
    }

    /// One record per asked family for `answer`, cached for `origin_ttl` when the provider gave one, else its
    /// TTL; none when no address of `families` is usable (``hasUsableAddress(_:families:)``): such an answer is
    /// rejected for the request, no connection would try it, so nothing would drop it before its TTL ends. For the
    /// same reason a family whose addresses are all unusable gets no record beside a usable family. Only the
    /// families asked are recorded: under `-4` the provider was not asked for IPv6, so its silence about IPv6
    /// says nothing. `insecure` and `unverified` are the records' marks.
    static func records(for answer: ResolverAnswer, provider: String, now: Int64, families: [IPAddress.Family] = [.v4, .v6],
                        insecure: Bool = false, unverified: Bool = false) -> [CacheRecord] {
        let ttl = answer.originTTL ?? answer.ttl
        guard ttl > 0, answer.source.kind.isCacheable, hasUsableAddress(answer, families: families) else { return [] }
        // A family whose addresses are all unusable gets no record, beside a usable one too; one the answer leaves
        // empty does ("no address of this family").
        return families.filter { family in
            isEmptyOrUsable(answer.addresses.filter { $0.family == family }, v6Only: families == [.v6])
        }.map { family in
            CacheRecord(host: answer.host, family: family, provider: provider, sourceName: answer.source.name,
                        origin: answer.source.description, addresses: answer.addresses, ttl: ttl, stored: now,
                        insecure: insecure, unverified: unverified)
        }
    }

    /// Whether `addresses` (one family's) are none at all ("no address of this family") or hold a usable one.
    static func isEmptyOrUsable(_ addresses: [IPAddress], v6Only: Bool) -> Bool {
        addresses.isEmpty || addresses.contains { $0.isUsable(v6Only: v6Only) }
    }

    /// Whether `answer` holds an address of `families` that ``usable(_:spelled:port:cache:cleaning:)`` keeps
    /// (``IPAddress/isUsable(v6Only:)``; mapped IPv4 counts as none under `-6`).
    static func hasUsableAddress(_ answer: ResolverAnswer, families: [IPAddress.Family]) -> Bool {
        answer.addresses.contains { families.contains($0.family) && $0.isUsable(v6Only: families == [.v6]) }
    }

    private func save(_ records: [CacheRecord]) {
        if let problem = cache?.store(reporting: records) { note(problem) }
    }

    private func startRefresh(_ hosts: [String], port: Int) {
        guard let makeResolver, let cache, refresh == nil else { return }
        let provider = self.provider
        let lookupTimeoutMS = self.lookupTimeoutMS, deadline = self.deadline
        let families = self.families.families
        let (insecure, unverified) = (self.insecure, connectsNowhere)
        refresh = BackgroundTask {
            let budget = LookupBudget(milliseconds: lookupTimeoutMS, endingBy: deadline)
            let answers: [Result<ResolverAnswer, ResolutionError>]
            do throws(ResolutionError) { answers = try makeResolver().resolve(hosts: hosts, port: port, within: budget) } catch {
                answers = hosts.map { .failure(error.about($0)) }
            }
            var lines: [String] = [], records: [CacheRecord] = []
            for (host, answer) in zip(hosts, answers) {
                switch answer {
                case .success(let answer) where !Self.hasUsableAddress(answer, families: families):
                    lines.append("\(host): background refresh failed, the stale answer stays: no usable address: "
                                 + answer.addresses.prefix(8).map(\.description).joined(separator: ", "))
                case .success(let answer):
                    records += Self.records(for: answer, provider: provider, now: Self.now(), families: families,
                                            insecure: insecure, unverified: unverified)
                    lines.append("\(host): refreshed in the background: "
                                 + answer.addresses.map(\.description).joined(separator: ", ")
                                 + " (\(answer.source), ttl \(answer.originTTL ?? answer.ttl))")
                case .failure(let error):
                    lines.append("\(host): background refresh failed, the stale answer stays: \(error.reason)")
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
