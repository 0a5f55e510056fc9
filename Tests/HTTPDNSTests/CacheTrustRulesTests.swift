import Foundation
import Testing
@testable import HTTPDNS

/// What the policy lets into the answer cache and what its records say: never an answer without a usable address,
/// whichever path it came by (a lookup, a background refresh); answers of a run that connects nowhere marked
/// unverified and never served stale; answers fetched with `-k` marked insecure; the first file format refused.
@Suite struct CacheTrustRulesTests {
    let directory = NSTemporaryDirectory() + "ipcurl-trust-" + UUID().uuidString
    let table = CountingResolver(["bad.test": (["0.0.0.0", "239.1.2.3", "::", "ff02::1"], 86_400, nil),
                                  "a.test": (["10.0.0.1", "::1"], 60, nil),
                                  "half.test": (["0.0.0.0", "224.0.0.7", "::1"], 3_600, nil)])

    private func policy(_ resolver: CountingResolver, stale: UInt32 = 0) -> ResolutionPolicy {
        let policy = ResolutionPolicy(staticEntries: [], providerConfiguration: "table") { resolver }
        policy.cache = AnswerCache(directory: directory)
        policy.staleSeconds = stale
        return policy
    }

    private var cachedAddresses: [String] {
        AnswerCache(directory: directory).list().records.flatMap(\.addresses).map(\.description)
    }

