import CurlKit
import HTTPDNS
@testable import IPCurlCore
import Testing

@Suite struct CheckModelTests {
    @Test func statusSetsTakeCodesClassesAndRanges() throws {
        let set = try #require(StatusSet(parsing: "200,204, 3xx,400-404"))
        #expect([200, 204, 301, 399, 400, 404].allSatisfy(set.contains))
        #expect(![201, 299, 405, 500].contains(where: set.contains))
        #expect(set.description == "200,204,3xx,400-404")
        for bad in ["", "2x", "6xx", "99", "200-100", "abc", "200,", "1000", "200--300"] {
            #expect(StatusSet(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func tlsVersionsParseEverySpellingAndOrder() {
        #expect(TLSVersion(parsing: "1.2") == .tls1_2)
        #expect(TLSVersion(parsing: "TLSv1.3") == .tls1_3)
        #expect(TLSVersion(parsing: "tls 1.1") == .tls1_1)
        #expect(TLSVersion(parsing: "1.4") == nil)
        #expect(TLSVersion(openSSLName: "TLSv1.3") == .tls1_3)
        #expect(TLSVersion(openSSLName: "1.3") == nil)
        #expect(TLSVersion.tls1_2 < .tls1_3)
        #expect(TLSVersion.tls1_3.label == "TLS 1.3")
    }

    @Test func expectationsMergeTheMoreSpecificLevelOverTheOther() {
        var file = Expectation()
        file.status = StatusSet([200...200])
        file.minCertDays = 14
        var target = Expectation()
        target.minCertDays = 30
        target.bodyContains = ["ok"]
        let merged = file.overridden(by: target)
        #expect(merged.status == StatusSet([200...200]))
        #expect(merged.minCertDays == 30)
        #expect(merged.bodyContains == ["ok"])
        #expect(merged.needsBody)
    }

    @Test func certificateInfoFieldsBecomeASummary() throws {
        let chain = [
            ["Subject": " CN = a.test", "Issuer": " CN = lab CA", "Expire date": "Nov 23 21:00:00 2027 GMT",
             "X509v3 Subject Alternative Name": "DNS:a.test, DNS:mixed.test, IP Address:127.0.0.2"],
            ["Subject": "CN = lab CA", "Expire date": "Jan  2 03:04:05 2027 GMT"],
        ]
        let summary = try #require(CertificateSummary(chain: chain))
        #expect(summary.subject == "CN = a.test")
        #expect(summary.issuer == "CN = lab CA")
        #expect(summary.subjectAlternativeNames == ["a.test", "mixed.test", "127.0.0.2"])
        #expect(summary.notAfter == 1_827_003_600)
        #expect(summary.earliestNotAfter == 1_798_859_045, "the chain's earliest expiry, not the leaf's")
        #expect(summary.daysLeft(at: 1_798_859_045 - 86_400 * 3 - 1) == 3)
        #expect(summary.daysLeft(at: 1_798_859_045 + 1) == -1)
        #expect(CertificateSummary(chain: []) == nil)
        #expect(CertificateSummary(chain: [["Expire date": "tomorrow"]]) == nil)
    }

    private func completed(status: Int = 200, ip: String = "127.0.0.2", totalMS: Int64 = 5) -> ProbeResult {
        var result = ProbeResult(target: CheckTarget(url: "https://a.test/"), address: IPAddress(ip))
        result.status = status
        result.connectedIP = ip
        result.timings.total = totalMS * 1000
        result.tlsVersion = .tls1_2
        result.httpVersion = "1.1"
        return result
    }

    @Test func eachFailedAssertionNamesItselfWithWhatItWantedAndGot() {
        var expect = Expectation()
        expect.status = StatusSet(parsing: "200,204")
        expect.maxTimeMS = 100
        expect.bodyContains = ["healthy"]
        expect.bodyMatches = "^ok [0-9]+$"
        expect.headers = [HeaderExpectation(name: "X-Role", value: "primary")]
        expect.tlsMin = .tls1_3
        expect.httpVersion = "2"
        expect.minCertDays = 10
        var headers = ResponseHeaders()
        headers.receive("HTTP/1.1 503 Unavailable\r\n")
        headers.receive("x-role: standby\r\n")
        headers.receive("\r\n")
        let check = ExpectationCheck(expect: expect, now: 0)
        let failures = check.failures(of: completed(status: 503, totalMS: 250), headers: headers,
                                      body: Array("ok twelve".utf8), pinned: [IPAddress("127.0.0.2")!])
        #expect(failures.map(\.assertion) == ["status", "min_cert_days", "max_time_ms", "body_contains", "body_matches",
                                              "headers", "tls_min", "http_version"])
        #expect(failures[0].description == "status: expected 200,204, got 503")
        #expect(failures[1].actual == "no certificate")
        #expect(failures[2].description == "max_time_ms: expected at most 100 ms, got 250 ms")
        #expect(failures[5].actual == "x-role: standby" || failures[5].actual == "X-Role: standby")
        #expect(failures[6].description == "tls_min: expected TLS 1.3, got TLS 1.2")
    }

    @Test func aProbeThatPassesHasNoFailuresAndTheDefaultStatusIs2xx() {
        var expect = Expectation()
        expect.bodyContains = ["ok"]
        expect.bodyMatches = "ok [0-9]+"
        let check = ExpectationCheck(expect: expect, now: 0)
        #expect(check.failures(of: completed(), headers: ResponseHeaders(), body: Array("ok 12".utf8), pinned: []).isEmpty)
        let redirect = ExpectationCheck(expect: Expectation(), now: 0)
            .failures(of: completed(status: 301), headers: ResponseHeaders(), body: [], pinned: [])
        #expect(redirect.map(\.description) == ["status: expected 2xx, got 301"])
    }

    @Test func aProbeThatReachedAnotherAddressFails() {
        let failures = ExpectationCheck(expect: Expectation(), now: 0)
            .failures(of: completed(ip: "127.0.0.3"), headers: ResponseHeaders(), body: [], pinned: [IPAddress("127.0.0.2")!])
        #expect(failures.map(\.description) == ["address: expected 127.0.0.2, got 127.0.0.3"])
    }

    @Test func phaseTimesComeFromLibcurlsCumulativeTimes() {
        var timings = ProbeTimings(), times = PhaseTimes()
        (times.nameLookup, times.connect, times.appConnect, times.preTransfer) = (10, 110, 410, 420)
        (times.startTransfer, times.total) = (920, 1_000)
        timings.fill(from: times)
        #expect(timings == {
            var expected = ProbeTimings()
            (expected.connect, expected.tls, expected.processing, expected.transfer, expected.total) = (100, 300, 500, 80, 1_000)
            return expected
        }())
    }
}
