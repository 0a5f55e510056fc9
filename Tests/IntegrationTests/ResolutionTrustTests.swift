import Foundation
import Testing

/// Resolution a user can trust, against the real lab: exact pins for every spelling of a host, per-lookup budgets,
/// hedged servers, a fallback that says so, a cache a spoofed answer cannot hold, and nothing secret or hostile
/// reaching the terminal.
@Suite struct ResolutionTrustTests: LabSuite {
    let fixture: LabFixture
    let fixtureHTTP: String
    init() throws {
        fixture = try LabFixture()
        fixtureHTTP = "http://\(try fixture.lab.value("LAB_HTTPDNS_IP")):\(try fixture.lab.value("LAB_HTTPDNS_HTTP_PORT"))"
    }

    // MARK: Exact pinning

    @Test(.enabled(if: getuid() == 0, "needs root for a private mount namespace"))
    func everySpellingIsPinnedWhereTheSystemResolverWouldHijackIt() throws {
        let http = lab.httpPort
        // The namespace works: the system resolver (and plain curl) send a.test. to 127.0.0.3, where nothing listens.
        let hijacked = try inHijackedNamespace(["/usr/bin/curl", "-sS", "-w", "%{remote_ip}", "http://a.test.:\(http)/"])
        #expect(hijacked.status == 7, "\(hijacked.stdout) \(hijacked.stderr)")
        for spelling in ["a.test.", "A.TEST", "A.Test."] {
            let result = try inHijackedNamespace([ipcurlBinary(), "--no-fallback", "--doh", lab.dohURL, "--cacert", lab.ca, "-v",
                                                  "-w", "\n%{remote_ip} %{dns_source}", "http://\(spelling):\(http)/"])
            #expect(result.status == 0, "\(spelling): \(result.stderr)")
            #expect(result.stdout.hasPrefix("vhost=a.test host=a.test"), "\(spelling): \(result.stdout)")
            #expect(result.stdout.hasSuffix("\n127.0.0.2 doh"), "\(spelling): \(result.stdout)")
            let pinned = spelling.lowercased()
            #expect(result.stderr.contains("* RESOLVE \(pinned):\(http):127.0.0.2,[::1]\n"), "\(spelling): \(result.stderr)")
        }
        let idn = try inHijackedNamespace([ipcurlBinary(), "--no-fallback", "--doh", lab.dohURL, "--cacert", lab.ca,
                                           "-w", "\n%{remote_ip}", lab.https("bücher.test")])
        #expect(idn.status == 0 && idn.stdout.hasSuffix("\n127.0.0.2"), "\(idn.stderr)")
        let literal = try inHijackedNamespace([ipcurlBinary(), "--no-fallback", "--doh", lab.dohURL, "-v", "-w", "%{remote_ip}",
                                               "http://[::1]:\(http)/"])
        #expect(literal.stdout.hasSuffix("::1") && literal.stderr.contains("IP literal, no resolution needed"), "\(literal.stderr)")
        // `ipcurl resolve a.test.` prints the entry curl's own --resolve matches for the same spelling.
        let entry = try ipcurl(["resolve", "--port", String(http), "--doh", lab.dohURL, "--cacert", lab.ca, "a.test."])
        #expect(entry.stdout == "a.test.:\(http):127.0.0.2,[::1]\n")
        let curl = try inHijackedNamespace(["/usr/bin/curl", "-sS", "--resolve", String(entry.stdout.dropLast()),
                                            "-w", "\n%{remote_ip}", "http://a.test.:\(http)/"])
        #expect(curl.status == 0 && curl.stdout.hasSuffix("\n127.0.0.2"), "\(curl.stderr)")
    }