    @Test func anAnswerOfOnlyUnusableAddressesIsNeverCached() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for _ in 0..<2 {
            let error = #expect(throws: ResolutionError.self) { try policy(table).resolve(host: "bad.test", port: 443) }
            #expect(error?.kind == .noAddress && error?.reason == "aliyun: no usable address: 0.0.0.0, 239.1.2.3, ::, ff02::1",
                    "\(String(describing: error))")
        }
        #expect(table.asked.withLock { $0 } == ["bad.test", "bad.test"], "the next run asks the provider again")
        #expect(AnswerCache(directory: directory).list().records.isEmpty)
        let rescued = policy(table)
        rescued.fallback = CountingResolver(["bad.test": (["10.0.0.7"], 0, nil)])
        #expect(try rescued.resolve(host: "bad.test", port: 443).entry?.description == "bad.test:443:10.0.0.7")
        #expect(AnswerCache(directory: directory).list().records.isEmpty, "nor when the fallback answered")
        _ = try policy(table).resolve(host: "a.test", port: 443)
        #expect(cachedAddresses == ["10.0.0.1", "::1"], "a usable answer is cached")
    }

    /// A family whose addresses are all unusable gets no record, even when the other family's are usable: a `-4`
    /// run would otherwise find "no usable IPv4 address" in the cache until the TTL ends, HTTPDNS never asked.
    @Test func aFamilyOfOnlyUnusableAddressesIsNotCachedBesideAUsableOne() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try policy(table).resolve(host: "half.test", port: 443).entry?.description == "half.test:443:[::1]")
        #expect(AnswerCache(directory: directory).list().records.map(\.family) == [.v6])
        let v4Only = policy(table)
        v4Only.families = .v4Only
        #expect(throws: ResolutionError.self) { try v4Only.resolve(host: "half.test", port: 443) }
        #expect(table.asked.withLock { $0 } == ["half.test", "half.test"], "the -4 run asks the provider again")
    }

    /// A cache file holding only unusable addresses (written by hand, or by another program) is treated as absent:
    /// the provider is asked.
    @Test func aCachedRecordOfOnlyUnusableAddressesIsTreatedAsAbsent() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let provider = AnswerCache.providerDigest("table")
        try AnswerCache(directory: directory).store([.v4, .v6].map { family in
            CacheRecord(host: "a.test", family: family, provider: provider, sourceName: "aliyun", origin: "aliyun edited",
                        addresses: [IPAddress(family == .v4 ? "0.0.0.0" : "::")!], ttl: 3_600, stored: Int64(time(nil)))
        })
        #expect(try policy(table).resolve(host: "a.test", port: 443).entry?.description == "a.test:443:10.0.0.1,[::1]")
        #expect(table.asked.withLock { $0 } == ["a.test"])
    }

    @Test func aBackgroundRefreshWithoutAUsableAddressKeepsTheStaleAnswer() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let provider = AnswerCache.providerDigest("table")
        try AnswerCache(directory: directory).store([.v4, .v6].map { family in
            CacheRecord(host: "bad.test", family: family, provider: provider, sourceName: "aliyun", origin: "aliyun old",
                        addresses: [IPAddress(family == .v4 ? "10.9.9.9" : "::9")!], ttl: 10, stored: Int64(time(nil)) - 100)
        })
        let serving = policy(table, stale: 300)
        #expect(try serving.resolve(host: "bad.test", port: 443).entry?.description == "bad.test:443:10.9.9.9,[::9]")
        let lines = serving.finishRefresh()
        #expect(lines.count == 1 && lines.first?.hasPrefix("bad.test: background refresh failed, the stale answer stays: ") == true,
                "\(lines)")
        #expect(cachedAddresses == ["10.9.9.9", "::9"])
    }

    @Test func answersOfARunThatConnectsNowhereAreUnverifiedAndNeverServedStale() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let resolving = policy(table)
        resolving.connectsNowhere = true
        _ = try resolving.resolve(host: "a.test", port: 443)
        let stored = AnswerCache(directory: directory).list().records
        #expect(stored.count == 2 && stored.allSatisfy { $0.unverified && !$0.insecure }, "\(stored)")
        // The same records, expired: a run with a stale window asks the provider instead of serving them.
        let provider = AnswerCache.providerDigest("table")
        let expired = stored.map { record in
            CacheRecord(host: record.host, family: record.family, provider: provider, sourceName: record.sourceName,
                        origin: record.origin, addresses: record.addresses, ttl: 10, stored: Int64(time(nil)) - 100, unverified: true)
        }
        try AnswerCache(directory: directory).store(expired)
        let fetching = policy(table, stale: 300)
        #expect(try fetching.resolve(host: "a.test", port: 443).cache == .miss)
        #expect(table.asked.withLock { $0 } == ["a.test", "a.test"])
        #expect(AnswerCache(directory: directory).list().records.allSatisfy { !$0.unverified }, "the fetch's answer replaced them")
    }

    @Test func answersFetchedWithInsecureAreMarkedAndStillServedStaleToSuchRuns() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let insecure = policy(table)
        insecure.insecure = true
        _ = try insecure.resolve(host: "a.test", port: 443)
        let stored = AnswerCache(directory: directory).list().records
        #expect(stored.count == 2 && stored.allSatisfy { $0.insecure && !$0.unverified }, "\(stored)")
        try AnswerCache(directory: directory).store(stored.map { record in
            CacheRecord(host: record.host, family: record.family, provider: record.provider, sourceName: record.sourceName,
                        origin: record.origin, addresses: record.addresses, ttl: 10, stored: Int64(time(nil)) - 100, insecure: true)
        })
        guard case .stale = try policy(table, stale: 300).resolve(host: "a.test", port: 443).cache else {
            Issue.record("an insecure record is served stale like any other")
            return
        }
    }

    @Test func recordsCarryTheirMarksAndTheFirstFormatIsRefused() throws {
        let record = CacheRecord(host: "a.test", family: .v4, provider: AnswerCache.providerDigest("table"), sourceName: "doh",
                                 origin: "doh https://127.0.0.1/dns-query", addresses: [IPAddress("10.0.0.1")!], ttl: 60,
                                 stored: 1_700_000_000, insecure: true, unverified: true)
        #expect(record.text.contains("\ninsecure yes\nunverified yes\n"))
        #expect(try CacheRecord(parsing: Array(record.text.utf8)) == record)
        var lines = record.text.split(separator: "\n").map(String.init)
        lines[0] = "ipcurl-dns-cache 1"
        lines.removeAll { $0.hasPrefix("insecure ") || $0.hasPrefix("unverified ") }
        let first = #expect(throws: CacheFileError.self) { try CacheRecord(parsing: Array((lines.joined(separator: "\n") + "\n").utf8)) }
        #expect(first?.description == "written in the first format (ipcurl-dns-cache 1)")
    }
}
