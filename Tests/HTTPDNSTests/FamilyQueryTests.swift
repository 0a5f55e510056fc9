@testable import HTTPDNS
import Testing

/// `-4`/`-6` ask a DoH server for that record type only, as curl's `--doh-url` does, so a server that never
/// answers AAAA queries does not sink an IPv4-only lookup; and only the asked families are cached.
@Suite struct FamilyQueryTests {
    static let json = HTTPDNSResponse(status: 200, contentType: "application/dns-json",
                                      body: Array(#"{"Status":0,"Answer":[{"name":"a.test.","type":1,"TTL":60,"data":"127.0.0.2"}]}"#.utf8))

    /// A server that answers A at once and never answers AAAA.
    static func aOnlyTransport() -> ScriptedTransport {
        let transport = ScriptedTransport()
        transport.script("doh.test", .depending { request in request.url.contains("type=AAAA") ? .silent : .answer(afterMS: 1, json) })
        return transport
    }

    @Test func ipv4OnlyAsksForARecordsOnly() throws {
        let transport = Self.aOnlyTransport()
        let resolver = DoHJSONResolver(client: HTTPDNSClient(servers: [try testServer("doh.test")], transport: transport),
                                       families: .v4Only)
        let answer = try resolver.resolve("a.test", port: 443, within: LookupBudget(milliseconds: 500))
        #expect(answer.addresses.map(\.description) == ["127.0.0.2"])
        #expect(transport.starts.map(\.request.url).allSatisfy { $0.hasSuffix("type=A") }, "\(transport.starts.map(\.request.url))")
    }

    @Test func bothFamiliesWaitForTheAAAAAnswer() throws {
        let transport = Self.aOnlyTransport()
        let resolver = DoHJSONResolver(client: HTTPDNSClient(servers: [try testServer("doh.test")], transport: transport))
        #expect(throws: ResolutionError.self) { try resolver.resolve("a.test", port: 443, within: LookupBudget(milliseconds: 300)) }
        #expect(transport.starts.count == 2)
    }

    @Test func onlyTheAskedFamiliesAreCached() throws {
        let answer = ResolverAnswer(host: "a.test", addresses: [IPAddress("127.0.0.2")!], ttl: 60,
                                    source: .provider(.doh, server: "https://doh.test:443/dns-query"))
        let v4Only = ResolutionPolicy.records(for: answer, provider: "p", now: 0, families: [.v4])
        #expect(v4Only.map(\.family) == [.v4], "silence about AAAA under -4 says nothing about IPv6")
        #expect(ResolutionPolicy.records(for: answer, provider: "p", now: 0).map(\.family) == [.v4, .v6])
    }
}