    @Test func anIDNIsResolvedPinnedAndVerifiedAsItsALabel() throws {
        let result = try ipcurl(["--no-fallback", "-v", "-w", "\n%{dns_source}"] + lab.resolverArguments + [lab.https("bücher.test")],
                                environment: ["LC_ALL": "C"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("vhost=xn--bcher-kva.test host=xn--bcher-kva.test sni=xn--bcher-kva.test"))
        #expect(result.stderr.contains("* HTTPDNS bücher.test is the IDN xn--bcher-kva.test\n"), "\(result.stderr)")
        #expect(result.stderr.contains("* RESOLVE xn--bcher-kva.test:\(lab.httpsPort):127.0.0.2,[::1]\n"))
        #expect(result.stderr.contains("matched cert's \"xn--bcher-kva.test\""))
        let listed = try ipcurl(["resolve"] + lab.resolverArguments + ["bücher.test"])
        #expect(listed.status == 0 && listed.stdout == "xn--bcher-kva.test:443:127.0.0.2,[::1]\n", "\(listed.stderr)")
        // The A-label's certificate does not cover another name: verification still runs against the A-label.
        let other = try ipcurl(["--no-fallback", "--resolve", "xn--bcher-kva.test:\(lab.httpsPort):\(lab.wrongIP)", "--cacert", lab.ca,
                                lab.https("bücher.test")])
        #expect(other.status == 60)
    }

    @Test func staticEntriesPinTheDoHServersOwnName() throws {
        let port = try lab.value("LAB_KRESD_PORT")
        let result = try ipcurl(["--no-fallback", "--doh", "https://doh.test:\(port)/dns-query", "--resolve", "doh.test:\(port):127.0.0.1",
                                 "--cacert", lab.ca, "-w", "\n%{dns_source}", lab.https("a.test")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("vhost=a.test") && result.stdout.hasSuffix("\ndoh"))
        let listed = try ipcurl(["resolve", "--doh", "https://doh.test:\(port)/dns-query", "--resolve", "doh.test:\(port):127.0.0.1",
                                 "--cacert", lab.ca, "b.test"])
        #expect(listed.stdout == "b.test:443:127.0.0.2\n", "\(listed.stderr)")
        #expect(!result.stderr.contains("looked up by the system resolver"))
        // Without a pin, -v says that the server's own name goes to the system resolver (localhost: /etc/hosts);
        // under --no-fallback a warning does (CacheTrustTests).
        let unpinned = try ipcurl(["-v", "--doh", "https://localhost:\(port)/dns-query", "--cacert", lab.ca, lab.https("a.test")])
        #expect(unpinned.stderr.contains("* HTTPDNS server https://localhost:\(port)/dns-query: its name is looked up by the "
                                         + "system resolver (pin it with --resolve)\n"), "\(unpinned.stderr)")
    }

    // MARK: Budgets and hedging

