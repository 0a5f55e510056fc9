import Foundation
@testable import HTTPDNS
import Testing

/// What the policy does with an answer before it becomes an entry: unusable addresses dropped, at most 16 per
/// family, the name spelled as the request spells it; and what happens when nothing usable is left.
@Suite struct PolicyCleaningTests {
    let directory = NSTemporaryDirectory() + "ipcurl-clean-" + UUID().uuidString

    static let manyV4 = (1...20).map { "10.0.0.\($0)" }
    static let manyV6 = (1...18).map { "2001:db8::\(String($0, radix: 16))" }

    let table = CountingResolver([
        "a.test": (["10.0.0.1", "::1"], 60, nil),
        "mixed.test": (["0.0.0.0", "10.0.0.1", "224.0.0.1", "255.255.255.255", "::", "::1", "ff02::1", "10.0.0.1"], 60, nil),
        "mapped.test": (["::ffff:1.2.3.4", "2001:db8::1"], 60, nil),
        "many.test": (PolicyCleaningTests.manyV4 + PolicyCleaningTests.manyV6, 60, nil),
        "bad.test": (["0.0.0.0", "ff02::1"], 60, nil),
        "half.test": (["0.0.0.0", "::1"], 60, nil),
    ])
    let system = CountingResolver(["bad.test": (["10.0.0.7"], 0, nil), "bad.test.": (["10.0.0.7"], 0, nil),
                                   "half.test": (["10.0.0.7"], 0, nil),
                                   "a.test": (["10.0.0.8"], 0, nil)])

    @Test func unusableAndDuplicateAddressesAreDroppedAndCounted() throws {
        let policy = ResolutionPolicy(staticEntries: [], resolver: table)
        let resolution = try policy.resolve(host: "mixed.test", port: 443)
        #expect(resolution.entry?.description == "mixed.test:443:10.0.0.1,[::1]")
        #expect(resolution.dropped == 6)
        #expect(resolution.answer?.addresses.count == 8, "the answer itself keeps what the provider said")
        #expect(resolution.fallbackReason == nil)

        let both = try policy.resolve(host: "mapped.test", port: 443)
        #expect(both.entry?.description == "mapped.test:443:[::ffff:1.2.3.4],[2001:db8::1]" && both.dropped == 0)
        policy.families = .v6Only
        let v6 = try policy.resolve(host: "mapped.test", port: 443)
        #expect(v6.entry?.description == "mapped.test:443:[2001:db8::1]" && v6.dropped == 1, "IPv4 in disguise under -6")
    }

    @Test func atMostSixteenAddressesPerFamily() throws {
        #expect(ResolutionPolicy.maximumAddressesPerFamily == 16)
        let resolution = try ResolutionPolicy(staticEntries: [], resolver: table).resolve(host: "many.test", port: 443)
        let entry = try #require(resolution.entry)
        #expect(entry.addresses.filter { $0.family == .v4 }.map(\.description) == Array(Self.manyV4.prefix(16)))
        #expect(entry.addresses.filter { $0.family == .v6 }.map(\.description) == Array(Self.manyV6.prefix(16)))
        #expect(entry.addresses.count == 32 && resolution.dropped == 6)
    }

    @Test func onlyUnusableAddressesFallBackOrFailWithNoAddress() throws {
        let strict = ResolutionPolicy(staticEntries: [], resolver: table)
        let error = try #require(throws: ResolutionError.self) { try strict.resolve(host: "bad.test", port: 443) }
        #expect(error.kind == .noAddress && error.host == "bad.test")
        #expect(error.reason == "aliyun: no usable address: 0.0.0.0, ff02::1")

        let rescued = ResolutionPolicy(staticEntries: [], resolver: table)
        rescued.fallback = system
        let resolution = try rescued.resolve(host: "bad.test", port: 443)
        #expect(resolution.entry?.description == "bad.test:443:10.0.0.7")
        #expect(resolution.fallbackReason?.kind == .noAddress)
        #expect(resolution.fallbackReason?.reason == "aliyun: no usable address: 0.0.0.0, ff02::1")
        #expect(system.asked.withLock { $0 } == ["bad.test"])
    }

