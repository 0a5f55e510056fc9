import Foundation
import Synchronization
import Testing
@testable import HTTPDNS

/// A provider answering from a table, counting every host it is asked about (from any thread).
final class CountingResolver: Resolver, Sendable {
    let table: [String: (addresses: [String], ttl: UInt32, origin: UInt32?)]
    let failure: ResolutionError
    let asked = Mutex<[String]>([])

    init(_ table: [String: (addresses: [String], ttl: UInt32, origin: UInt32?)],
         failure: ResolutionError = .unavailable("x", [.init(server: "table", phase: .answer, cause: "table miss")])) {
        self.table = table
        self.failure = failure
    }

    func resolve(_ host: String, port: Int, within budget: LookupBudget) throws(ResolutionError) -> ResolverAnswer {
        asked.withLock { $0.append(host) }
        guard let row = table[host] else { throw failure.about(host) }
        return ResolverAnswer(host: host, addresses: row.addresses.compactMap { IPAddress($0) }, ttl: row.ttl,
                              originTTL: row.origin, source: .provider(.aliyun, server: "http://table"))
    }
}

@Suite struct PolicyRulesTests {
    let directory = NSTemporaryDirectory() + "ipcurl-policy-" + UUID().uuidString
    let table = CountingResolver(["a.test": (["10.0.0.1", "::1"], 60, 600), "zero.test": (["10.0.0.3"], 0, nil),
                                  "v6.test": (["::1"], 60, nil)])

    private func policy(_ resolver: CountingResolver, stale: UInt32 = 0) -> ResolutionPolicy {
        let policy = ResolutionPolicy(staticEntries: [], providerConfiguration: "table") { resolver }
        policy.cache = AnswerCache(directory: directory)
        policy.staleSeconds = stale
        return policy
    }

