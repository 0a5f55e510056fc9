import HTTPDNS
import Testing

@Suite struct ResolveEntryTests {
    private func address(_ text: String) throws -> IPAddress { try #require(IPAddress(text)) }

    @Test func rendersIPv6InBracketsAndKeepsOrder() throws {
        let entry = try #require(ResolveEntry(host: "A.Test", port: 8443,
                                              addresses: [address("127.0.0.2"), address("::1"), address("2001:DB8::1")]))
        #expect(entry.description == "a.test:8443:127.0.0.2,[::1],[2001:db8::1]")
    }

    @Test func keepsATrailingDotBecauseLibcurlLooksUpTheNameAsSpelled() throws {
        // libcurl keys `a.test.` apart from `a.test`, so an entry folds the case and keeps a trailing dot.
        let entry = try #require(ResolveEntry(host: "A.Test.", port: 8443, addresses: [address("127.0.0.2")]))
        #expect(entry.host == "a.test." && entry.description == "a.test.:8443:127.0.0.2")
        #expect(entry.spelled("a.test").description == "a.test:8443:127.0.0.2")
        #expect(entry.spelled("bad name").description == entry.description, "an invalid spelling keeps the entry")
        #expect(HostName.lookupName("A.Test.") == "a.test." && HostName.lookupName("A.Test") == "a.test")
        #expect(HostName.lookupName("a..test.") == nil && HostName.lookupName(".") == nil)
    }

    @Test func answerBecomesEntry() throws {
        let answer = ResolverAnswer(host: "b.test", addresses: [try address("10.0.0.1")], ttl: 5, source: .staticEntry)
        #expect(ResolveEntry(answer, port: 443)?.description == "b.test:443:10.0.0.1")
    }

    @Test func refusesEmptyAddressesBadPortsAndBadHosts() throws {
        let ip = try address("10.0.0.1")
        #expect(ResolveEntry(host: "a.test", port: 443, addresses: []) == nil)
        #expect(ResolveEntry(host: "a.test", port: 0, addresses: [ip]) == nil)
        #expect(ResolveEntry(host: "a.test", port: 65536, addresses: [ip]) == nil)
        for host in ["a:b", "a,b", "a b", "a\nb", "", "ä.test", "a..b", String(repeating: "x", count: 64) + ".test"] {
            #expect(ResolveEntry(host: host, port: 443, addresses: [ip]) == nil, "\(host)")
        }
    }

    @Test(arguments: [
        ("a.test:443:127.0.0.2", "a.test:443:127.0.0.2"),
        ("+a.test:443:127.0.0.2", "a.test:443:127.0.0.2"),
        ("a.test:443:[::1],127.0.0.2", "a.test:443:[::1],127.0.0.2"),
        ("a.test:443:::1", "a.test:443:[::1]"),
        ("A.TEST:80:10.0.0.1", "a.test:80:10.0.0.1"),
        ("a.test.:443:127.0.0.2", "a.test.:443:127.0.0.2"),
    ])
    func parsesCurlSyntax(input: String, rendered: String) throws {
        #expect(try ResolveEntry(parsing: input).description == rendered)
    }

    @Test(arguments: [
        "a.test:443", "a.test:x:127.0.0.2", "a.test:443:127.0.0.2,", "a.test:443:127.0.0.2,evil", "a.test:443:host.test",
        "a.test:443:127.0.0.2 ", "a.test:443:127.0.0.2\n", "a.test:443:[127.0.0.2", "a.test:443:1.2.3.4:80",
        "a.test:443:fe80::1%eth0", ":443:127.0.0.2", "-a.test:443",
    ])
    func rejectsAnythingThatIsNotHostPortAddresses(input: String) {
        let error = #expect(throws: ResolutionError.self) { try ResolveEntry(parsing: input) }
        #expect(error?.kind == .configuration && error?.setting == .staticEntry, "\(input)")
    }
}

@Suite struct IPAddressTests {
    @Test(arguments: ["127.0.0.1", "0.0.0.0", "255.255.255.255", "::1", "::", "2001:db8::1", "::ffff:1.2.3.4"])
    func acceptsAddresses(text: String) {
        #expect(IPAddress(text) != nil)
    }

