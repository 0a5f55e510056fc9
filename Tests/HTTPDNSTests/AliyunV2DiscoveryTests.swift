@testable import HTTPDNS
import Testing

/// Alibaba v2 service discovery: the built-in boot list, the strict reading of `/ss` answers and of stored lists,
/// and ``AliyunV2Discovery`` driving an ``AliyunV2Resolver`` over a ``ScriptedTransport`` (cold start, a young and
/// an expired stored list, a refresh after every service address failed, a final boot code).
@Suite(.serialized) struct AliyunV2DiscoveryTests {
    static var budget: LookupBudget { LookupBudget(milliseconds: 5_000) }

    /// A store in memory, counting writes.
    final class MemoryStore: AliyunV2ServiceStore {
        var lists: [String: AliyunV2.ServiceList] = [:]
        var writes = 0
        func serviceList(key: String, problem: (String) -> Void) -> AliyunV2.ServiceList? { lists[key] }
        func store(_ list: AliyunV2.ServiceList, key: String) -> String? {
            writes += 1
            lists[key] = list
            return nil
        }
    }

    static let now: Int64 = 1_800_000_000

    static func ss(_ body: String, status: Int = 200) -> ScriptedTransport.Behaviour {
        .answer(afterMS: 0, HTTPDNSResponse(status: status, body: Array(body.utf8)))
    }

    static func resolver(_ transport: ScriptedTransport, store: MemoryStore, boot: [String] = ["boot.test"]) throws -> AliyunV2Resolver {
        let client = HTTPDNSClient(servers: try boot.map { try testServer($0) }, transport: transport)
        let api = try AliyunV2AnswerTests.api()
        let discovery = AliyunV2Discovery(api: api, boot: client, store: store, key: "k", now: { Self.now })
        return AliyunV2Resolver(api: api, discovery: discovery)
    }

    static func list(_ ports: [Int], age: Int64) -> AliyunV2.ServiceList {
        AliyunV2.ServiceList(scheme: "https", addresses: ports.enumerated().map { .init(address: IPAddress("192.0.2.\($0.offset + 1)")!, port: $0.element) },
                             boot: "https://boot.test:443", discovered: now - age)
    }

    // MARK: The built-in list

