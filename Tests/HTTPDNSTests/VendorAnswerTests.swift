@testable import HTTPDNS
import Testing

/// The vendor answer parsers on their own: every malformed kind the issue lists is rejected with a reason.
@Suite struct VendorAnswerTests {
    private func aliyun(_ json: String, host: String = "a.test") throws -> HTTPDNSClient.Verdict<ParsedAnswer> {
        AliyunResolver.answer([try JSONValue.parse(Array(json.utf8))], for: host)
    }

    private func accepted(_ verdict: HTTPDNSClient.Verdict<ParsedAnswer>) -> ParsedAnswer? {
        if case .answer(let parsed) = verdict { return parsed } else { return nil }
    }

    private func rejection(_ verdict: HTTPDNSClient.Verdict<ParsedAnswer>) -> String? {
        if case .serverFailed(let reason, _) = verdict { return reason } else { return nil }
    }

    @Test func aliyunAnswer() throws {
        let parsed = try #require(accepted(aliyun(
            #"{"host":"A.test","ips":["127.0.0.2","127.0.0.3"],"ipsv6":["::1"],"ttl":60,"origin_ttl":600,"client_ip":"1.2.3.4"}"#)))
        #expect(parsed.addresses.map(\.description) == ["127.0.0.2", "127.0.0.3", "::1"])
        let answer = parsed.answer(source: .provider(.aliyun, server: "s"), trail: [])
        #expect(answer.ttl == 60 && answer.originTTL == 600)
    }