    @Test(arguments: ["", "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4x", "1.2.3.4,5.6.7.8", "1.2.3.4\n", " 1.2.3.4",
                      "[::1]", "::1%lo", "example.com", "1.2.3.4:80", "::g", "1.2.3.4 "])
    func rejectsEverythingElse(text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test func canonicalTextAndFamilies() throws {
        let v6 = try #require(IPAddress("2001:0DB8:0000::0001"))
        #expect(v6.description == "2001:db8::1" && v6.family == .v6 && v6.bytes.count == 16)
        let v4 = try #require(IPAddress(bytes: [10, 0, 0, 1]))
        #expect(v4.description == "10.0.0.1" && v4.family == .v4 && v4.resolveEntryForm == "10.0.0.1")
        #expect(IPAddress(bytes: [1, 2, 3]) == nil)
    }
}

@Suite struct ResolutionPolicyTests {
    /// A resolver of our own protocol that answers from a table and counts calls.
    final class TableResolver: Resolver {
        var calls: [String] = []
        let table: [String: [String]]
        init(_ table: [String: [String]]) { self.table = table }
        func resolve(_ host: String, port: Int, within budget: LookupBudget) throws(ResolutionError) -> ResolverAnswer {
            calls.append(host)
            guard let texts = table[host] else {
                throw .unavailable(host, [.init(server: "table", phase: .answer, cause: "no \(host)")])
            }
            return ResolverAnswer(host: host, addresses: texts.compactMap { IPAddress($0) }, ttl: 30, source: .provider(.doh, server: "t"))
        }
    }

    @Test func aWildcardEntryAnswersEveryHostOnItsPortAfterTheNamedOnes() throws {
        let resolver = TableResolver(["c.test": ["10.0.0.1"]])
        let entries = try ResolveEntry.list(parsing: ["*:443:10.9.9.9", "b.test:443:10.8.8.8"])
        #expect(entries.map(\.description) == ["*:443:10.9.9.9", "b.test:443:10.8.8.8"] && entries[0].isWildcard)
        let policy = ResolutionPolicy(staticEntries: entries, resolver: resolver)
        #expect(try policy.resolve(host: "A.Test.", port: 443).entry?.description == "a.test.:443:10.9.9.9")
        #expect(try policy.resolve(host: "b.test", port: 443).entry?.description == "b.test:443:10.8.8.8")
        #expect(try policy.resolve(host: "c.test", port: 8443).entry?.description == "c.test:8443:10.0.0.1")
        #expect(resolver.calls == ["c.test"])
    }

    @Test func aRemovalEntryDropsTheEarlierEntriesOfItsHostAndPort() throws {
        func listed(_ texts: [String]) throws -> [String] { try ResolveEntry.list(parsing: texts).map(\.description) }
        #expect(try listed(["a.test:443:10.0.0.1", "a.test:80:10.0.0.1", "-A.TEST:443"]) == ["a.test:80:10.0.0.1"])
        #expect(try listed(["a.test:443:10.0.0.1", "-a.test:443:ignored", "a.test:443:10.0.0.2"]) == ["a.test:443:10.0.0.2"])
        #expect(try listed(["*:443:10.0.0.1", "-*:443", "+b.test:443:10.0.0.3"]) == ["b.test:443:10.0.0.3"])
        #expect(try listed(["a.test.:443:10.0.0.1", "-a.test:443"]) == ["a.test.:443:10.0.0.1"], "libcurl keys a.test. apart")
        for bad in ["-a.test", "-a.test:x", "-:443", "-a b:443", "**:443:10.0.0.1"] {
            #expect(throws: ResolutionError.self, "\(bad)") { try ResolveEntry.list(parsing: [bad]) }
        }
    }

    @Test func staticEntryForSameHostAndPortWins() throws {
        let resolver = TableResolver(["a.test": ["10.0.0.1"]])
        let fixed = try ResolveEntry(parsing: "a.test:443:10.9.9.9")
        let policy = ResolutionPolicy(staticEntries: [fixed], resolver: resolver)
        #expect(try policy.resolve(host: "A.test", port: 443).entry == fixed)
        #expect(resolver.calls.isEmpty)
        #expect(try policy.resolve(host: "a.test", port: 8443).entry?.description == "a.test:8443:10.0.0.1")
        #expect(resolver.calls == ["a.test"])
    }

    @Test func ipLiteralsNeedNoEntryAndOddHostsFail() throws {
        let resolver = TableResolver([:])
        let policy = ResolutionPolicy(staticEntries: [], resolver: resolver)
        #expect(try policy.resolve(host: "::1", port: 443).entry == nil)
        #expect(try policy.resolve(host: "127.0.0.1", port: 443).entry == nil)
        let bad = #expect(throws: ResolutionError.self) { try policy.resolve(host: "bad host", port: 443) }
        #expect(bad?.kind == .invalidName)
        let unknown = #expect(throws: ResolutionError.self) { try policy.resolve(host: "unknown.test", port: 443) }
        #expect(unknown?.kind == .unavailable && unknown?.reason == "table: no unknown.test")
        #expect(resolver.calls == ["unknown.test"])
    }
}
