import Foundation
import Testing

/// One test per malformed-answer kind, through every provider that can express it: each is a resolver failure
/// (exit 6, one line naming the host, nothing on stdout), and nothing reaches CURLOPT_RESOLVE.
@Suite struct MalformedAnswerTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    static let kinds = ["bad-comma", "bad-colon", "bad-newline", "bad-space", "bad-hostname", "bad-type", "bad-json",
                        "empty", "big", "server-error"]

    @Test(arguments: Provider.allCases, kinds)
    func isRejected(_ provider: Provider, _ kind: String) throws {
        let host = "\(kind).test"
        let result = try ipcurl(try provider.arguments(lab) + ["-v", lab.https(host)])
        #expect(result.status == 6, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.contains("RESOLVE") && !result.stderr.contains("* HTTPDNS \(host):"), "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("ipcurl: (6) Could not resolve host: \(host) (") == true, "\(result.stderr)")
    }

    @Test(arguments: [Provider.aliyun, .dohJSON])
    func answerForAnotherHostIsRejected(_ provider: Provider) throws {
        let result = try ipcurl(["resolve"] + (try provider.arguments(lab)) + ["wrong-host.test"])
        #expect(result.status == 6)
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.contains("127.0.0.2"), "\(result.stderr)")
    }

    @Test func bigAnswerStopsAtTheLimit() throws {
        let result = try ipcurl(["resolve"] + (try Provider.aliyun.arguments(lab)) + ["big.test"])
        #expect(result.stderr.contains("answer larger than 65536 bytes"), "\(result.stderr)")
    }

    @Test(arguments: [Provider.aliyun, .dnspod, .dohJSON])
    func absurdTTLsAreClamped(_ provider: Provider) throws {
        let negative = try ipcurl(["resolve"] + (try provider.arguments(lab)) + ["-v", "neg-ttl.test"])
        #expect(negative.status == 0, "\(negative.stderr)")
        #expect(negative.stderr.contains(", ttl 0, cache miss)"), "\(negative.stderr)")
        let huge = try ipcurl(["resolve"] + (try provider.arguments(lab)) + ["-v", "huge-ttl.test"])
        #expect(huge.status == 0, "\(huge.stderr)")
        #expect(huge.stderr.contains(", ttl 86400, cache miss)"), "\(huge.stderr)")
    }

    @Test func wrongDNSPodKeyIsAResolverFailure() throws {
        let key = FileManager.default.temporaryDirectory.appendingPathComponent("ipcurl-wrong-key-\(getpid())").path
        try writePrivateFile("0123456789abcdef", to: key)
        defer { try? FileManager.default.removeItem(atPath: key) }
        let server = "http://\(try lab.value("LAB_HTTPDNS_IP")):\(try lab.value("LAB_HTTPDNS_HTTP_PORT"))"
        let result = try ipcurl(["resolve", "--dnspod-id", try lab.value("LAB_DNSPOD_ID"), "--dnspod-key-file", key,
                                 "--httpdns-server", server, "a.test"])
        #expect(result.status == 6)
        #expect(result.stdout.isEmpty)
    }
}
