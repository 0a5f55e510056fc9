import Foundation
import Testing

/// ipcurl against the real nginx + unbound lab: IP-direct requests keep SNI, Host and verification on the name.
@Suite struct IPDirectTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    @Test(arguments: ["a.test", "b.test"])
    func vhostsSharingOneIPEachAnswerWithTheirOwnSNIAndHost(name: String) throws {
        let result = try ipcurl(lab.resolverArguments + ["-w", "\\n%{remote_ip} %{http_code}", lab.https(name)])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "vhost=\(name) host=\(name) sni=\(name) method=GET uri=/")
        #expect(lines.last == "\(lab.ip) 200")
    }

    @Test func nameWhoseAnswerPointsAtAServerWithoutItsCertificateExits60WithNothingOnStdout() throws {
        for name in ["nocert.test", "wrong.test"] {
            let result = try ipcurl(lab.resolverArguments + [lab.https(name)])
            #expect(result.status == 60, "\(name): \(result.stderr)")
            #expect(result.stdoutBytes.isEmpty)
            #expect(result.stderr.hasPrefix("ipcurl: (60) "))
            #expect(result.stderr.contains(name))
        }
    }

    @Test func cnameChainIsFollowed() throws {
        let result = try ipcurl(lab.resolverArguments + [lab.https("cname.test")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("vhost=cname.test host=cname.test sni=cname.test"))
    }

    @Test func ipv6OnlyNameConnectsToBracketedEntry() throws {
        let result = try ipcurl(lab.resolverArguments + ["-v", "-w", "%{remote_ip}", lab.https("v6.test")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("::1"))
        #expect(result.stderr.contains("* RESOLVE v6.test:\(lab.httpsPort):[::1]\n"))
    }

    @Test func verboseShowsResolverAnswerAndExactEntryBeforeLibcurlTrace() throws {
        let result = try ipcurl(lab.resolverArguments + ["-v", "-s", lab.https("a.test")])
        #expect(result.status == 0)
        #expect(result.stderr.contains("* HTTPDNS a.test: 127.0.0.2, ::1 (doh \(lab.dohURL), ttl 60, cache miss)\n"))
        let entry = "* RESOLVE a.test:\(lab.httpsPort):127.0.0.2,[::1]\n"
        let entryAt = try #require(result.stderr.range(of: entry))
        let libcurlAt = try #require(result.stderr.range(of: "Added a.test:\(lab.httpsPort):127.0.0.2"))
        #expect(entryAt.lowerBound < libcurlAt.lowerBound)
        #expect(result.stderr.contains("\n> Host: a.test:\(lab.httpsPort)\n"))
    }

    @Test func verboseTraceRedactsCredentials() throws {
        let result = try ipcurl(lab.resolverArguments + ["-v", "-H", "Authorization: Bearer s3cr3t", "-H", "Cookie: id=s3cr3t",
                                                         lab.https("a.test")])
        #expect(result.status == 0)
        #expect(!result.stderr.contains("s3cr3t"))
        #expect(result.stderr.contains("> authorization: [redacted]\n"))  // HTTP/2 lowercases names
        #expect(result.stderr.contains("> cookie: [redacted]\n"))
    }

    @Test func postWithDataAndCustomMethodReachTheVhost() throws {
        let post = try ipcurl(lab.resolverArguments + ["-d", "x=1", lab.https("b.test", "/submit?q=1")])
        #expect(post.stdout == "vhost=b.test host=b.test sni=b.test method=POST uri=/submit?q=1\n")
        let put = try ipcurl(lab.resolverArguments + ["-X", "PUT", lab.https("b.test", "/x")])
        #expect(put.stdout.contains("method=PUT uri=/x"))
    }

    @Test func includeHeadersAndOutputFile() throws {
        let included = try ipcurl(lab.resolverArguments + ["-i", lab.https("a.test")])
        #expect(included.stdout.hasPrefix("HTTP/2 200"))
        #expect(included.stdout.contains("\r\n\r\nvhost=a.test"))

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ipcurl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("body").path
        let saved = try ipcurl(lab.resolverArguments + ["-o", file, lab.https("b.test")])
        #expect(saved.status == 0 && saved.stdout.isEmpty)
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("vhost=b.test"))

        // A transfer that fails before the first byte (bad certificate) leaves the existing file alone.
        let failed = try ipcurl(lab.resolverArguments + ["-o", file, lab.https("nocert.test")])
        #expect(failed.status == 60)
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("vhost=b.test"))
    }

    @Test func plainHTTPIsResolvedThroughHTTPDNSToo() throws {
        let result = try ipcurl(lab.resolverArguments + ["http://a.test:\(lab.httpPort)/plain"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "vhost=a.test host=a.test method=GET uri=/plain\n")
    }
}