    @Test func aTrailingDotIsKeptInTheEntry() throws {
        let policy = ResolutionPolicy(staticEntries: [], resolver: table)
        #expect(try policy.resolve(host: "A.Test.", port: 443).entry?.description == "a.test.:443:10.0.0.1,[::1]")
        #expect(try policy.resolve(host: "a.test", port: 443).entry?.description == "a.test:443:10.0.0.1,[::1]")
        #expect(table.asked.withLock { $0 } == ["a.test", "a.test"], "the provider is asked the plain name")
        let rescued = ResolutionPolicy(staticEntries: [], resolver: table)
        rescued.fallback = system
        #expect(try rescued.resolve(host: "bad.test.", port: 443).entry?.description == "bad.test.:443:10.0.0.7",
                "a fallback answer is spelled as the request too")
        #expect(system.asked.withLock { $0 } == ["bad.test."], "the system resolver is asked the absolute name (no search domains)")
    }

    @Test func aStaticEntryMatchesAnySpellingAndIsSpelledAsTheRequest() throws {
        let policy = ResolutionPolicy(staticEntries: [try ResolveEntry(parsing: "a.test:443:1.2.3.4")], resolver: table)
        let dotted = try policy.resolve(host: "A.TEST.", port: 443)
        #expect(dotted.entry?.description == "a.test.:443:1.2.3.4" && dotted.sourceName == "static")
        #expect(try policy.resolve(host: "a.test", port: 443).entry?.description == "a.test:443:1.2.3.4")
        let ordered = ResolutionPolicy(staticEntries: [try ResolveEntry(parsing: "a.test:443:::1,1.2.3.4")], resolver: table)
        #expect(try ordered.resolve(host: "a.test", port: 443).entry?.description == "a.test:443:1.2.3.4,[::1]",
                "with both families IPv4 comes first, as for every answer (libcurl's happy eyeballs races them)")
        let reverse = ResolutionPolicy(staticEntries: [try ResolveEntry(parsing: "a.test.:443:1.2.3.4")], resolver: table)
        #expect(try reverse.resolve(host: "a.test", port: 443).entry?.description == "a.test:443:1.2.3.4")
        #expect(table.asked.withLock { $0 }.isEmpty)
    }

    @Test func aStaticEntryWithoutTheWantedFamilyIsNoAddress() throws {
        let policy = ResolutionPolicy(staticEntries: [try ResolveEntry(parsing: "a.test:443:10.0.0.1")], resolver: table)
        policy.families = .v6Only
        policy.fallback = system
        let error = try #require(throws: ResolutionError.self) { try policy.resolve(host: "a.test", port: 443) }
        #expect(error.kind == .noAddress && error.reason == "static: no IPv6 address: 10.0.0.1")
        #expect(table.asked.withLock { $0 }.isEmpty && system.asked.withLock { $0 }.isEmpty,
                "the user's entry is final: neither the provider nor the fallback is asked")
    }

    // MARK: Cache

    private func cachingPolicy(fallback: (any Resolver)? = nil) -> ResolutionPolicy {
        let policy = ResolutionPolicy(staticEntries: [], resolver: table, providerConfiguration: "table")
        policy.cache = AnswerCache(directory: directory)
        policy.fallback = fallback
        return policy
    }

    @Test func forgetRemovesTheCachedAnswer() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let policy = cachingPolicy()
        let fresh = try policy.resolve(host: "a.test", port: 443)
        #expect(fresh.cache == .miss)
        let hit = try policy.resolve(host: "a.test", port: 443)
        guard case .hit = hit.cache else { Issue.record("not a hit: \(hit.cache)"); return }
        #expect(table.asked.withLock { $0 } == ["a.test"])

        policy.forget(hit)
        let afterForget = try policy.resolve(host: "a.test", port: 443)
        #expect(afterForget.cache == .miss, "the forgotten answer is asked for again")
        #expect(table.asked.withLock { $0 } == ["a.test", "a.test"])

        policy.forget(afterForget)  // a fresh provider answer is forgotten too
        #expect(try policy.resolve(host: "A.TEST.", port: 443).cache == .miss)
        #expect(table.asked.withLock { $0 }.count == 3)
    }

    @Test func forgetLeavesTheCacheAloneForAnswersThatDidNotComeFromIt() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let policy = cachingPolicy()
        _ = try policy.resolve(host: "a.test", port: 443)
        let address = try #require(IPAddress("10.0.0.8"))
        let fromSystem = ResolverAnswer(host: "a.test", addresses: [address], ttl: 0, source: .system)
        policy.forget(Resolution(entry: ResolveEntry(fromSystem, port: 443), answer: fromSystem, cache: .off))
        let fromStatic = ResolverAnswer(host: "a.test", addresses: [address], ttl: 0, source: .staticEntry)
        policy.forget(Resolution(entry: ResolveEntry(fromStatic, port: 443), answer: fromStatic, cache: .off))
        guard case .hit = try policy.resolve(host: "a.test", port: 443).cache else {
            Issue.record("the cached answer was removed")
            return
        }
        #expect(table.asked.withLock { $0 } == ["a.test"])
    }

    @Test func aFamilyWithoutUsableAddressesIsAskedAgainAndFallsBack() throws {
        // An answer with a usable IPv6 address is cached for IPv6 only; under -4 the provider is asked again, and its
        // unusable IPv4 address falls back as for any fresh answer.
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try cachingPolicy(fallback: system).resolve(host: "half.test", port: 443)
        #expect(first.entry?.description == "half.test:443:[::1]" && first.fallbackReason == nil)
        let v4 = cachingPolicy(fallback: system)
        v4.families = .v4Only
        let second = try v4.resolve(host: "half.test", port: 443)
        #expect(second.entry?.description == "half.test:443:10.0.0.7" && second.fallbackReason?.kind == .noAddress)
        #expect(second.fallbackReason?.reason.hasPrefix("aliyun: no usable IPv4 address: 0.0.0.0") == true,
                "\(String(describing: second.fallbackReason))")
        #expect(table.asked.withLock { $0 } == ["half.test", "half.test"], "the second run asked the provider")
        #expect(system.asked.withLock { $0 } == ["half.test"])
    }
}
