import Foundation
import Testing

/// Choosing a provider (flags, IPCURL_DNS), server failover, timeouts, and keeping secrets out of every output.
@Suite(.serialized) struct VendorOptionTests: LabSuite {
    let fixture: LabFixture
    let http: String
    let failing: String
    init() throws {
        fixture = try LabFixture()
        let ip = try fixture.lab.value("LAB_HTTPDNS_IP")
        http = "http://\(ip):\(try fixture.lab.value("LAB_HTTPDNS_HTTP_PORT"))"
        failing = "http://\(ip):\(try fixture.lab.value("LAB_HTTPDNS_FAIL_PORT"))"
    }

    @Test(arguments: ["--aliyun", "--dnspod"])
    func aFailingServerIsSkippedWithinEachLookup(_ flag: String) throws {
        var arguments = ["resolve", "-v", flag]
        if flag == "--aliyun" { arguments.append(try lab.value("LAB_ALIYUN_ACCOUNT")) }
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let names = ["a", "b", "c"].map { "\($0)-\(tag).any.test" }
        // DNSPod asks per host, each lookup on its own: the 503 server is asked once per host. Alibaba asks for
        // all three in one batch lookup: once.
        let result = try ipcurl(arguments + ["--httpdns-server", failing, "--httpdns-server", http] + names)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("* HTTPDNS skipped \(failing): HTTP 503\n"), "\(result.stderr)")
        #expect(result.stderr.contains("(\(flag.dropFirst(2)) \(http), ttl 60, cache miss)"), "\(result.stderr)")
        let asked = try FixtureStats.read(lab).byName
        if flag == "--dnspod" {
            #expect(names.allSatisfy { asked["fail:\($0)"] == 1 }, "\(asked.filter { $0.key.contains(tag) })")
        } else {
            #expect(names.allSatisfy { asked["fail:\($0)"] == 1 } && asked.filter { $0.key.contains(tag) }.count == 6,
                    "one batch request naming all three: \(asked.filter { $0.key.contains(tag) })")
        }
    }

    @Test func serverErrorWithADocumentedBodyStillFailsOver() throws {
        let result = try ipcurl(["resolve", "--aliyun", try lab.value("LAB_ALIYUN_ACCOUNT"), "--httpdns-server", http,
                                 "--httpdns-server", http + "/", "server-error.test"])
        #expect(result.status == 6)
        #expect(result.stderr.contains("\(http): HTTP 500; \(http): HTTP 500"), "\(result.stderr)")
    }

    @Test func everyServerDownNamesEachAndExits6() throws {
        let result = try ipcurl(["--dnspod", "--httpdns-server", failing, "--httpdns-server", "http://127.0.0.1:9",
                                 "--cacert", lab.ca, lab.https("a.test")])
        #expect(result.status == 6)
        #expect(result.stderr.hasPrefix("ipcurl: (6) Could not resolve host: a.test (\(failing): HTTP 503; http://127.0.0.1:9: "))
    }

    @Test func hangingServerIsBoundedByMaxTime() throws {
        let start = Date()
        let result = try ipcurl(["--aliyun", try lab.value("LAB_ALIYUN_ACCOUNT"), "--httpdns-server", http, "-m", "1",
                                 "--cacert", lab.ca, lab.https("slow.test")])
        #expect(result.status == 28, "\(result.stderr)")
        #expect(Date().timeIntervalSince(start) < 4)
    }

    @Test func environmentSelectsTheProviderAndTheCommandLineWins() throws {
        let environment = ["IPCURL_DNS": "aliyun:" + (try lab.value("LAB_ALIYUN_ACCOUNT"))]
        let chosen = try ipcurl(["resolve", "-v", "--httpdns-server", http, "b.test"], environment: environment)
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stderr.contains("(aliyun \(http), ttl 300, cache miss)"))
        let overridden = try ipcurl(["resolve", "-v", "--doh", lab.dohURL, "--cacert", lab.ca, "b.test"], environment: environment)
        #expect(overridden.stderr.contains("(doh \(lab.dohURL), ttl 300, cache miss)"),
                "\(overridden.stderr)")
        let json = try ipcurl(["resolve", "-v", "--cacert", lab.ca, "a.test"],
                              environment: ["IPCURL_DNS": "doh-json:\(http)/resolve"])
        #expect(json.stderr.contains("(doh-json \(http)/resolve, ttl 60, cache miss)"), "\(json.stderr)")
    }

    @Test(arguments: ["bogus", "aliyun", "aliyun:", "doh-json", "dnspod:", "command:"])
    func badEnvironmentValueIsAUsageError(_ value: String) throws {
        let result = try ipcurl(["resolve", "a.test"], environment: ["IPCURL_DNS": value])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("ipcurl: IPCURL_DNS="))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test(arguments: [
        ["--aliyun", "1", "--dnspod"], ["--doh-json", "https://127.0.0.1/", "--resolver-cmd", "x"],
        ["--httpdns-server", "http://127.0.0.1"], ["--dnspod", "--httpdns-secret-file", "/dev/null"],
        ["--aliyun", "12ab!"], ["--aliyun", "1", "--httpdns-client-ip", "1.2.3.4,5.6.7.8"],
        ["--aliyun", "1", "--httpdns-server", "ftp://127.0.0.1"], ["--dnspod", "--dnspod-alg", "rot13"],
        ["--dnspod-key-file", "LAB_DNSPOD_AES_KEY_FILE"], ["--resolver-cmd", " "],
    ])
    func inconsistentOptionsAreUsageErrors(_ options: [String]) throws {
        // A `LAB_` word is the lab's file of that name: a key file that is readable and private, so only the
        // missing --dnspod-id is wrong. -s hides transfer errors, not usage errors (as with curl's option errors).
        let result = try ipcurl(try options.map { $0.hasPrefix("LAB_") ? try lab.value($0) : $0 } + ["-s", "https://a.test/"])
        #expect(result.status == 2, "\(options): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test func optionsBeforeTheSubcommandGetAHint() throws {
        let result = try ipcurl(["--aliyun", "1", "resolve", "a.test"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("options go after the subcommand: 'ipcurl resolve [OPTIONS] ...'"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func unreadableSecretFileIsExit26() throws {
        let result = try ipcurl(["--aliyun", "1", "--httpdns-secret-file", "/nonexistent/secret", "https://a.test/"])
        #expect(result.status == 26)
        #expect(result.stderr == "ipcurl: (26) Failed to open /nonexistent/secret: No such file or directory\n")
    }

    @Test func secretsNeverAppearInOutputOrErrors() throws {
        let secret = try String(contentsOfFile: try lab.value("LAB_ALIYUN_SECRET_FILE"), encoding: .utf8)
        let token = try String(contentsOfFile: try lab.value("LAB_DNSPOD_TOKEN_FILE"), encoding: .utf8)
        let key = try String(contentsOfFile: try lab.value("LAB_DNSPOD_AES_KEY_FILE"), encoding: .utf8)
        let tls = "https://\(try lab.value("LAB_HTTPDNS_IP")):\(try lab.value("LAB_HTTPDNS_TLS_PORT"))"
        let runs = [
            try ipcurl(try Provider.aliyunSigned.arguments(lab) + ["-v", "-i", lab.https("a.test")]),
            try ipcurl(try Provider.aliyunSigned.arguments(lab) + ["-v", lab.https("bad-json.test")]),
            try ipcurl(["--dnspod", "--httpdns-server", "https://127.0.0.1:9", "--httpdns-server", tls, "--cacert", lab.ca, "-v", lab.https("a.test")],
                       environment: ["IPCURL_DNSPOD_TOKEN": token]),
            try ipcurl(["--dnspod", "--httpdns-server", tls, "-v", lab.https("a.test")], environment: ["IPCURL_DNSPOD_TOKEN": token]),
            try ipcurl(try Provider.dnspodAES.arguments(lab) + ["-v", lab.https("bad-json.test")]),
            try ipcurl(["resolve", "-v", "--aliyun", try lab.value("LAB_ALIYUN_SIGNED_ACCOUNT"), "--httpdns-server", http, "a.test"],
                       environment: ["IPCURL_HTTPDNS_SECRET": secret]),
        ]
        #expect(runs[0].status == 0 && runs[2].status == 0 && runs[5].status == 0, "\(runs.map(\.stderr))")
        #expect(runs[3].status == 6, "without --cacert the token request must not be sent unverified")
        for run in runs {
            for text in [secret, token, key, "token=", "&s=", "sign_d"] {
                #expect(!run.stdout.contains(text) && !run.stderr.contains(text), "\(text) leaked: \(run.stderr)")
            }
        }
    }
}
