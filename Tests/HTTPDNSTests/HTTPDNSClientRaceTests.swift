@testable import HTTPDNS
import Testing

/// `https://HOST:443` for a scripted server.
func testServer(_ host: String, scheme: String = "https", port: Int = 443, path: String = "", query: String? = nil,
                userInfo: String? = nil) throws -> HTTPDNSServer {
    try HTTPDNSServer(scheme: scheme, host: host, port: port, path: path, query: query, userInfo: userInfo,
                      setting: .dohJSONServer)
}

/// The hedged race of ``HTTPDNSClient`` over a ``ScriptedTransport``. Every server gets two exchanges per lookup
/// (like A and AAAA). Bodies mean: `ok:X` an answer, `bad` an answer the provider rejects, `none` a definite "no
/// records", `refused` a definite error every server would repeat.
///
/// Timing bounds are generous (2 cores, other suites running): a lower bound is what the race must wait at
/// least, an upper bound only tells a hedge from a budget.
@Suite(.serialized) struct HTTPDNSClientRaceTests {
    static let requests = [HTTPDNSClient.Request(path: "?type=A"), HTTPDNSClient.Request(path: "?type=AAAA")]

    static func verdict(_ responses: [HTTPDNSResponse]) -> HTTPDNSClient.Verdict<String> {
        let texts = responses.map { String(decoding: $0.body, as: UTF8.self) }
        for text in texts {
            switch text {
            case "bad": return .serverFailed("bad answer")
            case "none": return .noRecords("no records")
            case "refused": return .definite("'InvalidAccount' (HTTP 403)")
            default: continue
            }
        }
        return .answer(texts.joined(separator: "+"))
    }

