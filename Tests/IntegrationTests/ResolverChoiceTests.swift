import Foundation
import Testing

/// How ipcurl picks addresses: --resolve wins, DoH servers fail over in order, -k covers the DoH query.
@Suite struct ResolverChoiceTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    @Test func staticResolveWinsOverDoH() throws {
        // DoH says 127.0.0.2 (right certificate); --resolve sends a.test to the wrong-certificate server.
        let result = try ipcurl(lab.resolverArguments + ["--resolve", "a.test:\(lab.httpsPort):\(lab.wrongIP)", lab.https("a.test")])
        #expect(result.status == 60)
    }

    @Test func staticResolveNeedsNoDoHServer() throws {
        let result = try ipcurl(["--doh", "https://127.0.0.1:9/dns-query", "--cacert", lab.ca, "-v",
                                 "--resolve", "a.test:\(lab.httpsPort):\(lab.ip)", lab.https("a.test")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("(static --resolve, ttl 0)"))
    }

    @Test func verboseListsEveryEntryHandedToLibcurl() throws {
        let other = "b.test:\(lab.httpsPort):\(lab.ip)"
        let result = try ipcurl(lab.resolverArguments + ["-v", "-s", "--resolve", other, lab.https("a.test")])
        #expect(result.status == 0)
        #expect(result.stderr.contains("* RESOLVE \(other)\n* RESOLVE a.test:\(lab.httpsPort):127.0.0.2,[::1]\n"))
    }

    @Test func unreachableDoHServerFailsOverToTheNext() throws {
        let result = try ipcurl(["--doh", "https://127.0.0.1:9/dns-query", "--doh-url", lab.dohURL, "--cacert", lab.ca, "-v",
                                 lab.https("b.test")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("* HTTPDNS skipped https://127.0.0.1:9/dns-query: Failed to connect"))
        #expect(result.stderr.contains("(doh \(lab.dohURL), ttl 300, cache miss)"))
    }

    @Test func allDoHServersDownExits6NamingEach() throws {
        let result = try ipcurl(["--doh", "https://127.0.0.1:9/dns-query", "--doh", "https://127.0.0.1:7/dns-query",
                                 "--cacert", lab.ca, lab.https("a.test")])
        #expect(result.status == 6)
        #expect(result.stderr.contains("127.0.0.1:9") && result.stderr.contains("127.0.0.1:7"))
    }

    @Test func dohAnswerThatIsNotA200IsRejected() throws {
        let wrongPath = lab.dohURL.replacingOccurrences(of: "/dns-query", with: "/no-such-endpoint")
        let result = try ipcurl(["--doh", wrongPath, "--cacert", lab.ca, lab.https("a.test")])
        #expect(result.status == 6)
        #expect(result.stderr.contains("HTTP 404"), "\(result.stderr)")
    }

    @Test func dohAnswerWithTheWrongContentTypeIsRejected() throws {
        // nginx's default vhost answers 200 text/plain: not a DNS message, whatever the status says.
        let result = try ipcurl(["-k", "--doh", "https://\(lab.ip):\(lab.httpsPort)/dns-query", lab.https("a.test")])
        #expect(result.status == 6)
        #expect(result.stderr.contains("content type text/plain, not application/dns-message"), "\(result.stderr)")
        #expect(result.stdoutBytes.isEmpty)
    }

    @Test func dohServerCertificateIsVerifiedUnlessInsecure() throws {
        // Without the lab CA the DoH server's certificate is untrusted: resolution fails, nothing is sent.
        let strict = try ipcurl(["--doh", lab.dohURL, lab.https("a.test")])
        #expect(strict.status == 6)
        #expect(strict.stderr.contains("certificate"))
        // -k is explicit and covers the DoH query and the request alike.
        let insecure = try ipcurl(["--doh", lab.dohURL, "-k", lab.https("nocert.test")])
        #expect(insecure.status == 0, "\(insecure.stderr)")
        #expect(insecure.stdout.hasPrefix("vhost=default host=nocert.test sni=nocert.test"))
    }

    @Test func ipLiteralURLSkipsResolution() throws {
        let result = try ipcurl(["-k", "-v", "--doh", "https://127.0.0.1:9/dns-query", "https://\(lab.ip):\(lab.httpsPort)/"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("IP literal, no resolution needed"))
    }

    @Test func writeOutMatchesRealCurlForTheSameRequest() throws {
        let format = "%{http_code} %{remote_ip} %{remote_port} %{url_effective} %{exitcode} %{scheme} %{num_redirects}\\n"
        let entry = "a.test:\(lab.httpsPort):\(lab.ip)"
        let ours = try ipcurl(["-s", "-o", "/dev/null", "-w", format, "--cacert", lab.ca, "--resolve", entry, lab.https("a.test", "/x?y=1")])
        let curl = try run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", format, "--cacert", lab.ca, "--resolve", entry,
                                             lab.https("a.test", "/x?y=1")])
        #expect(ours.status == 0 && curl.status == 0)
        #expect(ours.stdout == curl.stdout)
        #expect(ours.stdout == "200 \(lab.ip) \(lab.httpsPort) \(lab.https("a.test", "/x?y=1")) 0 HTTPS 0\n")  // curl 7.88 prints the scheme upper-case
    }
}