    @Test func aSecondPolicyOnTheSameDirectoryAsksNobody() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try policy(table).resolve(host: "a.test", port: 443)
        #expect(first.cache == .miss && first.entry?.description == "a.test:443:10.0.0.1,[::1]")
        let second = try policy(table).resolve(host: "a.test", port: 443)
        #expect(table.asked.withLock { $0 } == ["a.test"])
        #expect(second.entry == first.entry && second.sourceName == "cache")
        guard case .hit(let remaining) = second.cache else { Issue.record("not a hit: \(second.cache)"); return }
        #expect(remaining > 500, "cached for origin_ttl (600), not ttl (60)")
        let uncached = try ResolutionPolicy(staticEntries: [], resolver: table).resolve(host: "a.test", port: 443)
        #expect(uncached.cache == .off, "no cache, no 'cache miss'")
    }

    @Test func zeroTTLAnswersAreNotStored() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try policy(table).resolve(host: "zero.test", port: 443)
        _ = try policy(table).resolve(host: "zero.test", port: 443)
        #expect(table.asked.withLock { $0 } == ["zero.test", "zero.test"])
    }

    @Test func staleAnswersAreServedAndRefreshedOnAnotherThread() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = AnswerCache(directory: directory)
        let provider = AnswerCache.providerDigest("table")
        let old = Int64(time(nil)) - 100
        try cache.store([.v4, .v6].map { family in
            CacheRecord(host: "a.test", family: family, provider: provider, sourceName: "aliyun", origin: "aliyun old",
                        addresses: [IPAddress(family == .v4 ? "10.9.9.9" : "::9")!], ttl: 10, stored: old)
        })
        let expired = #expect(throws: ResolutionError.self, "without a grace window the expired record is not used") {
            try policy(CountingResolver([:])).resolve(host: "a.test", port: 443)
        }
        #expect(expired?.kind == .unavailable && expired?.reason == "table: table miss")
        let serving = policy(table, stale: 300)
        let stale = try serving.resolve(host: "a.test", port: 443)
        #expect(stale.entry?.description == "a.test:443:10.9.9.9,[::9]")
        guard case .stale(let by) = stale.cache else { Issue.record("not stale: \(stale.cache)"); return }
        #expect(by >= 90)
        let lines = serving.finishRefresh()
        #expect(lines == ["a.test: refreshed in the background: 10.0.0.1, ::1 (aliyun http://table, ttl 600)"])
        let refreshed = try policy(table).resolve(host: "a.test", port: 443)
        #expect(refreshed.entry?.description == "a.test:443:10.0.0.1,[::1]")
        #expect(table.asked.withLock { $0 } == ["a.test"], "the refresh asked once; the next run hit the new record")
    }

    @Test func fallbackIsAskedWhenTheProviderGaveNoUsableAddress() throws {
        let system = CountingResolver(["down.test": (["127.0.0.1"], 0, nil), "v6.test": (["10.0.0.6"], 0, nil),
                                       "gone.test": (["10.0.0.7"], 0, nil)])
        let policy = ResolutionPolicy(staticEntries: [], resolver: table)
        policy.fallback = system
        let rescued = try policy.resolve(host: "down.test", port: 443)
        #expect(rescued.entry?.description == "down.test:443:127.0.0.1")
        #expect(rescued.fallbackReason?.kind == .unavailable)
        #expect(rescued.fallbackReason?.reason == "table: table miss")
        let answered = try policy.resolve(host: "a.test", port: 443)
        #expect(answered.fallbackReason == nil && answered.sourceName == "aliyun", "an answer needs no fallback")
        // An answer without an address of the wanted family falls back when a fallback is set, as every missing
        // address does, and the reason says why.
        policy.families = .v4Only
        let wrongFamily = try policy.resolve(host: "v6.test", port: 443)
        #expect(wrongFamily.entry?.description == "v6.test:443:10.0.0.6")
        #expect(wrongFamily.fallbackReason?.kind == .noAddress)
        #expect(wrongFamily.fallbackReason?.reason == "aliyun: no usable IPv4 address: ::1")
        // NXDOMAIN falls back to the system resolver too (an internal name the public server does not know).
        let negative = CountingResolver([:], failure: .noAddress("gone.test", source: "doh", "NXDOMAIN"))
        let trusting = ResolutionPolicy(staticEntries: [], resolver: negative)
        trusting.fallback = system
        let nxdomain = try trusting.resolve(host: "gone.test", port: 443)
        #expect(nxdomain.entry?.description == "gone.test:443:10.0.0.7")
        #expect(nxdomain.fallbackReason?.kind == .noAddress && nxdomain.fallbackReason?.reason == "doh: NXDOMAIN")
        #expect(system.asked.withLock { $0 } == ["down.test", "v6.test", "gone.test"])
        let late = ResolutionPolicy(staticEntries: [], resolver: table)
        late.fallback = system
        late.deadline = ContinuousClock.now - .seconds(1)
        let error = #expect(throws: ResolutionError.self, "no fallback once --max-time ran out") {
            try late.resolve(host: "down.test", port: 443)
        }
        #expect(error?.kind == .unavailable && error?.host == "down.test")
        #expect(system.asked.withLock { $0 } == ["down.test", "v6.test", "gone.test"])
    }

    @Test func withoutFallbackAMissingAddressIsFinal() throws {
        let policy = ResolutionPolicy(staticEntries: [], resolver: table)
        policy.families = .v4Only
        let wrongFamily = #expect(throws: ResolutionError.self) { try policy.resolve(host: "v6.test", port: 443) }
        #expect(wrongFamily?.kind == .noAddress && wrongFamily?.reason == "aliyun: no usable IPv4 address: ::1")
        let negative = ResolutionPolicy(staticEntries: [], resolver: CountingResolver([:], failure: .noAddress("x", source: "doh", "NXDOMAIN")))
        let nxdomain = #expect(throws: ResolutionError.self) { try negative.resolve(host: "gone.test", port: 443) }
        #expect(nxdomain?.kind == .noAddress && nxdomain?.host == "gone.test" && nxdomain?.reason == "doh: NXDOMAIN")
    }

    @Test func withoutFallbackTheProvidersErrorStands() throws {
        let timeout = CountingResolver([:], failure: .timedOut("a.test", after: 300, provider: "the resolver command"))
        let policy = ResolutionPolicy(staticEntries: [], resolver: timeout)
        let timedOut = try #require(throws: ResolutionError.self) { try policy.resolve(host: "a.test", port: 443) }
        #expect(timedOut.kind == .timedOut && timedOut.milliseconds == 300)
        #expect(timedOut.reason == "the resolver command gave no answer within 300 ms")
        // A setup error is not an HTTPDNS failure: neither a wrong setting nor a transport that could not be made
        // sends the name to the fallback.
        struct NoDES: Error {}
        let broken = CountingResolver([:], failure: .configuration(.dnspodKey, "no DES"))
        let strict = ResolutionPolicy(staticEntries: [], resolver: broken)
        strict.fallback = table
        let configuration = try #require(throws: ResolutionError.self) { try strict.resolve(host: "a.test", port: 443) }
        #expect(configuration.kind == .configuration && configuration.setting == .dnspodKey)
        let unbuilt = CountingResolver([:], failure: .unavailable("a.test", [], underlying: NoDES()))
        let noTransport = ResolutionPolicy(staticEntries: [], resolver: unbuilt)
        noTransport.fallback = table
        let setup = try #require(throws: ResolutionError.self) { try noTransport.resolve(host: "a.test", port: 443) }
        #expect(setup.kind == .unavailable && setup.underlying is NoDES)
        #expect(table.asked.withLock { $0 }.isEmpty, "the fallback was never asked")
    }

    @Test func recordsFromTheFutureAreNotTrusted() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let provider = AnswerCache.providerDigest("table")
        try AnswerCache(directory: directory).store([.v4, .v6].map { family in
            CacheRecord(host: "a.test", family: family, provider: provider, sourceName: "aliyun", origin: "aliyun old",
                        addresses: [IPAddress(family == .v4 ? "10.9.9.9" : "::9")!], ttl: 60, stored: Int64(time(nil)) + 100_000)
        })
        let policy = policy(table)
        var notes: [String] = []
        policy.note = { notes.append($0) }
        #expect(try policy.resolve(host: "a.test", port: 443).entry?.description == "a.test:443:10.0.0.1,[::1]")
        #expect(notes.count == 1 && notes[0].hasPrefix("ignoring the cached answer for a.test: stored ") && notes[0].contains("s in the future"), "\(notes)")
    }

    @Test func pinnedEntriesAreFilteredByFamilyToo() throws {
        let policy = ResolutionPolicy(staticEntries: [try ResolveEntry(parsing: "a.test:443:::1,10.0.0.1")], resolver: table)
        policy.families = .v6Only
        #expect(try policy.resolve(host: "a.test", port: 443).entry?.description == "a.test:443:[::1]")
        #expect(table.asked.withLock { $0 }.isEmpty)
    }
}