    /// One lookup of `a.test` within `budget`, and how long it took in milliseconds.
    func ask(_ client: HTTPDNSClient, _ budget: LookupBudget) -> (Result<HTTPDNSClient.Reply<String>, ResolutionError>, Double) {
        let started = ContinuousClock.now
        let result = Result { () throws(ResolutionError) in
            try client.ask(Self.requests, about: "a.test", within: budget, interpret: Self.verdict)
        }
        let (seconds, attoseconds) = (ContinuousClock.now - started).components
        return (result, Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }

    func label(_ host: String) -> String { "https://\(host):443" }

    // MARK: Hedging

    @Test func hedgeDelayIsThreeHundredMillisecondsOrTheBudgetSplitAmongTheServers() throws {
        let two = HTTPDNSClient(servers: [try testServer("s1.test"), try testServer("s2.test")], transport: ScriptedTransport())
        #expect(two.hedgeDelayMS(budgetMS: nil) == 300)
        #expect(two.hedgeDelayMS(budgetMS: 5_000) == 300)
        #expect(two.hedgeDelayMS(budgetMS: 400) == 200)
        #expect(two.hedgeDelayMS(budgetMS: 1) == 1)
        #expect(two.hedgeDelayMS(budgetMS: 0) == 1)
        let one = HTTPDNSClient(servers: [try testServer("s1.test")], transport: ScriptedTransport())
        #expect(one.hedgeDelayMS(budgetMS: 100) == 300, "a single server has nobody to hedge with")
    }

    @Test func aSilentFirstServerCostsOneHedgeDelay() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", .silent)
        transport.script("s2.test", .answer(afterMS: 20, .ok("ok:s2")))
        let client = HTTPDNSClient(servers: [try testServer("s1.test"), try testServer("s2.test")], transport: transport)
        let (result, elapsed) = ask(client, LookupBudget(milliseconds: 2_000))
        let reply = try result.get()
        #expect(reply.value == "ok:s2+ok:s2" && reply.server == label("s2.test"))

        let first = try #require(transport.firstStartMS(of: "s1.test")), second = try #require(transport.firstStartMS(of: "s2.test"))
        #expect((250...900).contains(second - first), "s2 joined after \(second - first) ms")
        #expect(elapsed >= 315 && elapsed < 1_500, "answered after \(elapsed) ms: a hedge, not the 2000 ms budget")
        #expect(transport.starts(of: "s1.test").count == 2 && transport.starts(of: "s2.test").count == 2)
        #expect(transport.cancelledWhileRunning(of: "s1.test").count == 2, "both of s1's exchanges were cancelled")
        #expect(transport.completed(of: "s1.test").isEmpty && transport.stillRunning.isEmpty)
        // Each exchange may take what is left of the budget when it starts.
        for start in transport.starts(of: "s1.test") { #expect((1_900...2_000).contains(start.request.timeoutMS ?? 0)) }
        for start in transport.starts(of: "s2.test") { #expect((1_000...1_750).contains(start.request.timeoutMS ?? 0)) }

        #expect(reply.trail.count == 2, "\(reply.trail)")
        #expect(reply.trail.first == "race: https://s1.test:443: no answer after 300 ms; also asking https://s2.test:443")
        let last = try #require(reply.trail.last)
        #expect(last.hasPrefix("race: https://s2.test:443 answered in ") && last.hasSuffix(" ms; cancelled https://s1.test:443"), "\(last)")
    }

    @Test func theHedgeShrinksToTheBudgetSplitAmongTheServers() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", .silent)
        transport.script("s2.test", .silent)
        transport.script("s3.test", .answer(afterMS: 20, .ok("ok:s3")))
        let client = HTTPDNSClient(servers: try ["s1.test", "s2.test", "s3.test"].map { try testServer($0) }, transport: transport)
        let (result, elapsed) = ask(client, LookupBudget(milliseconds: 600))  // 200 ms per server
        let reply = try result.get()
        #expect(reply.server == label("s3.test"))
        let starts = try ["s1.test", "s2.test", "s3.test"].map { try #require(transport.firstStartMS(of: $0)) }
        #expect((190...450).contains(starts[1] - starts[0]), "s2 after \(starts[1] - starts[0]) ms")
        #expect((190...450).contains(starts[2] - starts[1]), "s3 after \(starts[2] - starts[1]) ms")
        #expect(elapsed < 600, "answered after \(elapsed) ms, inside the budget")
        #expect(reply.trail.count == 3, "\(reply.trail)")
        #expect(reply.trail.first == "race: https://s1.test:443: no answer after 200 ms; also asking https://s2.test:443")
        #expect(reply.trail.last?.hasSuffix("; cancelled https://s1.test:443, https://s2.test:443") == true, "\(reply.trail)")
        #expect(transport.cancelledWhileRunning(of: "s1.test").count == 2 && transport.cancelledWhileRunning(of: "s2.test").count == 2)
        #expect(transport.stillRunning.isEmpty)
    }

    @Test func aFastFailingServerLetsTheNextOneStartAtOnce() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", .fail(afterMS: 5, .refused))
        transport.script("s2.test", .answer(afterMS: 10, .ok("ok:s2")))
        let client = HTTPDNSClient(servers: [try testServer("s1.test"), try testServer("s2.test")], transport: transport)
        let (result, elapsed) = ask(client, LookupBudget(milliseconds: 2_000))
        let reply = try result.get()
        #expect(reply.server == label("s2.test"))
        let gap = try #require(transport.firstStartMS(of: "s2.test")) - #require(transport.firstStartMS(of: "s1.test"))
        #expect(gap < 150, "s2 started \(gap) ms after s1: no hedge wait after a failure")
        #expect(elapsed < 250)
        #expect(reply.trail.first == "skipped https://s1.test:443: Failed to connect: Connection refused")
        #expect(reply.trail.count == 2 && reply.trail.last?.hasPrefix("race: https://s2.test:443 answered in ") == true, "\(reply.trail)")
        #expect(transport.stillRunning.isEmpty)
    }

    @Test func theFirstValidAnswerWinsOverAnEarlierServersLaterAnswer() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", .answer(afterMS: 600, .ok("ok:s1")))
        transport.script("s2.test", .answer(afterMS: 30, .ok("ok:s2")))
        let client = HTTPDNSClient(servers: [try testServer("s1.test"), try testServer("s2.test")], transport: transport)
        let (result, elapsed) = ask(client, LookupBudget(milliseconds: 2_000))
        let reply = try result.get()
        #expect(reply.value == "ok:s2+ok:s2" && reply.server == label("s2.test"))
        #expect(elapsed < 600, "s2's answer (about 330 ms) did not wait for s1's (600 ms): \(elapsed)")
        #expect(transport.completed(of: "s1.test").isEmpty)
        #expect(transport.cancelledWhileRunning(of: "s1.test").count == 2)
    }