    @Test func aRedirectHopAfterTheBudgetGetsABudgetOfItsOwn() throws {
        let later = "https://b.test:\(lab.httpsPort)/api/echo"
        let result = try ipcurl(aliyun + ["--no-fallback", "--dns-timeout", "0.5", "-L", "-w", "\n%{dns_source} %{num_redirects}",
                                          lab.https("a.test", "/api/redirect?ms=900&to=\(later)")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("\naliyun 1"), "\(result.stdout)")
    }

    @Test func aServerThatFailedIsAskedAgainByTheNextLookup() throws {
        let failing = "http://\(try lab.value("LAB_HTTPDNS_IP")):\(try lab.value("LAB_HTTPDNS_FAIL_PORT"))"
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let (first, second) = ("first-\(tag).any.test", "second-\(tag).any.test")
        let result = try ipcurl(["--aliyun", try lab.value("LAB_ALIYUN_ACCOUNT"), "--httpdns-server", failing,
                                 "--httpdns-server", fixtureHTTP, "--cacert", lab.ca, "--no-fallback", "-L",
                                 lab.https(first, "/api/redirect?to=https://\(second):\(lab.httpsPort)/api/echo")])
        #expect(result.status == 0, "\(result.stderr)")
        let asked = try FixtureStats.read(lab).byName
        #expect(asked["fail:\(first)"] == 1 && asked["fail:\(second)"] == 1, "one ask per lookup: \(asked.filter { $0.key.contains(tag) })")
    }

    @Test func eachRetryAttemptAsksTheFailedServerAgain() throws {
        let failing = "http://\(try lab.value("LAB_HTTPDNS_IP")):\(try lab.value("LAB_HTTPDNS_FAIL_PORT"))"
        let name = "retry-\(UInt32.random(in: 0...UInt32.max)).any.test"
        let result = try ipcurl(["--aliyun", try lab.value("LAB_ALIYUN_ACCOUNT"), "--httpdns-server", failing,
                                 "--no-fallback", "--retry", "1", "--cacert", lab.ca, lab.https(name)])
        #expect(result.status == 6, "\(result.stderr)")
        #expect(result.stderr.contains("Will retry in 1 seconds"), "\(result.stderr)")
        #expect(try FixtureStats.read(lab).byName["fail:\(name)"] == 2, "the first attempt and the retry each ask the server")
    }

    @Test(arguments: ["doh", "aliyun"])
    func aBlackholedFirstServerCostsOneHedgeDelay(_ provider: String) throws {
        let silent = try SilentListener()
        let arguments = provider == "doh"
            ? ["--doh", "https://127.0.0.4:\(silent.port)/dns-query", "--doh", lab.dohURL, "--cacert", lab.ca]
            : ["--aliyun", try lab.value("LAB_ALIYUN_ACCOUNT"), "--httpdns-server", "http://127.0.0.4:\(silent.port)",
               "--httpdns-server", fixtureHTTP, "--cacert", lab.ca]
        let started = Date()
        let result = try ipcurl(arguments + ["--no-fallback", "--dns-timeout", "5", "-v", "-w", "\n%{dns_time}", lab.https("a.test")])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(elapsed < 2.5, "took \(elapsed) s with a 5 s budget")
        let dnsTime = Double(result.stdout.split(separator: "\n").last ?? "") ?? 99
        #expect(dnsTime >= 0.29 && dnsTime < 1.0, "dns_time \(dnsTime): the hedge delay plus one lookup")
        #expect(result.stderr.contains("* HTTPDNS race: http\(provider == "doh" ? "s" : "")://127.0.0.4:\(silent.port)"), "\(result.stderr)")
        #expect(result.stderr.contains(": no answer after 300 ms; also asking "))
        #expect(result.stderr.contains("answered in ") && result.stderr.contains("; cancelled http"))
    }

    @Test func everyServerSilentEndsWithinTheBudgetNamingEach() throws {
        let silent = try SilentListener()
        let server = "https://127.0.0.4:\(silent.port)"
        let started = Date()
        let result = try ipcurl(["--doh", server + "/a", "--doh", server + "/b", "--doh", server + "/c", "--dns-timeout", "1",
                                 "--no-fallback", "--cacert", lab.ca, "-v", lab.https("a.test")])
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(result.status == 6)
        for path in ["/a", "/b", "/c"] { #expect(result.stderr.contains("\(server)\(path): "), "\(path) not named: \(result.stderr)") }
        // Each hedged server opened its own connection instead of waiting on the first one's silent connection.
        #expect(!result.stderr.contains("Failed to resolve host"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").filter { $0.hasPrefix("ipcurl:") }.count == 1, "one error line")
    }

    // MARK: Fallback

    @Test func noAddressFromHTTPDNSFallsBackWithOneWarning() throws {
        // The fixture has no records for localhost (an empty answer); the system resolver knows it (split horizon).
        let result = try ipcurl(aliyun + ["-w", "\n%{dns_source}", lab.https("localhost")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("vhost=localhost") && result.stdout.hasSuffix("\nsystem"))
        #expect(result.stderr == "ipcurl: warning: localhost: HTTPDNS gave no address (\(fixtureHTTP): no A or AAAA records "
                + "(empty answer)); using the system resolver\n", "\(result.stderr)")
        let silenced = try ipcurl(aliyun + ["-s", lab.https("localhost")])
        #expect(silenced.status == 0 && silenced.stderr.isEmpty)
        let strict = try ipcurl(aliyun + ["--no-fallback", lab.https("localhost")])
        #expect(strict.status == 6 && strict.stderr.contains("no A or AAAA records (empty answer)"), "\(strict.stderr)")
        let dnspod = try ipcurl(try Provider.dnspod.arguments(lab) + ["-w", "\n%{dns_source}", lab.https("localhost")])
        #expect(dnspod.status == 0 && dnspod.stdout.hasSuffix("\nsystem"), "\(dnspod.stderr)")
        #expect(dnspod.stderr.contains("ipcurl: warning: localhost: HTTPDNS gave no address ("))
    }

    @Test(.enabled(if: getuid() == 0, "needs root for a private mount namespace"))
    func aDoHNXDOMAINForAnInternalNameFallsBackToTheCorporateResolver() throws {
        let result = try inHijackedNamespace([ipcurlBinary(), "--doh", lab.dohURL, "--cacert", lab.ca, "-w", "\n%{remote_ip} %{dns_source}",
                                              "http://intranet.corp:\(lab.httpPort)/"], extraHosts: "127.0.0.2 intranet.corp\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("\n127.0.0.2 system"), "\(result.stdout)")
        #expect(result.stderr.hasPrefix("ipcurl: warning: intranet.corp: HTTPDNS gave no address (https://127.0.0.1:")
                && result.stderr.contains("NXDOMAIN"), "\(result.stderr)")
    }

    @Test(.enabled(if: getuid() == 0, "needs root to bind a silent DNS server on port 53"))
    func theSystemFallbackObeysMaxTimeAndConnectTimeout() throws {
        // A DNS server that swallows queries: getaddrinfo would wait 5 x 30 s.
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-c", "import socket, time\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
                            + "s.bind(('127.0.0.4', 53))\nprint('ready', flush=True)\ntime.sleep(60)"]
        let ready = Pipe()
        server.standardOutput = ready
        try server.run()
        defer {
            kill(server.processIdentifier, SIGKILL)  // SIGTERM may be blocked in a mask inherited from the test runner
            server.waitUntilExit()
        }
        #expect(String(decoding: ready.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("ready"))
        let scratch = try TemporaryDirectory()
        let resolv = scratch.path + "/resolv.conf"
        try "nameserver 127.0.0.4\noptions timeout:30 attempts:5\n".write(toFile: resolv, atomically: true, encoding: .utf8)
        let script = "mount --bind \"$1\" /etc/resolv.conf && shift && exec \"$@\""
        for (limit, budget) in [(["-m", "2"], 2.0), (["--connect-timeout", "1"], 1.0)] {
            let started = Date()
            // Every HTTPDNS server answers 503, so the system resolver is asked, and it never answers.
            let failing = "http://\(try lab.value("LAB_HTTPDNS_IP")):\(try lab.value("LAB_HTTPDNS_FAIL_PORT"))"
            let result = try run("/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, "sh", resolv, ipcurlBinary(), "--aliyun",
                                                      try lab.value("LAB_ALIYUN_ACCOUNT"), "--httpdns-server", failing,
                                                      "--cacert", lab.ca] + limit + ["https://nowhere.example:\(lab.httpsPort)/"])
            let elapsed = Date().timeIntervalSince(started)
            #expect(result.status == 28 || result.status == 6, "\(limit): \(result.status) \(result.stderr)")
            #expect(elapsed < budget + 1.5, "\(limit) took \(elapsed) s")
        }
    }

