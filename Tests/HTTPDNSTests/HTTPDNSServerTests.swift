@testable import HTTPDNS
import Testing

/// What a server's requests carry (URL, pins, limits) and what its label shows.
@Suite struct HTTPDNSServerTests {
    /// The requests `client` sends for one lookup whose server answers at once.
    private func requests(_ servers: [HTTPDNSServer], pins: [ResolveEntry] = [],
                          _ request: HTTPDNSClient.Request = .init(path: "?name=a.test")) throws -> [HTTPDNSRequest] {
        let transport = ScriptedTransport()
        transport.script("://", .answer(afterMS: 0, .ok("ok")))
        let client = HTTPDNSClient(servers: servers, transport: transport, pins: pins)
        _ = try client.ask([request], about: "a.test", headers: ["X-Test: 1"], within: LookupBudget(milliseconds: 1_000)) { _ in
            HTTPDNSClient.Verdict<Int>.answer(1)
        }
        return transport.starts.map(\.request)
    }

    // MARK: Labels

    @Test func labelsHideUserInfoAndQueryValuesWhileURLsKeepThem() throws {
        let server = try HTTPDNSServer(scheme: "https", host: "doh.test", port: 443, path: "/dns-query", query: "token=abc",
                                       userInfo: "user:pw", setting: .dohServer)
        #expect(server.label == "https://***@doh.test:443/dns-query?token=***")
        for secret in ["pw", "abc", "user"] { #expect(!server.label.contains(secret), "\(secret)") }
        #expect(server.url() == "https://user:pw@doh.test:443/dns-query?token=abc")
        #expect(server.url(query: "dns=AAAB") == "https://user:pw@doh.test:443/dns-query?token=abc&dns=AAAB")

        let several = try HTTPDNSServer(scheme: "https", host: "doh.test", port: 8443, query: "a=1&sig=x=y", setting: .dohServer)
        #expect(several.label == "https://doh.test:8443?a=***&sig=***")
        let empty = try HTTPDNSServer(scheme: "https", host: "doh.test", port: 443, query: "", userInfo: "", setting: .dohServer)
        #expect(empty.label == "https://doh.test:443" && empty.url() == "https://doh.test:443")
    }

    @Test func aQueryParameterWithoutANameIsHiddenWhole() throws {
        // `?s3cr3t` has no `=`: all of it may be the secret (a bare token), so none of it is shown.
        let bare = try HTTPDNSServer(scheme: "https", host: "doh.test", port: 443, path: "/dns-query", query: "s3cr3t&a=1",
                                     setting: .dohServer)
        #expect(!bare.label.contains("s3cr3t"), "\(bare.label)")
        #expect(bare.label == "https://doh.test:443/dns-query?***&a=***")
        #expect(bare.url() == "https://doh.test:443/dns-query?s3cr3t&a=1")
        let nameless = try HTTPDNSServer(scheme: "https", host: "doh.test", port: 443, query: "=s3cr3t", setting: .dohServer)
        #expect(nameless.label == "https://doh.test:443?=***", "an empty name is no reason to show the value")
    }

    @Test func credentialsInTheURLGoOverHTTPSOnly() throws {
        for (query, userInfo, what) in [(nil, "user:pw", "the URL's user info"), ("token=abc", nil, "the URL's query"),
                                        ("s3cr3t", nil, "the URL's query")] {
            let error = #expect(throws: ResolutionError.self) {
                try HTTPDNSServer(scheme: "http", host: "doh.test", port: 80, path: "/resolve", query: query, userInfo: userInfo,
                                  setting: .dohJSONServer)
            }
            #expect(error?.kind == .configuration && error?.setting == .dohJSONServer)
            #expect(error?.reason == "\(what) is sent over https only; use an https:// server", "\(String(describing: error))")
            for secret in ["pw", "abc", "s3cr3t"] { #expect(error?.description.contains(secret) == false) }
            #expect(throws: Never.self) {
                try HTTPDNSServer(scheme: "https", host: "doh.test", port: 443, query: query, userInfo: userInfo, setting: .dohJSONServer)
            }
        }
        #expect(throws: Never.self) { try HTTPDNSServer(scheme: "http", host: "doh.test", port: 80, path: "/resolve", setting: .dohJSONServer) }
    }