    @Test func builtInBootAddressesAreTheSDKsMainlandList() {
        #expect(AliyunV2.bootAddresses.map(\.description) == [
            "203.107.1.1", "203.107.1.97", "203.107.1.100", "203.119.238.240", "106.11.25.239", "59.82.99.47",
            "2401:b180:7001::31d", "2408:4003:1f40::30a", "2401:b180:2000:20::10", "2401:b180:2000:30::1c",
        ])
        #expect(AliyunV2.bootServerURLs.first == "https://203.107.1.1:443")
        #expect(AliyunV2.bootServerURLs.last == "https://[2401:b180:2000:30::1c]:443")
        #expect(AliyunV2.serviceName == "resolvers.httpdns.aliyuncs.com")
    }

    // MARK: Reading /ss

    @Test func portsFollowTheirAddressesAndTheSchemeFillsTheRest() throws {
        let body = #"{"service_ip":["192.0.2.1","192.0.2.2","192.0.2.2"],"service_ip_port":[8443],"service_ipv6":["2001:db8::1"],"service_ipv6_port":[9443]}"#
        let list = try AliyunV2.ServiceList(parsing: Array(body.utf8), scheme: "https", boot: "b", discovered: 1)
        #expect(list.addresses.map(\.description) == ["192.0.2.1:8443", "192.0.2.2:443", "[2001:db8::1]:9443"])
        let plain = try AliyunV2.ServiceList(parsing: Array(#"{"service_ip":["192.0.2.1"]}"#.utf8), scheme: "http", boot: "b", discovered: 1)
        #expect(plain.addresses.map(\.description) == ["192.0.2.1:80"])
        #expect(list.servers().map(\.label) == ["https://192.0.2.1:8443 as resolvers.httpdns.aliyuncs.com",
                                                "https://192.0.2.2:443 as resolvers.httpdns.aliyuncs.com",
                                                "https://[2001:db8::1]:9443 as resolvers.httpdns.aliyuncs.com"])
    }

    @Test(arguments: [
        (#"{"service_ip":["192.0.2.1,10.0.0.1"]}"#, "is not an IP address"),
        (#"{"service_ip":["2001:db8::1"]}"#, "is not an IPv4 address"),
        (#"{"service_ip":["0.0.0.0"]}"#, "not a usable address"),
        (#"{"service_ipv6":["ff02::1"]}"#, "not a usable address"),
        (#"{"service_ip":["192.0.2.1"],"service_ip_port":["443"]}"#, "not a port"),
        (#"{"service_ip":["192.0.2.1"],"service_ip_port":[70000]}"#, "not a port"),
        (#"{"service_ip":"192.0.2.1"}"#, "not an array"),
        (#"{"service_ip":[]}"#, "no service address"),
        (#"{"service_ip":["192.0.2.1"],"service_status":"disable"}"#, "disabled"),
        (#"["192.0.2.1"]"#, "not an object"),
        (#"{"service_ip":["192.0.2.1"],"service_ip":["192.0.2.2"]}"#, "not JSON"),
    ])
    func badAnswersAreRefusedWhole(_ body: String, _ reason: String) {
        #expect {
            try AliyunV2.ServiceList(parsing: Array(body.utf8), scheme: "https", boot: "b", discovered: 1)
        } throws: { error in
            (error as? FieldError)?.reason.contains(reason) == true
        }
    }

    @Test func moreThanThirtyTwoAddressesAreRefused() {
        let ips = (1...33).map { "\"192.0.2.\($0)\"" }.joined(separator: ",")
        #expect(throws: FieldError.self) {
            try AliyunV2.ServiceList(parsing: Array(#"{"service_ip":[\#(ips)]}"#.utf8), scheme: "https", boot: "b", discovered: 1)
        }
    }

    // MARK: Stored lists

    @Test func aStoredListReadsBackOnlyUnderItsKey() throws {
        let list = Self.list([8443, 9443], age: 5)
        let text = list.record(key: "account-1")
        #expect(try AliyunV2.ServiceList(record: Array(text.utf8), key: "account-1") == list)
        #expect(throws: CacheFileError("holds another key")) { try AliyunV2.ServiceList(record: Array(text.utf8), key: "account-2") }
        #expect(!text.contains("account-1"))
    }

    @Test(arguments: [
        ("addresses 192.0.2.1:8443", "addresses 192.0.2.1:0"),
        ("addresses 192.0.2.1:8443", "addresses 0.0.0.0:8443"),
        ("addresses 192.0.2.1:8443", "addresses [192.0.2.1]:8443"),
        ("addresses 192.0.2.1:8443", "addresses ::1:8443"),
        ("addresses 192.0.2.1:8443", "addresses "),
        ("scheme https", "scheme ftp"),
        ("discovered ", "discovered x"),
    ])
    func editedRecordsAreRefused(_ from: String, _ to: String) {
        let text = Self.list([8443], age: 5).record(key: "k").replacingFirst(from, with: to)
        #expect(throws: CacheFileError.self) { try AliyunV2.ServiceList(record: Array(text.utf8), key: "k") }
    }

    // MARK: Discovery driving the resolver

    @Test func aColdStartAsksTheBootServerThenTheServiceAddressAndStoresTheList() throws {
        let transport = ScriptedTransport()
        transport.script("boot.test", Self.ss(#"{"service_ip":["192.0.2.10"],"service_ip_port":[8443]}"#))
        transport.script(":8443/v2/d", AliyunV2ResolverTests.answersEveryName)
        let store = MemoryStore()
        let answer = try Self.resolver(transport, store: store).resolve("a.test", port: 443, within: Self.budget)
        #expect(transport.starts.map(\.request.url).map { $0.split(separator: "?")[0] } ==
                ["https://boot.test:443/100000/ss", "https://resolvers.httpdns.aliyuncs.com:8443/v2/d"])
        #expect(transport.starts.first?.request.url.hasSuffix("?region=global") == true)
        #expect(transport.starts.last?.request.pins.map(\.description) == ["resolvers.httpdns.aliyuncs.com:8443:192.0.2.10"])
        #expect(answer.addresses.map(\.description) == ["192.0.2.6", "2001:db8::6"])
        #expect(answer.trail.first?.contains("discovered through https://boot.test:443: https 192.0.2.10:8443") == true, "\(answer.trail)")
        #expect(store.lists["k"]?.addresses.map(\.description) == ["192.0.2.10:8443"])
        #expect(store.lists["k"]?.discovered == Self.now)
    }

    @Test func aYoungStoredListIsUsedWithoutTheBootServer() throws {
        let transport = ScriptedTransport()
        transport.script(":8443/v2/d", AliyunV2ResolverTests.answersEveryName)
        let store = MemoryStore()
        store.lists["k"] = Self.list([8443], age: AliyunV2Discovery.maximumAgeSeconds - 60)
        let answer = try Self.resolver(transport, store: store).resolve("a.test", port: 443, within: Self.budget)
        #expect(transport.starts(of: "boot.test").isEmpty)
        #expect(transport.starts(of: ":8443/v2/d").count == 1)
        #expect(answer.trail.first?.contains("from the cache, discovered 7 h 59 min ago") == true, "\(answer.trail)")
        #expect(store.writes == 0)
    }

    @Test func aListOlderThanEightHoursIsDiscoveredAgain() throws {
        let transport = ScriptedTransport()
        transport.script("boot.test", Self.ss(#"{"service_ip":["192.0.2.11"],"service_ip_port":[9443]}"#))
        transport.script(":9443/v2/d", AliyunV2ResolverTests.answersEveryName)
        let store = MemoryStore()
        store.lists["k"] = Self.list([8443], age: AliyunV2Discovery.maximumAgeSeconds)
        let answer = try Self.resolver(transport, store: store).resolve("a.test", port: 443, within: Self.budget)
        #expect(transport.starts(of: "boot.test").count == 1)
        #expect(transport.starts(of: ":8443").isEmpty)
        #expect(answer.trail.first?.contains("rediscovered (the cached list was 8 h 0 min old)") == true, "\(answer.trail)")
        #expect(store.lists["k"]?.addresses.map(\.port) == [9443])
    }

    @Test func anExpiredListServesWhenTheBootServersFail() throws {
        let transport = ScriptedTransport()
        transport.script("boot.test", .answer(afterMS: 0, HTTPDNSResponse(status: 503)))
        transport.script(":8443/v2/d", AliyunV2ResolverTests.answersEveryName)
        let store = MemoryStore()
        store.lists["k"] = Self.list([8443], age: 9 * 3600)
        let answer = try Self.resolver(transport, store: store).resolve("a.test", port: 443, within: Self.budget)
        #expect(answer.trail.first?.contains("service discovery failed") == true, "\(answer.trail)")
        #expect(answer.trail.dropFirst().first?.contains("9 h 0 min ago") == true, "\(answer.trail)")
        #expect(store.writes == 0)
    }

    @Test func everyStoredAddressFailingRefreshesTheListOnceAndAsksAgain() throws {
        let transport = ScriptedTransport()
        transport.script("boot.test", Self.ss(#"{"service_ip":["192.0.2.11"],"service_ip_port":[9443]}"#))
        transport.script(":8443/v2/d", .answer(afterMS: 0, HTTPDNSResponse(status: 503)))
        // The second query to the rediscovered address fails as well.
        transport.script(":9443/v2/d", AliyunV2ResolverTests.answersEveryName, .answer(afterMS: 0, HTTPDNSResponse(status: 503)))
        let store = MemoryStore()
        store.lists["k"] = Self.list([8443], age: 60)
        let resolver = try Self.resolver(transport, store: store)
        let answer = try resolver.resolve("a.test", port: 443, within: Self.budget)
        #expect(transport.starts.map { $0.request.url.split(separator: "?")[0] } == [
            "https://resolvers.httpdns.aliyuncs.com:8443/v2/d", "https://boot.test:443/100000/ss",
            "https://resolvers.httpdns.aliyuncs.com:9443/v2/d",
        ])
        #expect(answer.trail.contains { $0.hasPrefix("every cached service address failed") && $0.contains("HTTP 503") }, "\(answer.trail)")
        #expect(store.lists["k"]?.addresses.map(\.port) == [9443])
        // The list of this run failing too is not asked for again.
        #expect(throws: ResolutionError.self) { try resolver.resolve("b.test", port: 443, within: Self.budget) }
        #expect(transport.starts(of: "boot.test").count == 1)
    }

    @Test func aFreshListFailingIsNotRefreshed() throws {
        let transport = ScriptedTransport()
        transport.script("boot.test", Self.ss(#"{"service_ip":["192.0.2.10"],"service_ip_port":[8443]}"#))
        transport.script(":8443/v2/d", .answer(afterMS: 0, HTTPDNSResponse(status: 503)))
        #expect(throws: ResolutionError.self) {
            try Self.resolver(transport, store: MemoryStore()).resolve("a.test", port: 443, within: Self.budget)
        }
        #expect(transport.starts(of: "boot.test").count == 1)
    }

    @Test func aFinalCodeFromAServiceAddressDoesNotRefresh() throws {
        let transport = ScriptedTransport()
        transport.script(":8443/v2/d", AliyunV2ResolverTests.error("InvalidSignature", status: 403))
        let store = MemoryStore()
        store.lists["k"] = Self.list([8443], age: 60)
        #expect { try Self.resolver(transport, store: store).resolve("a.test", port: 443, within: Self.budget) } throws: { error in
            (error as? ResolutionError)?.reason.contains("InvalidSignature") == true
        }
        #expect(transport.starts(of: "boot.test").isEmpty)
    }

    @Test func aBootServersInvalidAccountEndsTheSearch() throws {
        let transport = ScriptedTransport()
        transport.script("boot1.test", .answer(afterMS: 0, HTTPDNSResponse(status: 403, body: Array(#"{"code":"InvalidAccount"}"#.utf8))))
        transport.script("boot2.test", .silent)
        #expect {
            try Self.resolver(transport, store: MemoryStore(), boot: ["boot1.test", "boot2.test"])
                .resolve("a.test", port: 443, within: Self.budget)
        } throws: { error in
            let reason = (error as? ResolutionError)?.reason ?? ""
            return reason.contains("service discovery: 'InvalidAccount' (HTTP 403)")
        }
        #expect(transport.starts(of: "boot2.test").count <= 1)
        #expect(transport.stillRunning.isEmpty)
    }

    @Test func bootFailuresAreNamedAsServiceDiscovery() throws {
        let transport = ScriptedTransport()
        transport.script("boot.test", Self.ss(#"{"service_ip":["not-an-ip"]}"#))
        #expect {
            try Self.resolver(transport, store: MemoryStore()).resolve("a.test", port: 443, within: Self.budget)
        } throws: { error in
            let error = error as? ResolutionError
            return error?.kind == .unavailable && error?.failures.first?.cause.hasPrefix("service discovery: ") == true
        }
    }
}

extension String {
    /// The text with the first occurrence of `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        let parts = split(separator: target, maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count == 2 ? parts[0] + replacement + parts[1] : self
    }
}
