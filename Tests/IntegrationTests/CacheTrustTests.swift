import Foundation
import Testing

/// What the answer cache may keep and what a run tells about it, across ipcurl processes sharing one cache
/// directory: no answer without a usable address, answers no connection has tried marked and never served stale,
/// a check that drops a poisoned answer as a fetch does, a proxy failure that says nothing about the answer; and
/// the boundaries around resolution: credentials in a resolver URL, names the system resolver still looks up under
/// `--no-fallback`, port 0.
@Suite struct CacheTrustTests: LabSuite {
    let fixture: LabFixture
    let fixtureIP: String
    init() throws {
        fixture = try LabFixture()
        fixtureIP = try fixture.lab.value("LAB_HTTPDNS_IP")
    }

    private func fresh(_ label: String) -> String { "\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).any.test" }

    private func entryFiles(_ cache: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".entry") }
    }

    private func listing(_ environment: [String: String]) throws -> (lines: [String], records: [[String: Any]]) {
        let plain = try ipcurl(["cache", "list"], environment: environment)
        let json = try ipcurl(["cache", "list", "--json"], environment: environment)
        let records = try JSONSerialization.jsonObject(with: json.stdoutBytes) as? [[String: Any]] ?? []
        return (plain.stdout.split(separator: "\n").map(String.init), records)
    }

    // MARK: What the cache keeps

    @Test(arguments: [Provider.aliyun, .dnspod, .dohJSON])
    func anAnswerOfOnlyUnusableAddressesIsNeverCached(_ provider: Provider) throws {
        let cache = try TemporaryDirectory()
        let environment = ["IPCURL_CACHE_DIR": cache.path]
        let arguments = try provider.arguments(lab) + ["--no-fallback", lab.https("only-unusable.test")]
        let first = try ipcurl(arguments, environment: environment)
        #expect(first.status == 6 && first.stderr.contains("(\(provider.sourceName): no usable address: 0.0.0.0, 239.1.2.3, ::)"),
                "\(first.stderr)")
        #expect(try entryFiles(cache).isEmpty, "nothing is cached")
        let second = try ipcurl(arguments, environment: environment)
        #expect(second.status == 6)
        #expect(second.stderr.contains("(\(provider.sourceName): no usable address"), "HTTPDNS asked again: \(second.stderr)")
    }

    @Test func answersOfResolveAreMarkedUnverifiedAndNeverServedStale() throws {
        let host = "ttl1-" + fresh("unverified")
        let cache = try TemporaryDirectory()
        let environment = ["IPCURL_CACHE_DIR": cache.path]
        let resolved = try ipcurl(["resolve"] + aliyun + [host], environment: environment)
        #expect(resolved.status == 0, "\(resolved.stderr)")
        let listed = try listing(environment)
        #expect(listed.lines.count == 2 && listed.lines.allSatisfy { $0.contains("(unverified)") }, "\(listed.lines)")
        #expect(listed.records.count == 2 && listed.records.allSatisfy { $0["unverified"] as? Bool == true }, "\(listed.records)")
        Thread.sleep(forTimeInterval: 2.1)
        let fetched = try ipcurl(aliyun + ["-v", "--dns-stale", "60", lab.https(host)], environment: environment)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stderr.contains(", cache miss)") && !fetched.stderr.contains("refreshing in the background"),
                "an expired unverified answer is asked again: \(fetched.stderr)")
        let refetched = try listing(environment)
        #expect(refetched.lines.count == 2 && !refetched.lines.contains { $0.contains("(") }, "a fetch's answer is unmarked: \(refetched.lines)")
        #expect(refetched.records.allSatisfy { $0["unverified"] as? Bool == false && $0["insecure"] as? Bool == false })
    }

    @Test func anAnswerFetchedWithoutCertificateStatusNeverServesARunThatAsksForIt() throws {
        let ip = try lab.value("LAB_HTTPDNS_IP")
        let cache = try TemporaryDirectory()
        let environment = ["IPCURL_CACHE_DIR": cache.path]
        let aliyun = ["--aliyun", try lab.value("LAB_ALIYUN_ACCOUNT"), "--no-fallback", "--cacert", lab.ca, "-sS",
                      "-o", "/dev/null", "-w", "%{dns_source}",
                      "--httpdns-server", "https://\(ip):\(try lab.value("LAB_HTTPDNS_ALIYUN_TLS_PORT"))"]
        let host = fresh("stapled")
        let plain = try ipcurl(aliyun + [lab.https(host)], environment: environment)
        #expect(plain.status == 0 && plain.stdout == "aliyun", "\(plain.stderr)")
        #expect(try !entryFiles(cache).isEmpty, "the answer is cached")
        // The fixture staples no OCSP response: the query fails, and no answer fetched without the check stands in.
        let stapled = try ipcurl(aliyun + ["--doh-cert-status", lab.https(host)], environment: environment)
        #expect(stapled.status == 6 && stapled.stderr.contains("No OCSP response received"), "\(stapled.stdout) \(stapled.stderr)")
    }

    @Test func aFetchThatFailsVerificationDropsAnUnverifiedEntry() throws {
        let cache = try TemporaryDirectory()
        let environment = ["IPCURL_CACHE_DIR": cache.path]
        _ = try ipcurl(["resolve"] + aliyun + ["wrong.test"], environment: environment)
        #expect(try entryFiles(cache).count == 2)
        let fetched = try ipcurl(aliyun + ["-v", lab.https("wrong.test")], environment: environment)
        #expect(fetched.status == 60)
        #expect(fetched.stderr.contains("cache hit") && fetched.stderr.contains("every address failed; the cached answer is dropped"),
                "\(fetched.stderr)")
        #expect(try entryFiles(cache).isEmpty)
    }

    @Test func checkDropsAnAnswerWhoseEveryProbeFailedVerification() throws {
        for mode in [[], ["--all-ips"]] {
            let cache = try TemporaryDirectory()
            let environment = ["IPCURL_CACHE_DIR": cache.path]
            let checked = try ipcurl(["check", "-v"] + mode + aliyun + [lab.https("wrong.test")], environment: environment)
            #expect(checked.status == 1 && checked.stdout.contains("exit 60"), "\(checked.stdout)")
            #expect(checked.stderr.contains("* HTTPDNS wrong.test: every address failed; the cached answer is dropped\n"),
                    "\(mode): \(checked.stderr)")
            #expect(try entryFiles(cache).isEmpty, "\(mode)")
        }
        // One probe over failover.test's answer reaches 127.0.0.3 (wrong certificate) after 127.0.0.9 refused;
        // 127.0.0.2 was never tried, so the answer stays.
        let cache = try TemporaryDirectory()
        let environment = ["IPCURL_CACHE_DIR": cache.path]
        let partial = try ipcurl(["check", "-v"] + aliyun + [lab.https("failover.test")], environment: environment)
        #expect(partial.status == 1 && !partial.stderr.contains("the cached answer is dropped"), "\(partial.stderr)")
        #expect(try entryFiles(cache).count == 2)
    }

    @Test func aFailedSOCKSProxyKeepsAGoodCachedAnswer() throws {
        let host = fresh("socks")
        let cache = try TemporaryDirectory()
        let environment = ["IPCURL_CACHE_DIR": cache.path]
        let seeded = try ipcurl(aliyun + [lab.https(host)], environment: environment)
        #expect(seeded.status == 0, "\(seeded.stderr)")
        // A proxy that refuses (curl: 7) and one that is no SOCKS server (curl: 97).
        for (proxy, code) in [("socks5://127.0.0.1:1", Int32(7)), ("socks5://\(lab.ip):\(lab.httpPort)", 97)] {
            let failed = try ipcurl(aliyun + ["-v", "-x", proxy, lab.https(host)], environment: environment)
            let curl = try run("/usr/bin/curl", ["-sS", "-x", proxy, "--resolve", "\(host):\(lab.httpsPort):\(lab.ip)",
                                                 "--cacert", lab.ca, lab.https(host)])
            #expect(failed.status == code && curl.status == code, "\(proxy): ipcurl \(failed.status), curl \(curl.status)")
            #expect(failed.stderr.contains("cache hit") && !failed.stderr.contains("the cached answer is dropped"),
                    "\(proxy): \(failed.stderr)")
        }
        let after = try ipcurl(aliyun + ["-v", lab.https(host)], environment: environment)
        #expect(after.status == 0 && after.stderr.contains("cache hit"), "\(after.stderr)")
    }

    @Test func cacheListMarksAnswersFetchedWithInsecure() throws {
        let cache = try TemporaryDirectory()
        let environment = ["IPCURL_CACHE_DIR": cache.path]
        let (insecure, verified) = (fresh("insecure"), fresh("verified"))
        let withoutCA = aliyun.filter { $0 != "--cacert" && $0 != lab.ca }
        let unverifiedRun = try ipcurl(withoutCA + ["-k", lab.https(insecure)], environment: environment)
        let verifiedRun = try ipcurl(aliyun + [lab.https(verified)], environment: environment)
        #expect(unverifiedRun.status == 0 && verifiedRun.status == 0, "\(unverifiedRun.stderr) \(verifiedRun.stderr)")
        let listed = try listing(environment)
        let marked = listed.lines.filter { $0.hasPrefix(insecure + "\t") }
        #expect(marked.count == 2 && marked.allSatisfy { $0.contains("(-k)") }, "\(listed.lines)")
        #expect(listed.lines.filter { $0.hasPrefix(verified + "\t") && !$0.contains("(") }.count == 2, "\(listed.lines)")
        for record in listed.records {
            #expect(record["insecure"] as? Bool == (record["host"] as? String == insecure), "\(record)")
        }
    }

    // MARK: Boundaries around resolution

    @Test func credentialsInAResolverURLGoOverHTTPSOnly() throws {
        let name = fresh("credential")
        let http = "http://\(fixtureIP):\(try lab.value("LAB_HTTPDNS_HTTP_PORT"))"
        let withUser = "http://user:s3cretpw@\(fixtureIP):\(try lab.value("LAB_HTTPDNS_HTTP_PORT"))/resolve"
        let runs = [
            try ipcurl(["--doh-json", withUser, "--no-fallback", "--cacert", lab.ca, lab.https(name)]),
            try ipcurl(["--doh-json", http + "/resolve?token=t0psecret", "--no-fallback", "--cacert", lab.ca, lab.https(name)]),
            try ipcurl(["--no-fallback", "--cacert", lab.ca, lab.https(name)], environment: ["IPCURL_DNS": "doh-json:" + withUser]),
            try ipcurl(["--no-fallback", "--cacert", lab.ca, lab.https(name)],
                       environment: ["IPCURL_DNS": "doh-json:\(http)/resolve?t0psecret"]),
        ]
        for result in runs {
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("is sent over https only"),
                    "\(result.stderr)")
            for secret in ["s3cretpw", "t0psecret"] { #expect(!result.stderr.contains(secret), "\(secret) leaked") }
        }
        #expect(try FixtureStats.read(lab).byName[name] == nil, "nothing was sent")
        let tls = "https://user:s3cretpw@\(fixtureIP):\(try lab.value("LAB_HTTPDNS_TLS_PORT"))/dns-query?token=t0psecret"
        let overHTTPS = try ipcurl(["--doh-json", tls, "--cacert", lab.ca, "-w", "\n%{dns_source}", lab.https(name)])
        #expect(overHTTPS.status == 0 && overHTTPS.stdout.hasSuffix("\ndoh-json"), "\(overHTTPS.stderr)")
    }

    /// A resolver or proxy URL libcurl rejects keeps its user info out of every message, by the rule that blanks it
    /// from the process list: whatever lies between the scheme (and any slashes) and the last `@`, a password
    /// holding `/` included, for every option and variable that takes such a URL.
    @Test func anUnparseableResolverOrProxyURLKeepsItsUserInfoOutOfMessages() throws {
        let broken = "https://user:ab/SEKRET==@127.0.0.1:1/dns-query", brokenProxy = "http://user:ab/SEKRET==@127.0.0.1:1"
        let target = ["--no-fallback", "http://a.test:\(lab.httpPort)/files/empty.txt"]
        let runs: [(String, Int32, Run)] = [
            ("--doh", 2, try ipcurl(["--doh", broken] + target)),
            ("--doh-url", 2, try ipcurl(["--doh-url", broken] + target)),
            ("--doh-json", 2, try ipcurl(["--doh-json", broken] + target)),
            ("--doh, one slash, port 0", 2, try ipcurl(["--doh", "https:/user:SEKRET@127.0.0.1:0/dns-query"] + target)),
            ("--httpdns-server", 2, try ipcurl(["--aliyun", "1", "--httpdns-server", broken] + target)),
            ("IPCURL_DNS", 2, try ipcurl(target, environment: ["IPCURL_DNS": broken])),
            ("IPCURL_DNS=doh:", 2, try ipcurl(target, environment: ["IPCURL_DNS": "doh:" + broken])),
            ("check --doh", 2, try ipcurl(["check", "--doh", broken, "http://a.test:\(lab.httpPort)/"])),
            ("-x", 5, try ipcurl(lab.resolverArguments + ["-x", brokenProxy] + target)),
            ("http_proxy", 5, try ipcurl(lab.resolverArguments + target, environment: ["http_proxy": brokenProxy])),
            ("https_proxy, for the HTTPDNS queries", 6, try ipcurl(lab.resolverArguments + target, environment: ["https_proxy": brokenProxy])),
        ]
        for (name, status, result) in runs {
            #expect(result.status == status, "\(name): \(result.stderr)")
            #expect(result.stderr.contains("127.0.0.1"), "\(name): the message names the host: \(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains("SEKRET"), "\(name): \(result.stdout)\(result.stderr)")
        }
    }

    @Test func underNoFallbackANamedServerOrProxyIsWarnedAboutOncePerRun() throws {
        let port = try lab.value("LAB_KRESD_PORT")
        let named = ["--no-fallback", "--doh", "https://localhost:\(port)/dns-query", "--cacert", lab.ca]
        let twice = try ipcurl(named + [lab.https("a.test"), lab.https("b.test")])
        let warnings = twice.stderr.split(separator: "\n").filter { $0.hasPrefix("ipcurl: warning: ") }
        #expect(warnings.count == 1, "\(twice.stderr)")
        #expect(warnings.first?.contains("localhost") == true && warnings.first?.contains("system resolver") == true
                && warnings.first?.contains("--resolve localhost:\(port):") == true, "\(twice.stderr)")
        // Each `--next` operation has a resolver session of its own: still one warning per name for the run.
        let operations = try ipcurl(named + [lab.https("a.test"), "--next"] + named + [lab.https("b.test")])
        let operationWarnings = operations.stderr.split(separator: "\n").filter { $0.hasPrefix("ipcurl: warning: ") }
        #expect(operationWarnings.count == 1, "\(operations.stderr)")
        let silent = try ipcurl(["-s"] + named + [lab.https("a.test")])
        #expect(!silent.stderr.contains("warning"), "-s hides warnings: \(silent.stderr)")
        let fallingBack = try ipcurl(Array(named.dropFirst()) + [lab.https("a.test")])
        #expect(!fallingBack.stderr.contains("warning: HTTPDNS server"), "without --no-fallback -v says it: \(fallingBack.stderr)")
        let pinned = try ipcurl(named + ["--resolve", "localhost:\(port):127.0.0.1", lab.https("a.test")])
        #expect(!pinned.stderr.contains("system resolver"), "\(pinned.stderr)")
        // A proxy named by its host name: libcurl asks the system resolver for it.
        let proxied = try ipcurl(["--no-fallback", "-x", "socks5://localhost:1"] + lab.resolverArguments + [lab.https("a.test")])
        #expect(proxied.status == 7)
        let proxyWarnings = proxied.stderr.split(separator: "\n").filter { $0.hasPrefix("ipcurl: warning: ") }
        #expect(proxyWarnings.count == 1 && proxyWarnings.first?.contains("proxy") == true
                && proxyWarnings.first?.contains("localhost") == true, "\(proxied.stderr)")
        let proxiedTwice = try ipcurl(["--no-fallback", "-x", "socks5://localhost:1"] + lab.resolverArguments + [lab.https("a.test"), "--next",
                                       "--no-fallback", "-x", "socks5://localhost:1"] + lab.resolverArguments + [lab.https("b.test")])
        #expect(proxiedTwice.stderr.split(separator: "\n").filter { $0.hasPrefix("ipcurl: warning: ") }.count == 1, "\(proxiedTwice.stderr)")
        let byAddress = try ipcurl(["--no-fallback", "-x", "socks5://127.0.0.1:1"] + lab.resolverArguments + [lab.https("a.test")])
        #expect(!byAddress.stderr.contains("warning"), "\(byAddress.stderr)")
    }

    @Test func portZeroIsOneLineWithCurlsExitCode() throws {
        let name = fresh("port0")
        let url = "https://\(name):0/"
        let fetched = try ipcurl(aliyun + [url])
        let curl = try run("/usr/bin/curl", ["-sS", "--resolve", "\(name):0:\(lab.ip)", url])
        #expect(curl.status == 7 && fetched.status == curl.status, "curl \(curl.status): \(curl.stderr); ipcurl \(fetched.stderr)")
        let lines = fetched.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.hasPrefix("ipcurl: (7) ") == true && lines.first?.contains("port 0") == true,
                "\(fetched.stderr)")
        let checked = try ipcurl(["check", "--format", "json"] + aliyun + [url])
        let report = try JSONSerialization.jsonObject(with: checked.stdoutBytes) as? [String: Any] ?? [:]
        let reason = ((report["probes"] as? [[String: Any]])?.first?["reason"] as? String) ?? ""
        #expect(checked.status == 1 && reason.hasPrefix("exit 7: ") && reason.contains("port 0"), "\(checked.stdout)")
        #expect(try FixtureStats.read(lab).byName[name] == nil, "port 0 asks no HTTPDNS server")
    }
}