    @Test(arguments: [
        (#"{"host":"a.test","ips":["127.0.0.2,127.0.0.3"],"ttl":60}"#, "is not an IP address"),
        (#"{"host":"a.test","ips":["127.0.0.2:8443"],"ttl":60}"#, "is not an IP address"),
        (#"{"host":"a.test","ips":["127.0.0.2\nevil.test:443:127.0.0.9"],"ttl":60}"#, "\\x0a"),
        (#"{"host":"a.test","ips":[" 127.0.0.2"],"ttl":60}"#, "is not an IP address"),
        (#"{"host":"a.test","ips":["evil.test"],"ttl":60}"#, "'evil.test' is not an IP address"),
        (#"{"host":"a.test","ips":["::1"],"ttl":60}"#, "::1 is not an IPv4 address"),
        (#"{"host":"a.test","ipsv6":["127.0.0.2"],"ttl":60}"#, "is not an IPv6 address"),
        (#"{"host":"a.test","ips":"127.0.0.2","ttl":60}"#, "\"ips\" is a string, not an array"),
        (#"{"host":"a.test","ips":[1],"ttl":60}"#, "holds a number"),
        (#"{"host":"a.test","ips":["127.0.0.2"],"ttl":"60"}"#, "\"ttl\" is a string, not an integer"),
        (#"{"host":"a.test","ips":["127.0.0.2"]}"#, "no \"ttl\""),
        (#"{"host":"a.test","ips":["127.0.0.2"],"ttl":60,"origin_ttl":1.5}"#, "origin_ttl"),
        (#"{"host":"evil.test","ips":["127.0.0.2"],"ttl":60}"#, "not for a.test"),
        (#"{"ips":["127.0.0.2"],"ttl":60}"#, "not for a.test"),
    ])
    func aliyunRejects(_ json: String, _ reason: String) throws {
        let why = try #require(rejection(aliyun(json)))
        #expect(why.contains(reason), "\(why)")
    }

    @Test func aliyunBatchEntriesPerTypeAreMerged() throws {
        let entries = try [#"{"host":"a.test","ips":["::1"],"type":28,"ttl":30}"#,
                           #"{"host":"a.test","ips":["127.0.0.2"],"type":1,"ttl":60,"origin_ttl":600}"#]
            .map { try JSONValue.parse(Array($0.utf8)) }
        let parsed = try #require(accepted(AliyunResolver.answer(entries, for: "a.test")))
        #expect(parsed.addresses.map(\.description) == ["127.0.0.2", "::1"])
        #expect(parsed.ttl == 30 && parsed.originTTL == 600)
        let wrongFamily = try JSONValue.parse(Array(#"{"host":"a.test","ips":["127.0.0.2"],"type":28,"ttl":30}"#.utf8))
        #expect(rejection(AliyunResolver.answer([wrongFamily], for: "a.test"))?.contains("not an IPv6 address") == true)
    }

    @Test func aliyunEmptyListsAreADefiniteNoAnswer() throws {
        guard case .noRecords(let why) = try aliyun(#"{"host":"a.test","ips":[],"ipsv6":[],"ttl":60}"#) else {
            Issue.record("empty lists accepted")
            return
        }
        #expect(why == "no A or AAAA records (empty answer)")
    }

    @Test func ttlsAreClamped() throws {
        let negative = try #require(accepted(aliyun(#"{"host":"a.test","ips":["127.0.0.2"],"ttl":-5}"#)))
        #expect(negative.answer(source: .staticEntry, trail: []).ttl == 0)
        let huge = try #require(accepted(aliyun(#"{"host":"a.test","ips":["127.0.0.2"],"ttl":9999999999}"#)))
        #expect(huge.answer(source: .staticEntry, trail: []).ttl == ResolverAnswer.maximumTTL)
    }

    @Test func dnspodAnswerForms() throws {
        let both = try #require(accepted(DNSPodResolver.answer("127.0.0.2;127.0.0.3,60-::1,30\n", for: "a.test")))
        #expect(both.addresses.map(\.description) == ["127.0.0.2", "127.0.0.3", "::1"])
        #expect(both.ttl == 30)
        let v6Only = try #require(accepted(DNSPodResolver.answer("0-::1,60", for: "v6.test")))
        #expect(v6Only.addresses.map(\.description) == ["::1"])
        let v4Only = try #require(accepted(DNSPodResolver.answer("127.0.0.2,120", for: "b.test")))
        #expect(v4Only.ttl == 120)
        let negative = try #require(accepted(DNSPodResolver.answer("127.0.0.2,-5-::1,-7", for: "a.test")))
        #expect(negative.ttl == -7 && negative.addresses.count == 2)
        let v4ThenNone = try #require(accepted(DNSPodResolver.answer("127.0.0.2,60-0", for: "a.test")))
        #expect(v4ThenNone.addresses.map(\.description) == ["127.0.0.2"])
    }

    @Test(arguments: ["", "0", "0-0", "\n"])
    func dnspodNoRecord(_ body: String) {
        guard case .noRecords = DNSPodResolver.answer(body, for: "a.test") else {
            Issue.record("\(body.debugDescription) was not a definite no-record answer")
            return
        }
    }

    @Test(arguments: [
        "127.0.0.2,127.0.0.3,60", "127.0.0.2:443:127.0.0.9;127.0.0.3,60", "127.0.0.2\nevil.test:443:127.0.0.9,60",
        " 127.0.0.2,60", "evil.test,60", "127.0.0.2,sixty", "127.0.0.2", "::1,60", "127.0.0.2,60-127.0.0.3,60",
        "<html>not an answer</html>", "127.0.0.2;;127.0.0.3,60", "127.0.0.2,60-::1,60-::2,60", "127.0.0.2,60x",
        "0x", "127.0.0.2,60 ", "127.0.0.2,", "127.0.0.2,-",
    ])
    func dnspodRejects(_ body: String) {
        #expect(rejection(DNSPodResolver.answer(body, for: "a.test")) != nil, "\(body.debugDescription) accepted")
    }

    private func dohJSON(_ json: String, type: DNSRecordType = .a, contentType: String = "application/dns-json")
        -> HTTPDNSClient.Verdict<(addresses: [IPAddress], ttl: Int64)>
    {
        DoHJSONResolver.records(HTTPDNSResponse(status: 200, contentType: contentType, body: Array(json.utf8)),
                                host: "cname.test", type: type)
    }

    @Test func dohJSONFollowsCNAMEs() throws {
        let verdict = dohJSON(#"{"Status":0,"Answer":[{"name":"cname.test.","type":5,"TTL":30,"data":"a.test."},"#
            + #"{"name":"a.test.","type":1,"TTL":60,"data":"127.0.0.2"},{"name":"other.test.","type":1,"TTL":1,"data":"10.9.9.9"}]}"#)
        guard case .answer(let found) = verdict else { Issue.record("rejected: \(verdict)"); return }
        #expect(found.addresses.map(\.description) == ["127.0.0.2"])
        #expect(found.ttl == 30)
    }

    @Test func dohJSONStatuses() {
        guard case .noRecords(let why) = dohJSON(#"{"Status":3}"#) else { Issue.record("NXDOMAIN not definite"); return }
        #expect(why == "NXDOMAIN")
        guard case .serverFailed(let failed, _) = dohJSON(#"{"Status":2}"#) else { Issue.record("SERVFAIL accepted"); return }
        #expect(failed == "DNS status 2")
        guard case .answer(let empty) = dohJSON(#"{"Status":0}"#) else { Issue.record("NODATA rejected"); return }
        #expect(empty.addresses.isEmpty)
    }

    @Test(arguments: [
        #"{"Status":0,"Answer":{}}"#, #"{"Status":"0"}"#, #"{"Answer":[]}"#, "<html>not json</html>",
        #"{"Status":0,"Answer":[{"name":"cname.test.","type":1,"TTL":60,"data":"127.0.0.2,127.0.0.3"}]}"#,
        #"{"Status":0,"Answer":[{"name":"cname.test.","type":1,"TTL":"60","data":"127.0.0.2"}]}"#,
        #"{"Status":0,"Answer":[{"name":"cname.test.","type":1,"TTL":60,"data":"evil.test"}]}"#,
        #"{"Status":0,"Answer":[{"name":"cname.test.","type":5,"TTL":60,"data":"bad name!"}]}"#,
        #"{"Status":0,"Answer":[{"name":"cname.test.","type":5,"TTL":60,"data":"cname.test."}]}"#,
    ])
    func dohJSONRejects(_ json: String) {
        guard case .serverFailed = dohJSON(json) else { Issue.record("\(json) accepted"); return }
    }

    @Test func dohJSONNeedsAJSONContentType() {
        guard case .serverFailed(let why, let phase) = dohJSON(#"{"Status":0}"#, contentType: "text/html"), phase == .http else {
            Issue.record("text/html accepted")
            return
        }
        #expect(why.contains("not JSON"))
    }

    @Test func serverURLsPinTheVendorNameOnlyForHTTPSByIP() throws {
        let pinned = try HTTPDNSServer(scheme: "https", host: "203.107.1.1", port: 443, path: "/",
                                       serviceName: AliyunResolver.serviceName, setting: .vendorServer)
        #expect(pinned.url() == "https://resolvers-cn.httpdns.aliyuncs.com:443")
        #expect(pinned.host == "resolvers-cn.httpdns.aliyuncs.com")
        #expect(pinned.pin?.description == "resolvers-cn.httpdns.aliyuncs.com:443:203.107.1.1")
        #expect(pinned.label == "https://203.107.1.1:443 as resolvers-cn.httpdns.aliyuncs.com")
        let plain = try HTTPDNSServer(scheme: "http", host: "127.0.0.5", port: 8080, path: "/prefix/",
                                      serviceName: AliyunResolver.serviceName, setting: .vendorServer)
        #expect(plain.url() == "http://127.0.0.5:8080/prefix" && plain.pin == nil && plain.isPlainHTTP)
        #expect(plain.url(path: "/d", query: "host=a.test") == "http://127.0.0.5:8080/prefix/d?host=a.test")
        let byIP = try HTTPDNSServer(scheme: "HTTPS", host: "::1", port: 9443, serviceName: nil, setting: .dohServer)
        #expect(byIP.url() == "https://[::1]:9443" && byIP.pin == nil && byIP.label == "https://[::1]:9443")
        let byName = try HTTPDNSServer(scheme: "https", host: "doh.test", port: 443, serviceName: AliyunResolver.serviceName,
                                       setting: .vendorServer)
        #expect(byName.pin == nil && byName.url() == "https://doh.test:443", "a server by name is verified as that name")
        // URL syntax (user info and a query on vendor servers, fragments, garbage) is checked by the program's URL
        // parser before the parts reach HTTPDNSServer (IPCurlCore's ServerURL); the parts themselves are checked here.
        for (scheme, host, port) in [("ftp", "1.2.3.4", 21), ("https", "", 443), ("https", "1.2.3.4", 0), ("http", "1.2.3.4", 65536)] {
            let error = #expect(throws: ResolutionError.self, "\(scheme)://\(host):\(port)") {
                try HTTPDNSServer(scheme: scheme, host: host, port: port, setting: .vendorServer)
            }
            #expect(error?.kind == .configuration && error?.setting == .vendorServer)
        }
    }
}