    @Test func anAnswerTheProviderRejectsDoesNotWin() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", .answer(afterMS: 10, .ok("bad")))
        transport.script("s2.test", .answer(afterMS: 10, .ok("ok:s2")))
        let client = HTTPDNSClient(servers: [try testServer("s1.test"), try testServer("s2.test")], transport: transport)
        let (result, _) = ask(client, LookupBudget(milliseconds: 2_000))
        let reply = try result.get()
        #expect(reply.server == label("s2.test"))
        #expect(reply.trail.first == "skipped https://s1.test:443: bad answer")
        let gap = try #require(transport.firstStartMS(of: "s2.test")) - #require(transport.firstStartMS(of: "s1.test"))
        #expect(gap < 150, "a rejected answer is a failure: the next server starts at once (\(gap) ms)")
    }

    @Test func aFailureAfterTheHedgeStartsTheNextServerAtOnce() throws {
        // s1 stays silent; s2 joins after the hedge and fails fast. Every server before s3 has now failed or been
        // silent for the hedge delay, so s3 is asked at once, not one more hedge delay after s2 started.
        let transport = ScriptedTransport()
        transport.script("s1.test", .silent)
        transport.script("s2.test", .fail(afterMS: 10, .refused))
        transport.script("s3.test", .answer(afterMS: 10, .ok("ok:s3")))
        let client = HTTPDNSClient(servers: try ["s1.test", "s2.test", "s3.test"].map { try testServer($0) }, transport: transport)
        let (result, _) = ask(client, LookupBudget(milliseconds: 5_000))
        let reply = try result.get()
        #expect(reply.server == label("s3.test"))
        let gap = try #require(transport.firstStartMS(of: "s3.test")) - #require(transport.firstStartMS(of: "s2.test"))
        #expect(gap < 150, "s3 started \(gap) ms after s2")
        #expect(transport.cancelledWhileRunning(of: "s1.test").count == 2)
    }

    @Test func aDoHJSONAnswerWithANonAddressDoesNotWin() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", .answer(afterMS: 10, .dnsJSON(#"{"Status":0,"Answer":[{"name":"a.test.","type":1,"TTL":60,"data":"evil.test"}]}"#)))
        transport.script("s2.test", .answer(afterMS: 10, .dnsJSON(#"{"Status":0,"Answer":[{"name":"a.test.","type":1,"TTL":60,"data":"10.0.0.1"}]}"#)))
        let client = HTTPDNSClient(servers: [try testServer("s1.test"), try testServer("s2.test")], transport: transport)
        let answer = try DoHJSONResolver(client: client).resolve("a.test", port: 443, within: LookupBudget(milliseconds: 2_000))
        #expect(answer.addresses == [IPAddress("10.0.0.1")!] && answer.ttl == 60)
        #expect(answer.source == .provider(.dohJSON, server: label("s2.test")))
        #expect(answer.trail.first == "skipped https://s1.test:443: 'evil.test' is not an IP address", "\(answer.trail)")
        let urls = transport.starts(of: "s1.test").map(\.request.url)
        #expect(urls == ["https://s1.test:443?name=a.test&type=A", "https://s1.test:443?name=a.test&type=AAAA"])
        #expect(transport.starts(of: "s1.test").allSatisfy { $0.request.headers == ["Accept: application/dns-json"] })
    }

    // MARK: Endings

    @Test func whenEveryServerIsSilentTheBudgetEndsTheLookup() throws {
        let transport = ScriptedTransport()
        for host in ["s1.test", "s2.test", "s3.test"] { transport.script(host, .silent) }
        let client = HTTPDNSClient(servers: try ["s1.test", "s2.test", "s3.test"].map { try testServer($0) }, transport: transport)
        let (result, elapsed) = ask(client, LookupBudget(milliseconds: 600))
        let error = try #require(throws: ResolutionError.self) { try result.get() }
        #expect(error.kind == .unavailable && error.host == "a.test")
        #expect(error.failures.map(\.server) == ["s1.test", "s2.test", "s3.test"].map { label($0) })
        #expect(error.failures.map(\.phase) == [.timeout, .timeout, .timeout])
        #expect(error.failures.allSatisfy { $0.cause == "no answer within the HTTPDNS time budget of 600 ms" })
        #expect(elapsed >= 590 && elapsed < 1_000, "gave up after \(elapsed) ms")
        #expect(transport.stillRunning.isEmpty && transport.cancels.filter(\.wasRunning).count == 6)
    }

    @Test func serversNeverStartedAreReportedAsNotAsked() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", .silent)
        transport.script("s2.test", .silent)
        let client = HTTPDNSClient(servers: [try testServer("s1.test"), try testServer("s2.test")], transport: transport)

        let (spent, _) = ask(client, LookupBudget(milliseconds: 0))
        let none = try #require(throws: ResolutionError.self) { try spent.get() }
        #expect(none.failures.map(\.phase) == [.notAsked, .notAsked] && transport.starts.isEmpty)
        #expect(none.failures.first?.cause == "not asked, the HTTPDNS time budget of 0 ms ran out")

        // A transport whose wait overruns (a stalled event loop) spends the budget before the hedge starts s2.
        transport.oversleepMS = 600
        let (stalled, _) = ask(client, LookupBudget(milliseconds: 400))
        let error = try #require(throws: ResolutionError.self) { try stalled.get() }
        #expect(error.failures.map(\.phase) == [.timeout, .notAsked])
        #expect(error.failures.map(\.server) == [label("s1.test"), label("s2.test")])
        #expect(transport.starts(of: "s2.test").isEmpty && transport.stillRunning.isEmpty)
    }

    @Test func anOuterDeadlineShrinksTheHedgeSoEveryServerIsAsked() throws {
        // --dns-timeout 5000 cut short by --max-time to 600 ms: the hedge is split from what the lookup really has.
        let transport = ScriptedTransport()
        for host in ["s1.test", "s2.test", "s3.test"] { transport.script(host, .silent) }
        let client = HTTPDNSClient(servers: try ["s1.test", "s2.test", "s3.test"].map { try testServer($0) }, transport: transport)
        let budget = LookupBudget(milliseconds: 5_000, endingBy: .now + .milliseconds(600))
        let (result, elapsed) = ask(client, budget)
        let error = try #require(throws: ResolutionError.self) { try result.get() }
        #expect(elapsed < 1_000)
        #expect(error.failures.map(\.phase) == [.timeout, .timeout, .timeout], "\(error.failures)")
    }

    @Test func noRecordsEndsTheRaceWithNoAddress() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", .answer(afterMS: 10, .ok("none")))
        transport.script("s2.test", .answer(afterMS: 10, .ok("ok:s2")))
        let client = HTTPDNSClient(servers: [try testServer("s1.test"), try testServer("s2.test")], transport: transport)
        let (result, elapsed) = ask(client, LookupBudget(milliseconds: 2_000))
        let error = try #require(throws: ResolutionError.self) { try result.get() }
        #expect(error.kind == .noAddress && error.host == "a.test")
        #expect(error.reason == "https://s1.test:443: no records")
        #expect(transport.starts(of: "s2.test").isEmpty, "every server would say the same")
        #expect(elapsed < 250)

        // Also when it comes from a hedged server: the silent one is cancelled.
        let hedged = ScriptedTransport()
        hedged.script("s1.test", .silent)
        hedged.script("s2.test", .answer(afterMS: 10, .ok("none")))
        let (late, _) = ask(HTTPDNSClient(servers: client.servers, transport: hedged), LookupBudget(milliseconds: 2_000))
        let lateError = try #require(throws: ResolutionError.self) { try late.get() }
        #expect(lateError.kind == .noAddress && lateError.reason == "https://s2.test:443: no records")
        #expect(hedged.cancelledWhileRunning(of: "s1.test").count == 2 && hedged.stillRunning.isEmpty)
    }

    @Test func aDefiniteErrorEndsTheRaceWithTheFailuresSoFar() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", .fail(afterMS: 5, .refused))
        transport.script("s2.test", .answer(afterMS: 5, .ok("refused")))
        transport.script("s3.test", .answer(afterMS: 5, .ok("ok:s3")))
        let client = HTTPDNSClient(servers: try ["s1.test", "s2.test", "s3.test"].map { try testServer($0) }, transport: transport)
        let (result, _) = ask(client, LookupBudget(milliseconds: 2_000))
        let error = try #require(throws: ResolutionError.self) { try result.get() }
        #expect(error.kind == .unavailable)
        #expect(error.failures.map(\.phase) == [.connect, .answer])
        #expect(error.failures.last?.description == "https://s2.test:443: 'InvalidAccount' (HTTP 403)")
        #expect(transport.starts(of: "s3.test").isEmpty)
    }

    @Test func aServerWhoseRequestCannotBeSetUpFailsAndTheNextIsAsked() throws {
        struct SetupFailed: Error, CustomStringConvertible { var description: String { "no handle" } }
        let transport = ScriptedTransport()
        transport.script("s2.test", .answer(afterMS: 5, HTTPDNSResponse(status: 200, body: Array("ok:127.0.0.2".utf8))))
        transport.startError = .unavailable("", [], underlying: SetupFailed())
        transport.startErrorKey = "s1.test"
        let client = HTTPDNSClient(servers: [try testServer("s1.test"), try testServer("s2.test")], transport: transport)
        let (result, _) = ask(client, LookupBudget(milliseconds: 1_000))
        let reply = try result.get()
        #expect(reply.server == "https://s2.test:443")
        #expect(reply.trail.first == "skipped https://s1.test:443: no handle", "\(reply.trail)")
    }

    @Test func aServerErrorStatusFailsTheServerWhateverTheTransport() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", .answer(afterMS: 1, HTTPDNSResponse(status: 503, body: Array("busy".utf8))))
        transport.script("s2.test", .answer(afterMS: 5, HTTPDNSResponse(status: 200, body: Array("ok:127.0.0.2".utf8))))
        let client = HTTPDNSClient(servers: [try testServer("s1.test"), try testServer("s2.test")], transport: transport)
        let (result, _) = ask(client, LookupBudget(milliseconds: 1_000))
        let reply = try result.get()
        #expect(reply.server == "https://s2.test:443" && reply.trail.first == "skipped https://s1.test:443: HTTP 503")
    }

    @Test func withoutServersThereIsNobodyToAsk() throws {
        let (result, _) = ask(HTTPDNSClient(servers: [], transport: ScriptedTransport()), LookupBudget(milliseconds: 100))
        let error = try #require(throws: ResolutionError.self) { try result.get() }
        #expect(error.kind == .unavailable && error.reason == "no HTTPDNS server to ask")
    }

    // MARK: One budget per lookup

    @Test func eachLookupHasItsOwnBudgetAndAsksFailedServersAgain() throws {
        let transport = ScriptedTransport()
        // s1 refuses both exchanges of the first lookup and answers every later one.
        transport.script("s1.test", .fail(afterMS: 5, .refused), .fail(afterMS: 5, .refused), .answer(afterMS: 10, .ok("ok:s1")))
        transport.script("s2.test", .answer(afterMS: 10, .ok("ok:s2")))
        let client = HTTPDNSClient(servers: [try testServer("s1.test"), try testServer("s2.test")], transport: transport)
        let first = try ask(client, LookupBudget(milliseconds: 400)).0.get()
        #expect(first.server == label("s2.test") && first.trail.first?.hasPrefix("skipped https://s1.test:443") == true)
        let second = try ask(client, LookupBudget(milliseconds: 400)).0.get()
        #expect(second.server == label("s1.test"), "a server that failed before is asked again, first")
        #expect(second.trail.isEmpty, "the first server answering leaves no trail")
        #expect(transport.starts(of: "s1.test").count == 4 && transport.starts(of: "s2.test").count == 2)
    }

    @Test func consecutiveLookupsEachGetTheFullBudget() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", .silent)
        let client = HTTPDNSClient(servers: [try testServer("s1.test")], transport: transport)
        let (first, firstMS) = ask(client, LookupBudget(milliseconds: 300))
        let (second, secondMS) = ask(client, LookupBudget(milliseconds: 300))
        for (result, elapsed) in [(first, firstMS), (second, secondMS)] {
            let error = try #require(throws: ResolutionError.self) { try result.get() }
            #expect(error.failures.map(\.phase) == [.timeout])
            #expect(elapsed >= 290 && elapsed < 700, "\(elapsed) ms")
        }
        #expect(transport.starts.map { $0.request.timeoutMS ?? 0 }.allSatisfy { (280...300).contains($0) },
                "\(transport.starts.map(\.request.timeoutMS))")
    }

    @Test func thePolicyGivesEveryLookupItsOwnBudget() throws {
        let transport = ScriptedTransport()
        transport.script("s1.test", .silent)
        let client = HTTPDNSClient(servers: [try testServer("s1.test")], transport: transport)
        let policy = ResolutionPolicy(staticEntries: [], resolver: DoHJSONResolver(client: client))
        policy.lookupTimeoutMS = 300
        for host in ["a.test", "b.test"] {
            let started = ContinuousClock.now
            let error = try #require(throws: ResolutionError.self) { try policy.resolve(host: host, port: 443) }
            let elapsed = ContinuousClock.now - started
            #expect(error.kind == .unavailable && error.host == host)
            #expect(elapsed >= .milliseconds(290) && elapsed < .milliseconds(700), "\(host): \(elapsed)")
        }
        let bTimeouts = transport.starts(of: "name=b.test").map { $0.request.timeoutMS ?? 0 }
        #expect(bTimeouts.count == 2 && bTimeouts.allSatisfy { (280...300).contains($0) }, "\(bTimeouts)")
    }
}