    @Test func failuresNameServersByLabelOnly() throws {
        let transport = ScriptedTransport()
        transport.script("doh.test", .fail(afterMS: 0, HTTPDNSTransportFailure(phase: .tls, message: "SSL certificate problem")))
        let server = try HTTPDNSServer(scheme: "https", host: "doh.test", port: 443, path: "/dns-query", query: "token=abc",
                                       userInfo: "user:pw", setting: .dohServer)
        let client = HTTPDNSClient(servers: [server], transport: transport)
        let error = try #require(throws: ResolutionError.self) {
            try DoHJSONResolver(client: client).resolve("a.test", port: 443, within: LookupBudget(milliseconds: 1_000))
        }
        #expect(error.failures.map(\.server) == [server.label] && error.failures.map(\.phase) == [.tls])
        for secret in ["pw", "abc"] { #expect(!error.description.contains(secret)) }
        #expect(transport.starts.first?.request.url == "https://user:pw@doh.test:443/dns-query?token=abc&name=a.test&type=A")
    }

    // MARK: Requests

    @Test func requestsCarryPathQueryBodyHeadersAndLimits() throws {
        let server = try HTTPDNSServer(scheme: "https", host: "doh.test", port: 8443, path: "/api/", query: "key=k",
                                       setting: .dohServer)
        let sent = try requests([server], .init(path: "/d?host=a.test", body: [1, 2, 3]))
        let request = try #require(sent.first)
        #expect(request.url == "https://doh.test:8443/api/d?key=k&host=a.test")
        #expect(request.body == [1, 2, 3] && request.headers == ["X-Test: 1"])
        #expect(request.maximumBody == HTTPDNSClient.maximumBody && request.pins.isEmpty)
        #expect((900...1_000).contains(request.timeoutMS ?? 0))
    }

    @Test func aStaticEntryForTheServersOwnNameAndPortIsPinned() throws {
        let pins = try ["other.test:443:10.0.0.1", "doh.test:8443:10.0.0.2", "DOH.test:443:10.0.0.3", "doh.test:443:10.0.0.4"]
            .map { try ResolveEntry(parsing: $0) }
        let sent = try requests([try testServer("doh.test")], pins: pins)
        #expect(sent.map { $0.pins.map(\.description) } == [["doh.test:443:10.0.0.3"]], "the first entry for doh.test:443")
        let byIP = try requests([try testServer("10.9.9.9")], pins: pins)
        #expect(byIP.first?.pins.isEmpty == true)
    }

    @Test func aPinIsSpelledAsTheServersURLSpellsItsHost() throws {
        // libcurl keys `doh.test.` apart from `doh.test`: a pin only takes effect under the URL's own spelling.
        let dotted = try requests([try testServer("doh.test")], pins: [try ResolveEntry(parsing: "doh.test.:443:10.0.0.3")])
        let bare = try requests([try testServer("doh.test.")], pins: [try ResolveEntry(parsing: "doh.test:443:10.0.0.3")])
        #expect(dotted.first?.pins.map(\.description) == ["doh.test:443:10.0.0.3"])
        #expect(bare.first?.pins.map(\.description) == ["doh.test.:443:10.0.0.3"])
        #expect(dotted.first?.pins.count == 1 && bare.first?.pins.count == 1, "the entry applies to the server either way")
    }

    @Test func aVendorServerByIPIsReachedUnderItsServiceNameWithThatNamePinned() throws {
        let server = try HTTPDNSServer(scheme: "https", host: "203.107.1.1", port: 443, serviceName: AliyunResolver.serviceName,
                                       setting: .vendorServer)
        let user = try ResolveEntry(parsing: "resolvers-cn.httpdns.aliyuncs.com:443:10.9.9.9")
        let transport = ScriptedTransport()
        transport.script("resolvers-cn.httpdns.aliyuncs.com",
                         .answer(afterMS: 0, .ok(#"{"host":"a.test","ips":["10.0.0.1"],"ttl":60}"#, contentType: "application/json")))
        let client = HTTPDNSClient(servers: [server], transport: transport, pins: [user])
        let resolver = try AliyunResolver(account: "139450", secret: nil, clientIP: nil, client: client)
        let answer = try resolver.resolve("a.test", port: 443, within: LookupBudget(milliseconds: 1_000))
        #expect(answer.addresses == [IPAddress("10.0.0.1")!])
        #expect(answer.source == .provider(.aliyun, server: "https://203.107.1.1:443 as resolvers-cn.httpdns.aliyuncs.com"))
        let request = try #require(transport.starts.first?.request)
        #expect(request.url == "https://resolvers-cn.httpdns.aliyuncs.com:443/139450/d?host=a.test&query=4,6")
        #expect(request.pins.map(\.description) == ["resolvers-cn.httpdns.aliyuncs.com:443:203.107.1.1"],
                "the server's own address wins over a static entry for the service name")
    }
}
