import Foundation
import Testing

/// Every HTTPDNS provider, end to end against the lab: the fixture answers, nginx serves the request.
@Suite struct ProviderTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    @Test(arguments: Provider.allCases)
    func fullRequestGoesIPDirect(_ provider: Provider) throws {
        let result = try ipcurl(try provider.arguments(lab) + ["-sS", "-v", lab.https("a.test")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("vhost=a.test host=a.test sni=a.test "), "\(result.stdout)")
        #expect(result.stderr.contains("* HTTPDNS a.test: 127.0.0.2, ::1 (\(provider.sourceName) "), "\(result.stderr)")
        #expect(result.stderr.contains("* RESOLVE a.test:\(lab.httpsPort):127.0.0.2,[::1]\n"))
    }

    @Test(arguments: Provider.allCases)
    func resolvePrintsEntriesForEveryHost(_ provider: Provider) throws {
        let result = try ipcurl(["resolve"] + (try provider.arguments(lab)) + ["--port", "8443", "a.test", "b.test", "v6.test", "cname.test"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "a.test:8443:127.0.0.2,[::1]\nb.test:8443:127.0.0.2\nv6.test:8443:[::1]\ncname.test:8443:127.0.0.2,[::1]\n")
    }

    @Test(arguments: Provider.allCases)
    func unknownNameIsExit6(_ provider: Provider) throws {
        let result = try ipcurl(["resolve"] + (try provider.arguments(lab)) + ["a.test", "nothing.test"])
        #expect(result.status == 6)
        #expect(result.stdout == "a.test:443:127.0.0.2,[::1]\n")
        #expect(result.stderr.hasPrefix("ipcurl: (6) Could not resolve host: nothing.test ("), "\(result.stderr)")
    }

    @Test func aliyunBatchAsksOnceForUpToFiveHosts() throws {
        let hosts = ["a.test", "b.test", "v6.test", "cname.test", "multi.test", "wrong.test", "nocert.test"]
        let before = try FixtureStats.read(lab)
        let result = try ipcurl(["resolve"] + (try Provider.aliyun.arguments(lab)) + ["--format", "json"] + hosts)
        #expect(result.status == 0, "\(result.stderr)")
        let after = try FixtureStats.read(lab)
        // The request counters are global, so look only at our names: 7 hosts, one count each.
        for host in hosts { #expect((after.byName[host] ?? 0) - (before.byName[host] ?? 0) >= 1) }
        #expect(result.stdout.contains("\"multi.test\""))
        #expect(result.stdout.contains("127.0.0.3"))
    }

    @Test func signedRequestsNeedTheRightSecret() throws {
        let account = try lab.value("LAB_ALIYUN_SIGNED_ACCOUNT")
        let server = "http://\(try lab.value("LAB_HTTPDNS_IP")):\(try lab.value("LAB_HTTPDNS_HTTP_PORT"))"
        let unsigned = try ipcurl(["resolve", "--no-fallback", "--aliyun", account, "--httpdns-server", server, "a.test"])
        #expect(unsigned.status == 6)
        #expect(unsigned.stderr == "ipcurl: (6) Could not resolve host: a.test (\(server): 'UnsignedInterfaceDisabled' (HTTP 403))\n")
        let wrong = FileManager.default.temporaryDirectory.appendingPathComponent("ipcurl-wrong-secret-\(getpid())").path
        try writePrivateFile("not-the-secret\n", to: wrong)
        defer { try? FileManager.default.removeItem(atPath: wrong) }
        let badlySigned = try ipcurl(["resolve", "--aliyun", account, "--httpdns-secret-file", wrong, "--httpdns-server", server, "a.test"])
        #expect(badlySigned.status == 6)
        #expect(badlySigned.stderr.contains("'InvalidSignature' (HTTP 403)"), "\(badlySigned.stderr)")
        let invalidAccount = try ipcurl(["resolve", "--aliyun", "100000", "--httpdns-server", server, "a.test"])
        #expect(invalidAccount.stderr.contains("'InvalidAccount' (HTTP 403)"), "\(invalidAccount.stderr)")
    }

    @Test func aliyunServerByIPIsVerifiedAgainstTheServiceName() throws {
        // The IP-only certificate does not name resolvers-cn.httpdns.aliyuncs.com: refused, never downgraded.
        let ipCertificate = "https://\(try lab.value("LAB_HTTPDNS_IP")):\(try lab.value("LAB_HTTPDNS_TLS_PORT"))"
        let result = try ipcurl(["--aliyun", try lab.value("LAB_ALIYUN_ACCOUNT"), "--httpdns-server", ipCertificate,
                                 "--cacert", lab.ca, lab.https("a.test")])
        #expect(result.status == 6)
        #expect(result.stderr.contains("as resolvers-cn.httpdns.aliyuncs.com: SSL: no alternative certificate subject name"),
                "\(result.stderr)")
        // Without the lab CA the right certificate is not trusted either.
        let untrusted = try ipcurl(["resolve"] + (try Provider.aliyunTLS.arguments(lab)).dropLast(2) + ["a.test"])
        #expect(untrusted.status == 6)
        #expect(untrusted.stderr.contains("certificate"), "\(untrusted.stderr)")
    }

    /// `--doh-insecure` and `--doh-cert-status` are the HTTPDNS queries' own trust for a vendor provider too (the
    /// fixture's Alibaba Cloud TLS listeners), the request staying verified: a server whose certificate names another
    /// host is asked under `--doh-insecure`, and a server without OCSP stapling is refused under `--doh-cert-status`.
    @Test func theQueriesOwnTrustOptionsApplyToAVendorsTLSQueries() throws {
        let ip = try lab.value("LAB_HTTPDNS_IP")
        let aliyun = ["--aliyun", try lab.value("LAB_ALIYUN_ACCOUNT"), "--no-fallback", "--cacert", lab.ca, "-sS", "-o", "/dev/null",
                      "-w", "%{http_code} %{dns_source}"]
        let otherName = ["--httpdns-server", "https://\(ip):\(try lab.value("LAB_HTTPDNS_TLS_PORT"))"]
        let refused = try ipcurl(aliyun + otherName + [lab.https("a.test")])
        #expect(refused.status == 6 && refused.stderr.contains("no alternative certificate subject name"), "\(refused.stderr)")
        let skipped = try ipcurl(aliyun + otherName + ["--doh-insecure", lab.https("a.test")])
        #expect(skipped.status == 0 && skipped.stdout == "200 aliyun", "\(skipped.stdout) \(skipped.stderr)")
        let stillVerified = try ipcurl(aliyun + otherName + ["--doh-insecure", lab.https("wrong.test")])
        #expect(stillVerified.status == 60, "--doh-insecure never reaches the request: \(stillVerified.stderr)")
        let rightName = ["--httpdns-server", "https://\(ip):\(try lab.value("LAB_HTTPDNS_ALIYUN_TLS_PORT"))"]
        let plain = try ipcurl(aliyun + rightName + [lab.https("a.test")])
        #expect(plain.status == 0 && plain.stdout == "200 aliyun", "\(plain.stderr)")
        let stapled = try ipcurl(aliyun + rightName + ["--doh-cert-status", lab.https("a.test")])
        #expect(stapled.status == 6 && stapled.stderr.contains("No OCSP response received"), "\(stapled.stderr)")
    }

    @Test func resolverCommandAnswersARequest() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("ipcurl-resolver-\(getpid()).sh").path
        try "#!/bin/sh\n[ $# -eq 2 ] || exit 9\necho \"$1:$2:127.0.0.2\"\n".write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let result = try ipcurl(["--resolver-cmd", script, "--cacert", lab.ca, "-sS", "-v", lab.https("b.test")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("vhost=b.test "))
        #expect(result.stderr.contains("* RESOLVE b.test:\(lab.httpsPort):127.0.0.2\n"))
        let listed = try ipcurl(["resolve", "--resolver-cmd", script, "--port", "8443", "a.test"])
        #expect(listed.stdout == "a.test:8443:127.0.0.2\n")
    }
}
