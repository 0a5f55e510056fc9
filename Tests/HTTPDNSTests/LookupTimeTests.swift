import Testing
@testable import HTTPDNS

/// ``ResolutionPolicy/timedResolve(hosts:port:)``: which names each lookup time covers. A provider that asks one
/// name at a time is asked for each in turn and each time is the name's own; names a batching provider
/// (``Resolver/asksNamesTogether``) answers in one call share that call's time and say how many they were; a name
/// answered locally (pinned) has its own time whatever the provider.
@Suite struct LookupTimeTests {
    /// ``CountingResolver``'s table behind a batch API: `resolve(hosts:)` is one call, recorded.
    final class BatchingResolver: Resolver {
        let table: CountingResolver
        var calls: [[String]] = []
        init(_ table: CountingResolver) { self.table = table }

        var asksNamesTogether: Bool { true }

        func resolve(_ host: String, port: Int, within budget: LookupBudget) throws(ResolutionError) -> ResolverAnswer {
            try table.resolve(host, port: port, within: budget)
        }

        func resolve(hosts: [String], port: Int, within budget: LookupBudget) -> [Result<ResolverAnswer, ResolutionError>] {
            calls.append(hosts)
            return hosts.map { host in Result { () throws(ResolutionError) in try table.resolve(host, port: port, within: budget) } }
        }
    }

    static func table() -> CountingResolver {
        CountingResolver(["a.test": (["10.0.0.1"], 60, nil), "b.test": (["10.0.0.2"], 60, nil), "c.test": (["10.0.0.3"], 60, nil)])
    }

    @Test func aProviderAskingOneNameAtATimeTimesEachName() throws {
        let table = Self.table()
        let policy = ResolutionPolicy(staticEntries: [], resolver: table)
        let timed = policy.timedResolve(hosts: ["a.test", "b.test", "c.test"], port: 443)
        #expect(table.asked.withLock { $0 } == ["a.test", "b.test", "c.test"])
        #expect(timed.map(\.time.names) == [1, 1, 1])
        #expect(try timed.map { try $0.result.get().entry?.description } == ["a.test:443:10.0.0.1", "b.test:443:10.0.0.2", "c.test:443:10.0.0.3"])
    }

    @Test func namesAskedTogetherShareTheirLookupAndAPinnedNameKeepsItsOwn() throws {
        let batching = BatchingResolver(Self.table())
        let pinned = try ResolveEntry(parsing: "p.test:443:10.0.0.9")
        let policy = ResolutionPolicy(staticEntries: [pinned], resolver: batching)
        let timed = policy.timedResolve(hosts: ["a.test", "p.test", "b.test", "c.test"], port: 443)
        #expect(batching.calls == [["a.test", "b.test", "c.test"]], "one call for the names the provider is asked")
        #expect(timed.map(\.time.names) == [3, 1, 3, 3])
        #expect(timed[0].time.duration == timed[2].time.duration && timed[2].time.duration == timed[3].time.duration,
                "the batch's one time, given to each of its names")
        #expect(try timed[1].result.get().entry == pinned)
        #expect(policy.resolve(hosts: ["a.test"], port: 443).count == 1 && batching.calls.count == 2)
    }

    @Test func aNameAskedAloneIsItsOwnLookupEvenWithABatchingProvider() throws {
        let batching = BatchingResolver(Self.table())
        let timed = ResolutionPolicy(staticEntries: [], resolver: batching).timedResolve(hosts: ["b.test"], port: 443)
        #expect(timed.map(\.time.names) == [1] && batching.calls == [["b.test"]])
    }
}