    // MARK: Answers and the cache

    @Test func everyAddressFailingDropsTheCachedAnswer() throws {
        let cache = try TemporaryDirectory()
        let environment = ["IPCURL_CACHE_DIR": cache.path]
        let first = try ipcurl(aliyun + ["-v", lab.https("wrong.test")], environment: environment)
        #expect(first.status == 60)
        #expect(first.stderr.contains("cache miss") && first.stderr.contains("every address failed; the cached answer is dropped"))
        let second = try ipcurl(aliyun + ["-v", lab.https("wrong.test")], environment: environment)
        #expect(second.status == 60)
        #expect(second.stderr.contains("cache miss") && !second.stderr.contains("cache hit"), "\(second.stderr)")
        // A good answer stays cached.
        _ = try ipcurl(aliyun + [lab.https("b.test")], environment: environment)
        let hit = try ipcurl(aliyun + ["-v", lab.https("b.test")], environment: environment)
        #expect(hit.stderr.contains("cache hit"))
    }

    @Test func anAnswerWhoseEveryAddressStaysSilentIsDroppedToo() throws {
        let silent = try SilentListener()
        let cache = try TemporaryDirectory()
        let environment = ["IPCURL_CACHE_DIR": cache.path]
        let url = "https://silent.test:\(silent.port)/"
        let first = try ipcurl(aliyun + ["-v", "--connect-timeout", "0.5", url], environment: environment)
        #expect(first.status == 28, "\(first.stderr)")
        #expect(first.stderr.contains("every address failed; the cached answer is dropped"), "\(first.stderr)")
        let second = try ipcurl(aliyun + ["-v", "--connect-timeout", "0.5", url], environment: environment)
        #expect(second.stderr.contains("cache miss") && !second.stderr.contains("cache hit"), "\(second.stderr)")
    }

    @Test func unusableAddressesAreDroppedAndCounted() throws {
        let result = try ipcurl(aliyun + ["-v", "--no-fallback", lab.https("unusable.test")])
        #expect(result.stderr.contains("* RESOLVE unusable.test:\(lab.httpsPort):127.0.0.2,[::1]\n"), "\(result.stderr)")
        #expect(result.stderr.contains("* HTTPDNS unusable.test: 5 unusable or surplus address(es) dropped\n"))
        let none = try ipcurl(aliyun + ["--no-fallback", lab.https("only-unusable.test")])
        #expect(none.status == 6 && none.stderr.contains("no usable address: 0.0.0.0, 239.1.2.3, ::"), "\(none.stderr)")
        let mapped = try ipcurl(aliyun + ["-6", "--no-fallback", lab.https("mapped.test")])
        #expect(mapped.status == 6 && mapped.stderr.contains("no usable IPv6 address"), "\(mapped.stderr)")
        let many = try ipcurl(["resolve", "-v"] + aliyun + ["many.test"])
        #expect(many.stdout.split(separator: ",").count == 16, "\(many.stdout)")
        #expect(many.stderr.contains("many.test: 5 unusable or surplus address(es) dropped"))
    }

    @Test func theCacheKeyFollowsTheCAFileNotItsPath() throws {
        let scratch = try TemporaryDirectory()
        let ca = scratch.path + "/ca.pem"
        try FileManager.default.copyItem(atPath: lab.ca, toPath: ca)
        let environment = ["IPCURL_CACHE_DIR": scratch.path + "/cache"]
        let arguments = ["resolve", "-v", "--aliyun", try lab.value("LAB_ALIYUN_ACCOUNT"), "--httpdns-server", fixtureHTTP,
                         "--cacert", ca, "b.test"]
        _ = try ipcurl(arguments, environment: environment)
        #expect(try ipcurl(arguments, environment: environment).stderr.contains("cache hit"))
        try FileManager.default.removeItem(atPath: ca)
        try FileManager.default.copyItem(atPath: lab.ca, toPath: ca)  // another file (inode, mtime) at the same path
        let replaced = try ipcurl(arguments, environment: environment)
        #expect(replaced.stderr.contains("cache miss"), "\(replaced.stderr)")
    }

