import Foundation
import Testing

/// The resolution policy against the real lab: failover across answer IPs, the system-DNS fallback, the
/// `--dns-timeout` budget and address families.
@Suite struct PolicyTests: LabSuite {
    let fixture: LabFixture
    init() throws {
        fixture = try LabFixture()
    }

    @Test func tlsFailureOnOneIPMovesToTheNextWithAWarning() throws {
        // failover.test: 127.0.0.9 refuses, 127.0.0.3 has the wrong certificate, 127.0.0.2 is right.
        let result = try ipcurl(aliyun + ["-w", "%{remote_ip} %{dns_source}", lab.https("failover.test")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("vhost=failover.test host=failover.test sni=failover.test"))
        #expect(result.stdout.hasSuffix("127.0.0.2 aliyun"))
        let warnings = result.stderr.split(separator: "\n")
        #expect(warnings.count == 1 && warnings[0].hasPrefix("ipcurl: warning: failover.test: TLS failed at 127.0.0.3 (exit 60: "),
                "\(result.stderr)")
        #expect(!result.stderr.contains("127.0.0.9"), "a refused connection is libcurl's own failover, no warning")
    }

    @Test func verboseShowsEachFailoverStepAndTheNarrowedEntry() throws {
        let result = try ipcurl(aliyun + ["-s", "-v", lab.https("failover.test")])
        #expect(result.status == 0)
        let port = lab.httpsPort
        for line in ["* RESOLVE failover.test:\(port):127.0.0.9,127.0.0.3,127.0.0.2\n",
                     "* connect to 127.0.0.9 port \(port) failed: Connection refused\n",
                     "* HTTPDNS failover: failover.test: TLS failed at 127.0.0.3 (exit 60: ",
                     "* RESOLVE failover.test:\(port):127.0.0.2\n"] {
            #expect(result.stderr.contains(line), "missing \(line)")
        }
        #expect(!result.stderr.contains("ipcurl: warning"), "-s silences the warning; -v still shows the step")
    }

    @Test func everyIPFailingExitsWithTheLastFailure() throws {
        let certificate = try ipcurl(aliyun + [lab.https("wrong.test")])
        #expect(certificate.status == 60)
        #expect(!certificate.stderr.contains("warning"), "one address: nothing to move to")
        let refused = try ipcurl(["--resolve", "a.test:\(lab.httpsPort):127.0.0.9,127.0.0.8", "--cacert", lab.ca, lab.https("a.test")])
        #expect(refused.status == 7)
        let refusedThenGood = try ipcurl(["--resolve", "a.test:\(lab.httpsPort):127.0.0.9,127.0.0.2", "--cacert", lab.ca,
                                          "-w", "%{remote_ip}", lab.https("a.test")])
        #expect(refusedThenGood.status == 0 && refusedThenGood.stdout.hasSuffix("127.0.0.2"), "\(refusedThenGood.stderr)")
    }

    @Test func insecureTakesTheFirstServerThatAnswersAndNothingIsRepeated() throws {
        // With -k the wrong-certificate server completes the handshake and answers; the request is never sent twice.
        let result = try ipcurl(aliyun + ["-k", "-w", " %{remote_ip} %{num_connects}", lab.https("failover.test")])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("vhost=wrong host=failover.test") && result.stdout.hasSuffix(" 127.0.0.3 1"), "\(result.stdout)")
        #expect(!result.stderr.contains("warning"))
    }

    @Test func hangingHTTPDNSServerFallsBackToSystemDNSWithinTheBudget() throws {
        let silent = try SilentListener()
        let started = Date()
        let result = try ipcurl(["--doh", "https://127.0.0.4:\(silent.port)/dns-query", "--dns-timeout", "1", "--cacert", lab.ca,
                                 "-v", "-w", "%{dns_source} %{dns_time}", lab.https("localhost")])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("vhost=localhost host=localhost sni=localhost"))
        let fields = result.stdout.split(separator: "\n").last?.split(separator: " ") ?? []
        #expect(fields.first == "system")
        let dnsTime = Double(fields.last ?? "") ?? 0
        #expect(dnsTime >= 0.9 && dnsTime < 3, "dns_time \(dnsTime)")
        #expect(elapsed < 5, "took \(elapsed) s")
        #expect(result.stderr.contains("* HTTPDNS falling back to the system resolver: Could not resolve host: localhost (https://127.0.0.4:"))
        #expect(result.stderr.contains("* HTTPDNS localhost: 127.0.0.1 (system getaddrinfo, ttl 0)\n"))
        // Verification is unchanged on the fallback path: the lab CA is still required.
        let untrusted = try ipcurl(["--doh", "https://127.0.0.4:\(silent.port)/dns-query", "--dns-timeout", "0.5", lab.https("localhost")])
        #expect(untrusted.status == 60)
    }

    @Test func noFallbackGivesExit6WithTheReason() throws {
        let failing = "http://\(try lab.value("LAB_HTTPDNS_IP")):\(try lab.value("LAB_HTTPDNS_FAIL_PORT"))"
        let arguments = ["--aliyun", "1", "--httpdns-server", failing, "--cacert", lab.ca, "-w", "%{dns_source}", lab.https("localhost")]
        let strict = try ipcurl(["--no-fallback"] + arguments)
        #expect(strict.status == 6)
        #expect(strict.stderr == "ipcurl: (6) Could not resolve host: localhost (\(failing): HTTP 503)\n")
        let lenient = try ipcurl(arguments)
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stdout.hasPrefix("vhost=localhost") && lenient.stdout.hasSuffix("system"))
    }

    @Test func ipv6OnlyConnectsOverLoopbackV6() throws {
        let forced = try ipcurl(aliyun + ["-6", "-v", "-w", "%{remote_ip}", lab.https("a.test")])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout.hasSuffix("::1"))
        #expect(forced.stderr.contains("* RESOLVE a.test:\(lab.httpsPort):[::1]\n"), "only the IPv6 address reaches libcurl")
        let v6Only = try ipcurl(aliyun + ["-w", "%{remote_ip}", lab.https("v6.test")])
        #expect(v6Only.status == 0 && v6Only.stdout.hasSuffix("::1"), "\(v6Only.stderr)")
        let noV4 = try ipcurl(aliyun + ["-4", "--no-fallback", lab.https("v6.test")])
        #expect(noV4.status == 6)
        #expect(noV4.stderr.contains("aliyun: no usable IPv4 address: ::1"), "\(noV4.stderr)")
    }

    @Test func bothFamiliesPutIPv4First() throws {
        let result = try ipcurl(aliyun + ["-v", "-4", lab.https("a.test")])
        #expect(result.stderr.contains("* RESOLVE a.test:\(lab.httpsPort):127.0.0.2\n"))
        let listed = try ipcurl(["resolve", "--resolve", "a.test:443:::1,127.0.0.2", "a.test"])
        #expect(listed.stdout == "a.test:443:127.0.0.2,[::1]\n")
        // As in curl, the last of -4/-6 wins.
        let last = try ipcurl(aliyun + ["-v", "-4", "-6", lab.https("a.test")])
        #expect(!last.stderr.contains("* RESOLVE a.test:\(lab.httpsPort):127.0.0.2\n"), "\(last.stderr)")
    }
}
