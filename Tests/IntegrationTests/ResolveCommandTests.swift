import Foundation
import Testing

/// `ipcurl resolve` prints entries that the real curl CLI accepts and that reach the right vhost.
@Suite struct ResolveCommandTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    @Test func plainEntriesWorkInRealCurl() throws {
        let result = try ipcurl(["resolve"] + lab.resolverArguments + ["--port", "\(lab.httpsPort)", "a.test", "b.test"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == ["a.test:\(lab.httpsPort):127.0.0.2,[::1]", "b.test:\(lab.httpsPort):127.0.0.2"])
        for (name, line) in zip(["a.test", "b.test"], lines) {
            let curl = try run("/usr/bin/curl", ["-sS", "--cacert", lab.ca, "--resolve", line, lab.https(name)])
            #expect(curl.status == 0, "\(curl.stderr)")
            #expect(curl.stdout.hasPrefix("vhost=\(name) host=\(name) sni=\(name)"))
        }
    }

    @Test func maxTimeBoundsTheLookup() throws {
        // A server that never answers and a 10 s lookup budget: -m 1 ends the run in about a second, exit 28.
        let hanging = try SilentListener()
        let started = Date()
        let result = try ipcurl(["resolve", "-m", "1", "--dns-timeout", "10", "--no-fallback", "--no-dns-cache",
                                 "--aliyun", "1", "--httpdns-server", "http://127.0.0.4:\(hanging.port)", "a.test"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 28, "\(result.stderr)")
        #expect(elapsed < 3, "took \(elapsed) s")
        #expect(result.stderr.hasPrefix("ipcurl: (28) Operation timed out after 10"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(" milliseconds while resolving a.test\n"), "\(result.stderr)")
    }

    @Test func curlFormatIsReadyToSplice() throws {
        let result = try ipcurl(["resolve", "--format", "curl", "--port", "\(lab.httpsPort)"] + lab.resolverArguments + ["b.test"])
        #expect(result.stdout == "--resolve b.test:\(lab.httpsPort):127.0.0.2\n")
        let words = result.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        let curl = try run("/usr/bin/curl", ["-sS", "--cacert", lab.ca] + words + [lab.https("b.test")])
        #expect(curl.stdout.hasPrefix("vhost=b.test"))
    }

    @Test func jsonFormatCarriesAnswersAndErrors() throws {
        let result = try ipcurl(["resolve", "--format", "json"] + lab.resolverArguments + ["b.test", "nosuch.test"])
        #expect(result.status == 6)
        let items = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(items.count == 2)
        #expect(items[0]["addresses"] as? [String] == ["127.0.0.2"])
        #expect(items[0]["ttl"] as? Int == 300)
        #expect(items[0]["source"] as? String == "doh")
        #expect(items[0]["entry"] as? String == "b.test:443:127.0.0.2")
        #expect(items[1]["exitcode"] as? Int == 6)
        #expect((items[1]["error"] as? String)?.contains("NXDOMAIN") == true)
    }

    @Test func defaultPortIs443AndOptionsWorkAfterTheSubcommand() throws {
        let result = try ipcurl(["resolve", "--doh", lab.dohURL, "--cacert", lab.ca, "v6.test"])
        #expect(result.stdout == "v6.test:443:[::1]\n")
    }

    @Test func oneFailedHostDoesNotHideTheOthers() throws {
        let result = try ipcurl(["resolve"] + lab.resolverArguments + ["nosuch.test", "b.test"])
        #expect(result.status == 6)
        #expect(result.stdout == "b.test:443:127.0.0.2\n")
        #expect(result.stderr.contains("ipcurl: (6) Could not resolve host: nosuch.test"))
    }
}