    @Test func cacheClearChecksOwnershipAndNeverWaitsUnbounded() throws {
        let scratch = try TemporaryDirectory()
        let cache = scratch.path + "/cache"
        let environment = ["IPCURL_CACHE_DIR": cache]
        _ = try ipcurl(["resolve"] + aliyun + ["a.test"], environment: environment)
        let entries = { try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".entry") }.count }
        #expect(try entries() == 2)
        chmod(cache, 0o777)
        let foreign = try ipcurl(["cache", "clear"], environment: environment)
        #expect(foreign.status != 0 && foreign.stderr.contains("writable by group or others"), "\(foreign.stderr)")
        #expect(try entries() == 2, "an untrusted directory is left alone")
        chmod(cache, 0o700)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [cache + "/.lock", "sleep", "4"]  // longer than clear's 2 s patience
        try holder.run()
        defer { holder.waitUntilExit() }
        Thread.sleep(forTimeInterval: 0.3)
        let started = Date()
        let locked = try ipcurl(["cache", "clear"], environment: environment)
        #expect(Date().timeIntervalSince(started) < 5, "clear waits a bounded time for the lock")
        #expect(locked.status != 0 && locked.stderr.contains("cache is locked by another process"), "\(locked.stderr)")
    }

    @Test func aHomeThatDoesNotExistGetsNoCache() throws {
        let scratch = try TemporaryDirectory()
        let home = scratch.path + "/missing-home"
        let result = try ipcurl(aliyun + ["-v", lab.https("a.test")],
                                environment: ["HOME": home, "IPCURL_CACHE_DIR": "", "XDG_CACHE_HOME": ""])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("* HTTPDNS cache off: HOME (\(home)) does not exist\n"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home))
    }

    @Test(.enabled(if: getuid() == 0, "needs root for a private mount namespace and port 53"))
    func anAbsoluteNameFallsBackWithoutSearchDomains() throws {
        // A DNS server that answers every *.corp name and logs each question: `foo.` must never become `foo.corp`.
        let scratch = try TemporaryDirectory()
        let log = scratch.path + "/queries"
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-c", """
            import socket, sys
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.13", 53)); print("ready", flush=True)
            while True:
                q, peer = s.recvfrom(512); i, labels = 12, []
                while q[i]: labels.append(q[i + 1:i + 1 + q[i]].decode()); i += 1 + q[i]
                name, qtype = ".".join(labels).lower(), q[i + 1:i + 3]
                open(sys.argv[1], "a").write(name + "\\n")
                if name.endswith(".corp") and qtype == b"\\x00\\x01":
                    s.sendto(q[:2] + b"\\x81\\x80\\x00\\x01\\x00\\x01\\x00\\x00\\x00\\x00" + q[12:i + 5]
                             + b"\\xc0\\x0c\\x00\\x01\\x00\\x01\\x00\\x00\\x00\\x3c\\x00\\x04\\x7f\\x00\\x00\\x02", peer)
                else:
                    s.sendto(q[:2] + b"\\x81\\x83" + q[4:6] + b"\\x00\\x00\\x00\\x00\\x00\\x00" + q[12:i + 5], peer)
            """, log]
        let ready = Pipe()
        server.standardOutput = ready
        try server.run()
        defer {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        #expect(String(decoding: ready.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("ready"))
        let resolv = scratch.path + "/resolv.conf"
        try "nameserver 127.0.0.13\nsearch corp\noptions timeout:1 attempts:1\n".write(toFile: resolv, atomically: true, encoding: .utf8)
        let script = "mount --bind \"$1\" /etc/resolv.conf && shift && exec \"$@\""
        let result = try run("/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, "sh", resolv, ipcurlBinary(), "--doh", lab.dohURL,
                                                  "--cacert", lab.ca, "-w", "\n%{remote_ip}", "http://foo.:\(lab.httpPort)/"])
        #expect(result.status == 6, "curl exits 6 for `foo.` here: \(result.stdout) \(result.stderr)")
        let asked = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(asked.split(separator: "\n").contains("foo") && !asked.contains("foo.corp"), "asked: \(asked)")
    }

    // MARK: Secrets and what reaches the terminal

    @Test func usageErrorsRedactServerURLsAndEscapeHosts() throws {
        let secrets = ["s3cret", "t0p"]
        let runs = [
            try ipcurl(["--doh", "http://user:s3cret@127.0.0.1:9/dns-query?token=t0p", lab.https("a.test")]),
            try ipcurl(["--doh-json", "ftp://user:s3cret@127.0.0.1:9/resolve?token=t0p", lab.https("a.test")]),
            try ipcurl(["--doh", "https://user:s3cret@127.0.0.1:99999/dns-query?token=t0p", lab.https("a.test")]),
            try ipcurl([lab.https("a.test")], environment: ["IPCURL_DNS": "http://user:s3cret@127.0.0.1/?token=t0p"]),
        ]
        for run in runs {
            #expect(run.status == 2, "\(run.stderr)")
            for secret in secrets { #expect(!run.stderr.contains(secret), "\(secret) leaked: \(run.stderr)") }
        }
        let escaped = try ipcurl(["resolve", "--doh", lab.dohURL, "a\u{1B}[31m.test"])
        #expect(escaped.status == 2 && escaped.stderr.contains("'a\\x1b[31m.test': not a host name"), "\(escaped.stderr)")
        #expect(!escaped.stderr.contains("\u{1B}"))
    }

    @Test func limitsUnderAMillisecondMeanNoLimitAsInCurl() throws {
        let result = try ipcurl(["-m", "0.0001", "--connect-timeout", "0.0001", "--resolve", "a.test:\(lab.httpsPort):127.0.0.2",
                                 "--cacert", lab.ca, lab.https("a.test")])
        let curl = try run("/usr/bin/curl", ["-sS", "-m", "0.0001", "--connect-timeout", "0.0001",
                                             "--resolve", "a.test:\(lab.httpsPort):127.0.0.2", "--cacert", lab.ca, lab.https("a.test")])
        #expect(curl.status == 0 && result.status == 0, "curl \(curl.status), ipcurl \(result.status): \(result.stderr)")
    }

    @Test func theDNSPodTokenIsNeverSentOverPlainHTTP() throws {
        let name = "token-\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).any.test"
        let result = try ipcurl(["--dnspod-token-file", try lab.value("LAB_DNSPOD_TOKEN_FILE"), "--httpdns-server", fixtureHTTP,
                                 "--cacert", lab.ca, lab.https(name)])
        #expect(result.status == 2)
        #expect(result.stderr.contains("the DNSPod token is sent over https only"), "\(result.stderr)")
        #expect(try FixtureStats.read(lab).byName[name] == nil, "nothing was sent")
        let tls = "https://\(try lab.value("LAB_HTTPDNS_IP")):\(try lab.value("LAB_HTTPDNS_TLS_PORT"))"
        let overHTTPS = try ipcurl(["--dnspod-token-file", try lab.value("LAB_DNSPOD_TOKEN_FILE"), "--httpdns-server", tls,
                                    "--cacert", lab.ca, "-w", "\n%{dns_source}", lab.https(name)])
        #expect(overHTTPS.status == 0 && overHTTPS.stdout.hasSuffix("\ndnspod"), "\(overHTTPS.stderr)")
        #expect(try FixtureStats.read(lab).byName[name] == 1)
    }

    @Test func aDoHURLWithCredentialsAndATokenIsUsedAndRedactedEverywhere() throws {
        let port = try lab.value("LAB_KRESD_PORT")
        let url = "https://user:s3cretpw@127.0.0.1:\(port)/dns-query?token=t0psecret&x=1"
        let cache = try TemporaryDirectory()
        let environment = ["IPCURL_CACHE_DIR": cache.path]
        let result = try ipcurl(["--doh", url, "--cacert", lab.ca, "-v", "-w", "%{json}", lab.https("a.test")], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("(doh https://***@127.0.0.1:\(port)/dns-query?token=***&x=***, ttl"), "\(result.stderr)")
        let listing = try ipcurl(["cache", "list"], environment: environment)
        let failing = try ipcurl(["--doh", "https://user:s3cretpw@127.0.0.1:9/dns-query?token=t0psecret", "--no-fallback", "-v",
                                  lab.https("a.test")])
        #expect(failing.status == 6)
        for run in [result, listing, failing] {
            for secret in ["s3cretpw", "t0psecret", "user:"] {
                #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret), "\(secret) leaked")
            }
        }
    }

    @Test func resolverCommandsInheritNoSocketsNoSecretsAndMayLeaveAGrandchild() throws {
        let scratch = try TemporaryDirectory()
        let script = scratch.path + "/resolver.py"
        try """
            #!/usr/bin/python3
            import os, subprocess, sys
            for fd in range(3, 256):
                try:
                    os.fstat(fd)
                except OSError:
                    continue
                sys.exit(f"inherited fd {fd}: {os.readlink(f'/proc/self/fd/{fd}')}")
            if any(name.startswith("IPCURL_") for name in os.environ):
                sys.exit("inherited IPCURL_ variables")
            print(f"{sys.argv[1]}:{sys.argv[2]}:127.0.0.2", flush=True)
            subprocess.Popen(["sleep", "30"])  # a grandchild that keeps stdout open
            """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let started = Date()
        let result = try ipcurl(["--resolver-cmd", script, "--cacert", lab.ca, "--no-fallback", "-L", "-w", "\n%{dns_source}",
                                 lab.https("a.test", "/api/redirect?to=https://b.test:\(lab.httpsPort)/api/echo")],
                                environment: ["IPCURL_DNSPOD_TOKEN": "123456789", "IPCURL_HTTPDNS_SECRET": "abc"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("\ncommand"))
        #expect(Date().timeIntervalSince(started) < 5, "the grandchild holding stdout must not cost the budget")
    }

    /// HTTPDNS queries follow the environment's proxy variables, as curl's DoH transfers do: through a proxy that
    /// refuses, no provider's query gets an answer; with the server in `no_proxy` (by its IP, or by the TLS name a
    /// server given by IP is asked as) it goes direct; through the lab's proxy, the proxy's log holds the query (a
    /// plain-HTTP query is logged whole, with the name asked).
    @Test(arguments: [Provider.aliyun, .dnspod, .dohJSONGoogle, .aliyunTLS, .dohJSON])
    func httpdnsQueriesFollowTheEnvironmentsProxyVariables(_ provider: Provider) throws {
        let arguments = try provider.arguments(lab)
        let server = arguments[(arguments.firstIndex { $0 == "--httpdns-server" || $0 == "--doh-json" } ?? 0) + 1]
        let secure = server.hasPrefix("https://")
        let variable = secure ? "https_proxy" : "http_proxy"
        let name = "proxied-\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).any.test"
        let httpdnsIP = try lab.value("LAB_HTTPDNS_IP")
        let refused = try ipcurl(["resolve", "--no-fallback"] + arguments + [name], environment: [variable: "http://127.0.0.1:9"])
        #expect(refused.status == 6 && refused.stderr.contains("Failed to connect to 127.0.0.1 port 9"), "\(refused.stderr)")
        let direct = try ipcurl(["resolve", "--no-fallback"] + arguments + [name],
                                environment: [variable: "http://127.0.0.1:9", "no_proxy": "\(httpdnsIP),\(try lab.value("LAB_HTTPDNS_ALIYUN_TLS_NAME"))"])
        #expect(direct.status == 0, "no_proxy names the server: \(direct.stderr)")
        let log = try lab.value("LAB_PROXY_LOG")
        let before = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
        let proxied = try ipcurl(["resolve", "--no-fallback"] + arguments + [name],
                                 environment: [variable: try lab.value("LAB_PROXY_URL")])
        #expect(proxied.status == 0 && proxied.stdout.hasPrefix("\(name):443:127.0.0.2"), "\(proxied.stderr)")
        let logged = String(decoding: try Data(contentsOf: URL(fileURLWithPath: log)).dropFirst(before), as: UTF8.self)
        let authority = server.split(separator: "/")[1]
        let line = secure ? "CONNECT \(authority) " : "GET http://\(authority)/"
        #expect(logged.split(separator: "\n").contains { $0.contains(line) && (secure || $0.contains(name)) }, "\(logged)")
    }

    /// Alibaba's signing secret and DNSPod's AES and DES keys never go over the wire: a signed query carries the
    /// host, the expiry and the MD5 signature, an encrypted one only ciphertext (the name is not in clear), and no
    /// request holds the secret in any spelling, read by a server of the test's own.
    @Test(arguments: [Provider.aliyunSigned, .dnspodAES, .dnspodDES])
    func vendorSecretsAndKeysNeverGoOverTheWire(_ provider: Provider) throws {
        let server = try ScriptedResponder(response: Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
        var arguments = try provider.arguments(lab)
        arguments[arguments.firstIndex(of: "--httpdns-server")! + 1] = "http://\(server.address):\(server.port)"
        let secretFile = arguments[arguments.firstIndex { $0 == "--httpdns-secret-file" || $0 == "--dnspod-key-file" }! + 1]
        let secret = try String(contentsOfFile: secretFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let name = "secret-\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).any.test"
        let result = try ipcurl(["resolve", "--no-fallback"] + arguments + [name])
        #expect(result.status == 6, "\(result.stderr)")
        let heads = server.heads.map { String(decoding: $0, as: UTF8.self) }
        #expect(!heads.isEmpty, "the query reached the test's server")
        let spellings = [secret, Data(secret.utf8).map { String(format: "%02x", $0) }.joined(), Data(secret.utf8).base64EncodedString()]
        for head in heads {
            for spelling in spellings { #expect(!head.lowercased().contains(spelling.lowercased()), "\(head)") }
            let requestLine = head.components(separatedBy: "\r\n").first ?? ""
            let account = arguments[1]
            let host = NSRegularExpression.escapedPattern(for: name)
            let pattern = provider == .aliyunSigned
                ? #"^GET /\#(account)/sign_d\?host=\#(host)&query=4,6&t=[0-9]+&s=[0-9a-f]{32} HTTP/1\.1$"#
                : #"^GET /d\?dn=[0-9A-Fa-f]+&id=[0-9]+(&alg=aes)?&ttl=1&type=addrs HTTP/1\.1$"#
            #expect(requestLine.range(of: pattern, options: .regularExpression) != nil, "\(requestLine)")
        }
    }

    /// No secret a resolver is given (Alibaba's signing secret, DNSPod's key and token, a resolver URL's user info and
    /// query) reaches a cache file, `cache list` (text or JSON), a `%{json}` write-out or a report of `check` in any
    /// format: each is written by runs that used every one of them, then searched.
    @Test func secretsNeverReachTheCacheAListingAWriteOutOrAReport() throws {
        let cache = try TemporaryDirectory()
        let environment = ["IPCURL_CACHE_DIR": cache.path]
        func trimmed(_ key: String) throws -> String {
            try String(contentsOfFile: try lab.value(key), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let tls = "\(try lab.value("LAB_HTTPDNS_IP")):\(try lab.value("LAB_HTTPDNS_TLS_PORT"))"
        let credentialURL = "https://resolver-user:resolver-pw-5@\(tls)/resolve?token=resolver-token-6"
        let secrets = [try trimmed("LAB_ALIYUN_SECRET_FILE"), try trimmed("LAB_DNSPOD_AES_KEY_FILE"), try trimmed("LAB_DNSPOD_TOKEN_FILE"),
                       "resolver-user", "resolver-pw-5", "resolver-token-6"]
        let name = { (tag: String) in "\(tag)-\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).any.test" }
        let json = ["-s", "-o", "/dev/null", "-w", "%{json}"]
        var outputs = [
            try ipcurl(try Provider.aliyunSigned.arguments(lab) + json + [lab.https(name("signed"))], environment: environment),
            try ipcurl(try Provider.dnspodAES.arguments(lab) + json + [lab.https(name("aes"))], environment: environment),
            try ipcurl(try Provider.dnspodToken.arguments(lab) + json + [lab.https(name("token"))], environment: environment),
            try ipcurl(["--doh-json", credentialURL, "--cacert", lab.ca] + json + [lab.https(name("url"))], environment: environment),
        ]
        for format in ["text", "json", "junit", "tap", "openmetrics", "html"] {
            outputs.append(try ipcurl(["check", "--doh-json", credentialURL, "--cacert", lab.ca, "--format", format, lab.https(name("check"))],
                                      environment: environment))
        }
        outputs += [try ipcurl(["cache", "list"], environment: environment), try ipcurl(["cache", "list", "--json"], environment: environment)]
        for output in outputs { #expect(output.status == 0, "\(output.stderr)") }
        let files = try FileManager.default.subpathsOfDirectory(atPath: cache.path).compactMap {
            try? String(contentsOfFile: cache.path + "/" + $0, encoding: .utf8)
        }
        #expect(files.count >= 10, "\(files.count) cache files")
        for text in outputs.flatMap({ [$0.stdout, $0.stderr] }) + files {
            for secret in secrets { #expect(!text.contains(secret), "\(secret) in \(text.prefix(400))") }
        }
    }

    @Test func aProxyResolvesTheNameAndNothingIsPinned() throws {
        let name = "proxied-\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).any.test"
        let url = "http://\(name):\(lab.httpPort)/"
        let result = try ipcurl(aliyun + ["-v", "-w", "\n%{dns_source}", url], environment: ["http_proxy": "http://127.0.0.1:9"])
        #expect(result.status == 7, "the proxy address refuses: \(result.stderr)")
        #expect(result.stdout.hasSuffix("proxy"), "\(result.stdout)")
        #expect(result.stderr.contains("* HTTPDNS \(name): the proxy from $http_proxy resolves this name; nothing is pinned\n"))
        #expect(!result.stderr.contains("* RESOLVE"))
        #expect(try FixtureStats.read(lab).byName[name] == nil, "HTTPDNS was not asked")
        let excluded = try ipcurl(aliyun + ["-w", "\n%{dns_source}", url],
                                  environment: ["http_proxy": "http://127.0.0.1:9", "no_proxy": ".test,127.0.0.5"])
        #expect(excluded.status == 0 && excluded.stdout.hasSuffix("\naliyun"), "\(excluded.stderr)")
        #expect(try FixtureStats.read(lab).byName[name] == 1)
    }

    @Test(arguments: [Provider.aliyun, .dnspod, .dohJSONGoogle])
    func serverTextIsEscapedBeforeItIsPrinted(_ provider: Provider) throws {
        let result = try ipcurl(try provider.arguments(lab) + ["--no-fallback", "-v", lab.https("control.test")])
        #expect(result.status == 6)
        let controls = result.stderr.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || (0x7f...0x9f).contains($0.value) || $0 == "\u{202E}"
        }
        #expect(controls.isEmpty, "control characters reached stderr: \(result.stderr.debugDescription)")
        #expect(result.stderr.contains("\\x1b"), "\(result.stderr)")
    }
}
