import Foundation
import Testing

/// curl's connection-routing options (`--connect-to`, `--resolve '*:PORT:ADDR'` and `-HOST:PORT`, `--unix-socket`,
/// `--abstract-unix-socket`, `--interface`, `--local-port`, `--alt-svc`, `--hsts`) against the lab and compared with
/// curl 7.88.1; in the hijacked namespace, that no name they bring reaches the system resolver unannounced.
@Suite struct RoutingOptionTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    var port: Int { lab.httpsPort }
    /// `\nREMOTE_IP REMOTE_PORT`: where the connection went.
    let place = "\n%{remote_ip} %{remote_port}"
    /// curl's pins for the names ipcurl asks the lab's DoH server about (the oracle pins a.test itself).
    var curlPins: [String] {
        ["--resolve", "v6.test:\(port):[::1]", "--resolve", "b.test:\(port):\(lab.ip)",
         "--resolve", "x.any.test:\(port):\(lab.ip)", "--resolve", "y.any.test:\(port):\(lab.ip)"]
    }
    /// ipcurl in the namespace whose hosts file sends a.test to 127.0.0.3, resolving with the lab's DoH server only.
    func hijacked(_ arguments: [String]) throws -> Run {
        try inHijackedNamespace([ipcurlBinary(), "--no-fallback", "--doh", lab.dohURL, "--cacert", lab.ca] + arguments)
    }

    // MARK: --connect-to

    @Test func connectToPinsItsTargetThroughHTTPDNSAndKeepsTheURLsName() throws {
        for entry in ["a.test:\(port):v6.test:\(port)", "::v6.test:", "a.test::v6.test:", ":\(port):v6.test:\(port)"] {
            let arguments = ["--connect-to", entry, "-w", place, lab.https("a.test")]
            let ours = try oracle.compare(arguments, curlPins + arguments)
            #expect(ours.stdout.hasPrefix("vhost=a.test host=a.test sni=a.test") && ours.stdout.hasSuffix("\n::1 \(port)"),
                    "\(entry): \(ours.stdout) \(ours.stderr)")
        }
        let entry = "a.test:\(port):v6.test:\(port)"
        let verbose = try oracle.ours(["-v", "--connect-to", entry, "-w", "\n%{dns_source}", lab.https("a.test")])
        #expect(verbose.status == 0 && verbose.stdout.hasSuffix("\ndoh"), "\(verbose.stderr)")
        #expect(verbose.stderr.contains("* CONNECT-TO a.test:\(port) -> v6.test:\(port) (--connect-to \(entry)); "
                                        + "v6.test is resolved through HTTPDNS\n"), "\(verbose.stderr)")
        #expect(verbose.stderr.contains("* RESOLVE v6.test:\(port):[::1]\n") && !verbose.stderr.contains("* RESOLVE a.test:"))
        // An address as the target needs nothing; an entry for another host leaves the URL's own pin.
        let literal = try oracle.compare(["--connect-to", "a.test:\(port):[::1]:", "-w", place, lab.https("a.test")])
        #expect(literal.stdout.hasSuffix("\n::1 \(port)"), "\(literal.stdout) \(literal.stderr)")
        let other = ["--connect-to", "b.test:\(port):v6.test:\(port)", "-w", place, lab.https("a.test")]
        #expect(try oracle.compare(other, curlPins + other).stdout.hasSuffix("\n127.0.0.2 \(port)"))
        // A matching entry whose port is not a number is libcurl's error, as curl's.
        try oracle.compare(["--connect-to", "a.test:\(port):v6.test:99999", lab.https("a.test")])
    }

    @Test func connectToAppliesOnEveryRedirectHopItMatches() throws {
        let arguments = ["-L", "--connect-to", "a.test:\(port):v6.test:\(port)", "-w", "\n%{num_redirects}" + place,
                         lab.https("b.test", "/api/redirect?to=\(lab.https("a.test"))")]
        let ours = try oracle.compare(arguments, curlPins + arguments)
        #expect(ours.stdout.hasPrefix("vhost=a.test") && ours.stdout.hasSuffix("\n1\n::1 \(port)"), "\(ours.stdout) \(ours.stderr)")
    }

    @Test(.enabled(if: getuid() == 0, "needs root for a private mount namespace"))
    func aConnectToTargetNeverReachesTheSystemResolver() throws {
        let arguments = ["--connect-to", "b.test:\(port):a.test:\(port)", "-w", "\n%{remote_ip}", lab.https("b.test")]
        let result = try hijacked(arguments)
        #expect(result.status == 0 && result.stdout.hasPrefix("vhost=b.test") && result.stdout.hasSuffix("\n127.0.0.2"),
                "\(result.stdout) \(result.stderr)")
        // curl asks the hosts file for the target, and reaches the wrong address.
        let curl = try inHijackedNamespace(["/usr/bin/curl", "-sS", "--cacert", lab.ca] + arguments)
        #expect(curl.status != 0 || curl.stdout.hasSuffix("127.0.0.3"), "\(curl.stdout)")
    }

    // MARK: --resolve '*:PORT:ADDR', -HOST:PORT, +HOST:PORT:ADDR

    @Test func aWildcardEntryWinsOverHTTPDNSForEveryHostOnItsPort() throws {
        let chain = ["-L", "-w", "\n%{num_redirects}" + place,
                     lab.https("x.any.test", "/api/redirect?to=\(lab.https("y.any.test"))")]
        let ours = try oracle.compare(["--resolve", "*:\(port):[::1]"] + chain, ["--resolve", "*:\(port):[::1]"] + chain)
        #expect(ours.stdout.hasPrefix("vhost=any.test host=y.any.test") && ours.stdout.hasSuffix("\n1\n::1 \(port)"),
                "\(ours.stdout) \(ours.stderr)")
        // A named entry wins over the wildcard, in either order, as in libcurl.
        for order in [["*:\(port):[::1]", "y.any.test:\(port):\(lab.ip)"], ["y.any.test:\(port):\(lab.ip)", "*:\(port):[::1]"]] {
            let named = try oracle.compare(order.flatMap { ["--resolve", $0] } + chain, order.flatMap { ["--resolve", $0] } + chain)
            #expect(named.stdout.hasSuffix("\n1\n127.0.0.2 \(port)"), "\(order): \(named.stdout) \(named.stderr)")
        }
        let source = try oracle.ours(["--resolve", "*:\(port):[::1]", "-w", "%{dns_source}", "-o", "/dev/null", lab.https("a.test")])
        #expect(source.status == 0 && source.stdout == "static", "\(source.stderr)")
        // The HTTPDNS server's own name, on the wildcard's port: no system lookup to warn about.
        let kresd = try lab.value("LAB_KRESD_PORT")
        let server = try ipcurl(["--no-fallback", "--doh", "https://doh.test:\(kresd)/dns-query", "--resolve", "*:\(kresd):127.0.0.1",
                                 "--cacert", lab.ca, "-w", "\n%{dns_source}", lab.https("a.test")])
        #expect(server.status == 0 && server.stdout.hasSuffix("\ndoh"), "\(server.stderr)")
        #expect(!server.stderr.contains("system resolver"), "\(server.stderr)")
    }

    @Test func aRemovalEntryHandsTheNameBackToHTTPDNS() throws {
        let format = ["-w", "%{remote_ip} %{dns_source}", "-o", "/dev/null"]
        let cases: [([String], String)] = [
            (["a.test:\(port):[::1]", "-a.test:\(port)"], "127.0.0.2 doh"),
            (["a.test:\(port):[::1]", "-A.TEST:\(port)"], "127.0.0.2 doh"),
            (["a.test:\(port):[::1]", "-a.test:1"], "::1 static"),
            (["-a.test:\(port)", "a.test:\(port):[::1]"], "::1 static"),
            (["*:\(port):[::1]", "-*:\(port)"], "127.0.0.2 doh"),
            (["+a.test:\(port):[::1]"], "::1 static"),
        ]
        for (entries, expected) in cases {
            let result = try oracle.ours(entries.flatMap { ["--resolve", $0] } + format + [lab.https("a.test")])
            #expect(result.status == 0 && result.stdout == expected, "\(entries): \(result.stdout) \(result.stderr)")
        }
        // curl takes the timed form as a plain entry.
        let timed = try oracle.compare(["--resolve", "+a.test:\(port):[::1]", "-w", place, lab.https("a.test")])
        #expect(timed.stdout.hasSuffix("\n::1 \(port)"))
    }

    @Test(.enabled(if: getuid() == 0, "needs root for a private mount namespace"))
    func wildcardAndRemovalEntriesNeverLeaveANameToTheSystemResolver() throws {
        let removed = try hijacked(["--resolve", "a.test:\(port):[::1]", "--resolve", "-a.test:\(port)", "-w", "\n%{remote_ip}",
                                    lab.https("a.test")])
        #expect(removed.status == 0 && removed.stdout.hasSuffix("\n127.0.0.2"), "\(removed.stdout) \(removed.stderr)")
        let wildcard = try hijacked(["--resolve", "*:\(port):[::1]", "-L", "-w", "\n%{remote_ip}",
                                     lab.https("x.any.test", "/api/redirect?to=\(lab.https("a.test"))")])
        #expect(wildcard.status == 0 && wildcard.stdout.hasSuffix("\n::1"), "\(wildcard.stdout) \(wildcard.stderr)")
    }

    // MARK: --unix-socket, --abstract-unix-socket

    @Test func aUnixSocketResolvesNothingAndKeepsItsSocketAcrossRedirects() throws {
        let scratch = try TemporaryDirectory()
        let abstract = "ipcurl-test-\(UInt32.random(in: 0...UInt32.max))"
        for (flag, name, listening, shown) in [("--unix-socket", scratch.path + "/http.sock", scratch.path + "/http.sock", "unix socket"),
                                               ("--abstract-unix-socket", abstract, "@" + abstract, "abstract unix socket")] {
            let server = try RoutingServer(.unixSocket(listening))
            let plain = try oracle.compare([flag, name, "http://a.test/hello"])
            #expect(plain.stdout == "unix host=a.test path=/hello\n", "\(flag): \(plain.stdout) \(plain.stderr)")
            let followed = try oracle.compare(["-L", flag, name, "-w", "%{num_redirects}", "http://a.test/redir"])
            #expect(followed.stdout == "unix host=b.test path=/next\n1", "\(flag): \(followed.stdout) \(followed.stderr)")
            // Nothing is resolved: an HTTPDNS server that cannot answer is never asked.
            let verbose = try ipcurl(["--no-fallback", "--doh", "https://127.0.0.1:9/dns-query", "-v", "-L", flag, name, "http://a.test/redir"])
            #expect(verbose.status == 0 && verbose.stdout == "unix host=b.test path=/next\n", "\(verbose.stderr)")
            for host in ["a.test", "b.test"] {
                #expect(verbose.stderr.contains("* HTTPDNS \(host): connecting through the \(shown) \(name); nothing is resolved\n"),
                        "\(verbose.stderr)")
            }
            #expect(!verbose.stderr.contains("* RESOLVE"))
            withExtendedLifetime(server) {}
        }
    }

    @Test(.enabled(if: getuid() == 0, "needs root for a private mount namespace"))
    func aUnixSocketTransferLooksNothingUp() throws {
        let scratch = try TemporaryDirectory()
        let abstract = "ipcurl-test-\(UInt32.random(in: 0...UInt32.max))"
        // An abstract name lives in the network namespace, which the hijacked namespace (a mount namespace) shares.
        for (flag, name, listening) in [("--unix-socket", scratch.path + "/http.sock", scratch.path + "/http.sock"),
                                        ("--abstract-unix-socket", abstract, "@" + abstract)] {
            let server = try RoutingServer(.unixSocket(listening))
            let result = try inHijackedNamespace([ipcurlBinary(), "--no-fallback", "--doh", "https://127.0.0.1:9/dns-query",
                                                  flag, name, "-L", "http://a.test/redir"])
            #expect(result.status == 0 && result.stdout == "unix host=b.test path=/next\n", "\(flag): \(result.stderr)")
            withExtendedLifetime(server) {}
        }
    }

    // MARK: --interface, --local-port

    @Test func interfaceAndLocalPortBindAsCurls() throws {
        for interface in ["lo", "if!lo", "127.0.0.1", "host!127.0.0.1"] {
            let ours = try oracle.compare(["--interface", interface, "-w", "\n%{local_ip}", lab.https("a.test")])
            #expect(ours.stdout.hasSuffix("\n127.0.0.1"), "\(interface): \(ours.stdout) \(ours.stderr)")
        }
        try oracle.compare(["--interface", "if!nosuch0", lab.https("a.test")])
        try oracle.compare(["--local-port", "40000-40100", "-w", "%{http_code}", "-o", "/dev/null", lab.https("a.test")])
        let bound = try oracle.ours(["--local-port", "40000-40100", "-w", "%{local_port}", "-o", "/dev/null", lab.https("a.test")])
        #expect((40000...40100).contains(Int(bound.stdout) ?? 0), "\(bound.stdout) \(bound.stderr)")
        let single = try Self.freeLocalPort()
        let one = try oracle.ours(["--local-port", "\(single)", "-w", "%{local_port}", "-o", "/dev/null", lab.https("a.test")])
        #expect(one.stdout == "\(single)", "\(one.stdout) \(one.stderr)")
        for bad in ["70000", "40100-40000", "x", "-5", "1-70000", ""] {
            let mine = try oracle.ours(["--local-port", bad, lab.https("a.test")])
            let curls = try oracle.theirs(["--local-port", bad, lab.https("a.test")])
            #expect(mine.status == 2 && curls.status == 2, "\(bad): \(mine.stderr)")
        }
    }

    /// A TCP port on 127.0.0.1 that nothing holds now: the kernel's choice for a socket bound to port 0.
    static func freeLocalPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw LabError("no free local port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func anInterfaceNamedByAHostNameIsRefusedNotLookedUp() throws {
        for interface in ["host!a.test", "a.test", "nosuch0"] {
            let result = try oracle.ours(["--interface", interface, lab.https("a.test")])
            let curl = try oracle.theirs(["--interface", "nosuch0", lab.https("a.test")])
            #expect(result.status == 45 && curl.status == 45, "\(interface): \(result.stderr)")
            #expect(result.stderr.contains("the system resolver"), "\(interface): \(result.stderr)")
        }
    }

    @Test(.enabled(if: getuid() == 0, "needs root for a private mount namespace"))
    func anInterfaceHostNameNeverReachesTheSystemResolver() throws {
        let arguments = ["--interface", "host!a.test", "-w", "%{local_ip}", "-o", "/dev/null", lab.https("b.test")]
        let result = try hijacked(arguments)
        #expect(result.status == 45 && result.stdout.isEmpty, "\(result.stdout) \(result.stderr)")
        // curl binds to what the hosts file says.
        let curl = try inHijackedNamespace(["/usr/bin/curl", "-sS", "--cacert", lab.ca, "--resolve", "b.test:\(port):\(lab.ip)"] + arguments)
        #expect(curl.stdout == "127.0.0.3", "\(curl.stdout) \(curl.stderr)")
    }

    // MARK: --alt-svc

    /// An alt-svc cache file at `path` holding `entry` (`SRC-ALPN SRC-HOST SRC-PORT DST-ALPN DST-HOST DST-PORT`).
    func altSvc(_ entry: String, _ path: String) throws -> String {
        try "\(entry) \"20991231 00:00:00\" 0 0\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func anAltSvcAlternativeIsResolvedThroughHTTPDNSAndPinned() throws {
        let scratch = try TemporaryDirectory()
        let cases: [(entry: String, url: String, place: String)] = [
            ("h2 a.test \(port) h2 v6.test \(port)", lab.https("a.test"), "::1 \(port)"),
            ("h1 a.test \(port) h1 v6.test \(port)", lab.https("a.test"), "::1 \(port)"),
            ("h2 a.test 443 h2 a.test \(port)", "https://a.test/", "127.0.0.2 \(port)"),
            // libcurl 7.88.1 as Debian builds it has no HTTP/3: an h3 alternative is never taken.
            ("h2 a.test \(port) h3 v6.test \(port)", lab.https("a.test"), "127.0.0.2 \(port)"),
        ]
        for (number, (entry, url, expected)) in cases.enumerated() {
            let ours = try altSvc(entry, scratch.path + "/ours\(number)"), theirs = try altSvc(entry, scratch.path + "/theirs\(number)")
            let result = try oracle.compare(["--alt-svc", ours, "-w", place, url], curlPins + ["--alt-svc", theirs, "-w", place, url])
            #expect(result.stdout.hasPrefix("vhost=a.test host=a.test sni=a.test") && result.stdout.hasSuffix("\n" + expected),
                    "\(entry): \(result.stdout) \(result.stderr)")
        }
        let file = try altSvc("h2 a.test \(port) h2 v6.test \(port)", scratch.path + "/verbose")
        let verbose = try oracle.ours(["-v", "--alt-svc", file, lab.https("a.test")])
        #expect(verbose.stderr.contains("* ALT-SVC a.test:\(port) -> v6.test:\(port) (h2, from \(file)); "
                                        + "v6.test is resolved through HTTPDNS\n"), "\(verbose.stderr)")
        #expect(verbose.stderr.contains("* RESOLVE v6.test:\(port):[::1]\n"), "\(verbose.stderr)")
        let h3 = try altSvc("h2 a.test \(port) h3 v6.test \(port)", scratch.path + "/h3")
        #expect(try !oracle.ours(["-v", "--alt-svc", h3, lab.https("a.test")]).stderr.contains("v6.test"))
    }

    @Test(.enabled(if: getuid() == 0, "needs root for a private mount namespace"))
    func anAltSvcAlternativeNeverReachesTheSystemResolver() throws {
        let scratch = try TemporaryDirectory()
        let file = try altSvc("h2 b.test \(port) h2 a.test \(port)", scratch.path + "/alt-svc")
        let result = try hijacked(["--alt-svc", file, "-4", "-w", "\n%{remote_ip}", lab.https("b.test")])
        #expect(result.status == 0 && result.stdout.hasPrefix("vhost=b.test") && result.stdout.hasSuffix("\n127.0.0.2"),
                "\(result.stdout) \(result.stderr)")
    }

    // MARK: --hsts

    /// libcurl opens a cache file named `-` as a file, not stdin: ipcurl's reading of the file, to pin what libcurl
    /// will connect to, leaves stdin alone too (a `--data-binary @-` body stays the body).
    @Test func aCacheFileNamedDashIsNotStdin() throws {
        let entry = Data("a.test \"unlimited\"\n".utf8)
        let scratch = try TemporaryDirectory()  // libcurl writes its cache back to ./-
        for option in ["--hsts", "--alt-svc"] {
            let result = try ipcurl(lab.resolverArguments + ["-v", "-sS", option, "-", "--data-binary", "@-", lab.https("a.test", "/api/echo")],
                                    stdin: entry, directory: scratch.path)
            #expect(result.status == 0, "\(option): \(result.stderr)")
            #expect(result.stdout.contains("\"body_length\":\(entry.count)"), "\(option): stdin is the body: \(result.stdout)")
            #expect(!result.stderr.contains("* HSTS "), "\(option): \(result.stderr)")
        }
        let http = try ipcurl(lab.resolverArguments + ["-v", "--hsts", "-", "-m", "2", "http://a.test/"], stdin: entry,
                              directory: scratch.path)
        #expect(!FileManager.default.fileExists(atPath: "-"), "nothing written where the tests run")
        #expect(!http.stderr.contains("* HSTS a.test:80"), "stdin is no HSTS file: \(http.stderr)")
    }

    @Test(.enabled(if: getuid() == 0, "needs root to listen on port 443 and for a private mount namespace"))
    func anHSTSUpgradeIsPinnedOnThePortItConnectsTo() throws {
        let scratch = try TemporaryDirectory()
        func hsts(_ name: String) throws -> String {
            let path = scratch.path + "/" + name
            try "a.test \"20991231 00:00:00\"\n".write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        // A URL with a port keeps it: only the scheme changes.
        let same = try oracle.compare(["--hsts", try hsts("ours1"), "-w", "\n%{scheme}", "http://a.test:\(port)/"],
                                      ["--hsts", try hsts("theirs1"), "-w", "\n%{scheme}", "http://a.test:\(port)/"])
        #expect(same.stdout.hasPrefix("vhost=a.test host=a.test sni=a.test"), "\(same.stdout) \(same.stderr)")
        // Every hop of ipcurl's redirect loop is upgraded as curl's one handle upgrades it.
        let hop = ["-L", "-w", "\n%{num_redirects}", lab.https("b.test", "/api/redirect?to=http://a.test:\(port)/")]
        let followed = try oracle.compare(["--hsts", try hsts("ours2")] + hop, curlPins + ["--hsts", try hsts("theirs2")] + hop)
        #expect(followed.stdout.hasPrefix("vhost=a.test") && followed.stdout.hasSuffix("\n1"), "\(followed.stdout) \(followed.stderr)")
        // A URL without a port moves to 443, which gets its pin.
        let certs = URL(fileURLWithPath: lab.ca).deletingLastPathComponent().path
        let server = try RoutingServer(.tls443(certificate: certs + "/a.test.pem", key: certs + "/a.test.key"))
        let upgraded = try oracle.compare(["--hsts", try hsts("ours3"), "-w", place, "http://a.test/"],
                                          ["--resolve", "a.test:443:\(lab.ip)", "--hsts", try hsts("theirs3"), "-w", place, "http://a.test/"])
        #expect(upgraded.stdout == "tls443 host=a.test path=/\n\n127.0.0.2 443", "\(upgraded.stdout) \(upgraded.stderr)")
        let verbose = try oracle.ours(["-v", "--hsts", try hsts("ours4"), "http://a.test/"])
        #expect(verbose.stderr.contains("* RESOLVE a.test:443:127.0.0.2,[::1]\n"), "\(verbose.stderr)")
        // In the hijacked namespace the upgraded connection still goes to the pinned address.
        let hijack = try hijacked(["--hsts", try hsts("ours5"), "-w", "\n%{remote_ip}", "http://a.test/"])
        #expect(hijack.status == 0 && hijack.stdout == "tls443 host=a.test path=/\n\n127.0.0.2", "\(hijack.stdout) \(hijack.stderr)")
        withExtendedLifetime(server) {}
    }
}
