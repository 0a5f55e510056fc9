@testable import HTTPDNS
import Testing

/// ``AliyunV2Resolver`` over a ``ScriptedTransport``: batches, the hedged race with final and retryable vendor
/// codes, `InvalidHost` in a batch, per-family "no address", and encrypted exchanges end to end (the scripted
/// server opens each `enc` with the account key and seals its answer, as Alibaba's server does).
@Suite(.serialized) struct AliyunV2ResolverTests {
    /// A fresh budget for each use: one made once would run out while other suites run first.
    static var budget: LookupBudget { LookupBudget(milliseconds: 5_000) }

    static func resolver(_ transport: ScriptedTransport, servers: [String] = ["s1.test"], mode: AliyunV2.Mode = .plain,
                         families: AddressFamilies = .both) throws -> AliyunV2Resolver {
        let client = HTTPDNSClient(servers: try servers.map { try testServer($0) }, transport: transport)
        return AliyunV2Resolver(api: try AliyunV2AnswerTests.api(mode), families: families, client: client)
    }

    /// The plain answer body for `names`: `192.0.2.N` (N = the name's length) and `2001:db8::N` each.
    static func body(for names: [String], mode: AliyunV2.Mode = .plain, encryption: AliyunV2.Encryption = .plain) -> String {
        let answers = names.map { name in
            #"{"dn":"\#(name)","v4":{"ips":["192.0.2.\#(name.count)"],"ttl":120},"v6":{"ips":["2001:db8::\#(name.count)"],"ttl":60}}"#
        }
        let data = #"{"cip":"198.51.100.1","answers":[\#(answers.joined(separator: ","))]}"#
        guard mode != .plain else { return #"{"code":"success","mode":0,"data":\#(data)}"# }
        let sealed = try! encryption.seal(Array(data.utf8))
        return #"{"code":"success","mode":\#(mode.rawValue),"data":"\#(Base64.encode(sealed))"}"#
    }

    /// The value of query parameter `name` in `url`, percent-decoded for the commas it may hold.
    static func parameter(_ name: String, in url: String) -> String? {
        guard let query = url.split(separator: "?", maxSplits: 1).last else { return nil }
        return query.split(separator: "&").first { $0.hasPrefix("\(name)=") }
            .map { String($0.dropFirst(name.count + 1)).replacingPercentComma() }
    }

    /// A server that answers every name of a plain query.
    static var answersEveryName: ScriptedTransport.Behaviour { .depending { request in
        let names = Self.parameter("dn", in: request.url)?.split(separator: ",").map(String.init) ?? []
        return .answer(afterMS: 0, .ok(Self.body(for: names), contentType: "application/json"))
    } }

    static func error(_ code: String, status: Int) -> ScriptedTransport.Behaviour {
        .answer(afterMS: 0, HTTPDNSResponse(status: status, body: Array(#"{"code":"\#(code)"}"#.utf8)))
    }

    @Test func threeNamesAreOneQuery() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", Self.answersEveryName)
        let results = try Self.resolver(transport).resolve(hosts: ["a.test", "bb.test", "ccc.test"], port: 443, within: Self.budget)
        #expect(transport.starts.count == 1)
        let url = try #require(transport.starts.first?.request.url)
        #expect(url.hasPrefix("https://s1.test:443/v2/d?id=100000&m=0&dn=a.test%2Cbb.test%2Cccc.test&q=4%2C6&v=1.0&exp="), "\(url)")
        let answers = try results.map { try $0.get() }
        #expect(answers.map(\.host) == ["a.test", "bb.test", "ccc.test"])
        #expect(answers[1].addresses.map(\.description) == ["192.0.2.7", "2001:db8::7"])
        #expect(answers[1].ttl == 60 && answers[1].source == .provider(.aliyun, server: "https://s1.test:443"))
    }

    @Test func sevenNamesAreTwoQueriesAndRepeatedNamesAreAskedOnce() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", Self.answersEveryName)
        let hosts = (1...7).map { "n\($0).test" } + ["n1.test"]
        let results = try Self.resolver(transport).resolve(hosts: hosts, port: 443, within: Self.budget)
        #expect(transport.starts.count == 2)
        #expect(transport.starts.map { Self.parameter("dn", in: $0.request.url)?.split(separator: ",").count } == [5, 2])
        #expect(try results.map { try $0.get().host } == hosts)
    }

    @Test func aSingleNameIsAOneNameQuery() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", Self.answersEveryName)
        let answer = try Self.resolver(transport, families: .v6Only).resolve("a.test", port: 443, within: Self.budget)
        #expect(answer.addresses.map(\.description) == ["2001:db8::6"], "only the family asked")
        #expect(Self.parameter("q", in: transport.starts[0].request.url) == "6")
    }

    @Test func invalidHostInABatchAsksTheNamesOneByOne() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", .depending { request in
            let names = Self.parameter("dn", in: request.url) ?? ""
            if names.contains(",") || names == "x_y.test" { return Self.error("InvalidHost", status: 400) }
            return Self.answersEveryName
        })
        let results = try Self.resolver(transport).resolve(hosts: ["a.test", "x_y.test", "c.test"], port: 443, within: Self.budget)
        #expect(transport.starts.map { Self.parameter("dn", in: $0.request.url) } == ["a.test,x_y.test,c.test", "a.test", "x_y.test", "c.test"])
        #expect(try results[0].get().addresses.first == IPAddress("192.0.2.6"))
        #expect(try results[2].get().addresses.first == IPAddress("192.0.2.6"))
        guard case .failure(let bad) = results[1] else { Issue.record("x_y.test answered"); return }
        #expect(bad.host == "x_y.test" && bad.kind == .unavailable)
        #expect(bad.reason == "https://s1.test:443: 'InvalidHost' (HTTP 400)")
    }

    @Test func aFinalCodeIsAskedOnceAndCancelsTheHedgedQuery() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", .silent)
        transport.script("s2.test", Self.error("InvalidSignature", status: 403))
        transport.script("s3.test", Self.answersEveryName)
        let resolver = try Self.resolver(transport, servers: ["s1.test", "s2.test", "s3.test"])
        let error = #expect(throws: ResolutionError.self) { try resolver.resolve("a.test", port: 443, within: Self.budget) }
        #expect(error?.kind == .unavailable)
        #expect(error?.failures.last?.description == "https://s2.test:443: 'InvalidSignature' (HTTP 403)")
        #expect(transport.starts(of: "s2.test").count == 1 && transport.starts(of: "s3.test").isEmpty)
        #expect(transport.cancelledWhileRunning(of: "s1.test").count == 1 && transport.stillRunning.isEmpty)
    }

    /// Every code but the seven final ones (``AliyunV2/Code/isFinal``) sends the query to the next server.
    @Test(arguments: [("ServiceLevelDeny", 403), ("InternalError", 500), ("SomethingNew", 403), ("MissingArgument", 400),
                      ("TooManyHosts", 400), ("SdnsNotSupported", 400), ("MethodNotAllowed", 405)])
    func aRetryableCodeTriesTheNextServer(_ code: String, _ status: Int) throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", Self.error(code, status: status))
        transport.script("s2.test", Self.answersEveryName)
        let answer = try Self.resolver(transport, servers: ["s1.test", "s2.test"]).resolve("a.test", port: 443, within: Self.budget)
        #expect(answer.source == .provider(.aliyun, server: "https://s2.test:443"))
        #expect(transport.starts(of: "s1.test").count == 1 && transport.starts(of: "s2.test").count == 1)
        #expect(answer.trail.first?.hasPrefix("skipped https://s1.test:443: ") == true, "\(answer.trail)")
        if code != "InternalError" { #expect(answer.trail.first?.contains("'\(code)' (HTTP \(status))") == true, "\(answer.trail)") }
    }

    @Test func tooManyHostsFromEveryServerAsksTheNamesOneByOne() throws {
        let transport = ScriptedTransport()
        for server in ["s1.test", "s2.test"] {
            transport.script(server, .depending { request in
                (Self.parameter("dn", in: request.url) ?? "").contains(",") ? Self.error("TooManyHosts", status: 400) : Self.answersEveryName
            })
        }
        let names = ["a.test", "bb.test", "ccc.test"]
        let results = try Self.resolver(transport, servers: ["s1.test", "s2.test"]).resolve(hosts: names, port: 443, within: Self.budget)
        let asked = transport.starts.map { Self.parameter("dn", in: $0.request.url) ?? "" }
        #expect(asked.filter { $0.contains(",") }.count == 2, "the batch went to both servers: \(asked)")
        #expect(Set(asked.filter { !$0.contains(",") }) == Set(names), "then each name on its own: \(asked)")
        #expect(try results.map { try $0.get().host } == names)
    }

    @Test func aFamilyWithNoIPCodeIsNoAddressAndAllowsTheFallback() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", .answer(afterMS: 0, .ok(
            #"{"code":"success","mode":0,"data":{"answers":[{"dn":"a.test","v4":{"ips":["192.0.2.1"],"ttl":60},"v6":{"ips":[],"no_ip_code":"RRNotExist"}}]}}"#)))
        let error = #expect(throws: ResolutionError.self) {
            try Self.resolver(transport, families: .v6Only).resolve("a.test", port: 443, within: Self.budget)
        }
        #expect(error?.kind == .noAddress && error?.allowsFallback == true)
        #expect(error?.reason == "https://s1.test:443: no IPv6 address ('RRNotExist')")
    }

    @Test(arguments: [AliyunV2.Mode.cbc, .gcm])
    func anEncryptedExchangeEndToEnd(_ mode: AliyunV2.Mode) throws {
        let encryption = try AliyunV2.Encryption(mode, hexKey: AliyunV2RequestTests.aesKey)
        let transport = ScriptedTransport()
        transport.script("s1.test", .depending { request in
            // The server's side: open `enc`, read its JSON, seal the answer for the names it holds.
            guard Self.parameter("m", in: request.url) == "\(mode.rawValue)", Self.parameter("dn", in: request.url) == nil,
                  let enc = Self.parameter("enc", in: request.url).flatMap(Hex.decode),
                  let opened = try? encryption.open(enc, mode: mode),
                  case .object(let fields) = try? JSONValue.parse(opened), case .string(let names)? = fields["dn"],
                  fields["q"] == .string("4,6")
            else { return Self.error("MissingArgument", status: 400) }
            let list = names.split(separator: ",").map(String.init)
            return .answer(afterMS: 0, .ok(Self.body(for: list, mode: mode, encryption: encryption)))
        })
        let results = try Self.resolver(transport, mode: mode).resolve(hosts: ["a.test", "bb.test"], port: 443, within: Self.budget)
        #expect(try results.map { try $0.get().addresses.map(\.description) } == [["192.0.2.6", "2001:db8::6"], ["192.0.2.7", "2001:db8::7"]])
        let url = try #require(transport.starts.first?.request.url)
        #expect(!url.contains("a.test") && !url.contains("bb.test"), "\(url)")
    }
}

private extension String {
    func replacingPercentComma() -> String {
        var text = self
        while let range = text.firstRange(of: "%2C") { text.replaceSubrange(range, with: ",") }
        return text
    }
}
