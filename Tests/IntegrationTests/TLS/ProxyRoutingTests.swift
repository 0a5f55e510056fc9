import Foundation
import Testing

/// `--socks4`, `--socks4a`, `--socks5`, `--socks5-hostname`, `--preproxy` and the SOCKS5 authentication options
/// through the lab's SOCKS proxy (127.0.0.8), compared with curl. The proxy logs what each CONNECT gave it, a name
/// or an address, so each test reads who resolved the name from it: serialized, so each run's lines are its own.
@Suite(.serialized) struct ProxyRoutingTests: LabSuite {
    let fixture: LabFixture
    let socks: String, socksAuth: String, httpProxy: String, user: String
    init() throws {
        fixture = try LabFixture()
        socks = try fixture.lab.value("LAB_SOCKS_ADDRESS")
        socksAuth = try fixture.lab.value("LAB_SOCKS_AUTH_ADDRESS")
        httpProxy = try fixture.lab.value("LAB_PROXY_URL")
        user = try String(contentsOfFile: try fixture.lab.value("LAB_PROXY_USER_FILE"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    let format = "%{http_code} %{remote_ip}\n"

    /// The SOCKS proxy's log lines written while `body` runs.
    func socksLog(during body: () throws -> Void) throws -> [String] {
        let path = try lab.value("LAB_SOCKS_LOG")
        let before = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        try body()
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return String(decoding: data.dropFirst(before), as: UTF8.self).split(separator: "\n").map { String($0.drop { $0 != ":" }.dropFirst(2)) }
    }

    /// Each SOCKS option is `-x` with its scheme: the same transfer as curl's, the proxy given a name where it
    /// resolves (4a, 5h: nothing pinned) and the pinned address where libcurl resolves (4, 5: `* RESOLVE`).
    @Test(arguments: [("--socks4", "socks4"), ("--socks4a", "socks4a"), ("--socks5", "socks5"), ("--socks5-hostname", "socks5h")])
    func eachSOCKSOptionIsXWithItsScheme(option: String, scheme: String) throws {
        let url = lab.https("a.test"), byProxy = scheme.hasSuffix("a") || scheme.hasSuffix("h")
        let version = scheme.hasPrefix("socks4") ? (byProxy ? "socks4a" : "socks4") : "socks5"
        let given = byProxy ? "name a.test:\(lab.httpsPort)" : "address 127.0.0.2:\(lab.httpsPort)"
        for arguments in [[option, socks], ["-x", "\(scheme)://\(socks)"]] {
            let lines = try socksLog { try oracle.compare(arguments + ["-w", format, url]) }
            #expect(lines == ["\(version) \(given) -> 127.0.0.2", "\(version) \(given) -> 127.0.0.2"], "\(arguments)")
        }
        let verbose = try oracle.ours(["-v", option, socks, "-w", "%{dns_source}", url])
        #expect(verbose.status == 0 && verbose.stdout.hasSuffix(byProxy ? "proxy" : "doh"), "\(verbose.stderr)")
        let decision = byProxy ? "* HTTPDNS a.test: the proxy given with \(option) resolves this name; nothing is pinned\n"
            : "* HTTPDNS a.test: the SOCKS proxy given with \(option) is sent the pinned address\n"
        #expect(verbose.stderr.contains(decision) && verbose.stderr.contains("* RESOLVE a.test:") != byProxy, "\(verbose.stderr)")
    }

    /// The last of `-x`, `--socks5` and the others wins, as curl says they are one setting; a scheme in the value
    /// decides over the option, and `http://` or none takes the option's type (libcurl's `parse_proxy`).
    @Test func theLastProxyOptionWinsAndASchemeDecides() throws {
        let url = lab.https("a.test"), refusing = "127.0.0.1:9"
        try oracle.compare(["-x", "http://\(refusing)", "--socks5", socks, "-w", format, url])
        try oracle.compare(["--socks5", socks, "-x", "http://\(refusing)", "-w", format, url])
        try oracle.compare(["--socks4a", refusing, "--socks5-hostname", socks, "-w", format, url])
        let lines = try socksLog {
            try oracle.compare(["--socks4", "socks5h://\(socks)", "-w", format, url])
            try oracle.compare(["--socks5", "http://\(socks)", "-w", format, url])
        }
        #expect(lines.count == 4 && lines[0].hasPrefix("socks5 name a.test") && lines[2].hasPrefix("socks5 address 127.0.0.2"), "\(lines)")
        let scheme = try oracle.ours(["-v", "--socks4", "socks5h://\(socks)", url])
        #expect(scheme.stderr.contains("the proxy given with --socks4 resolves this name") && !scheme.stderr.contains("* RESOLVE"))
        try oracle.compare(["--socks5", "ftp://\(socks)", url])  // a scheme libcurl refuses: exit 7
    }

    /// `--preproxy`: a SOCKS proxy reached first. Behind it an HTTP proxy resolves the name (nothing pinned); alone,
    /// it decides as `-x` would; without a scheme it is of `-x`'s type, so an HTTP proxy (libcurl 7.88's reading,
    /// whatever the man page says), and `--noproxy` skips it too.
    @Test func aPreproxyReachesTheProxyThroughSOCKS() throws {
        let url = lab.https("a.test"), proxyAddress = httpProxy.replacingOccurrences(of: "http://", with: "")
        let chained = try socksLog { try oracle.compare(["--preproxy", "socks5://\(socks)", "-x", httpProxy, "-w", format, url]) }
        #expect(chained == Array(repeating: "socks5 address \(proxyAddress) -> 127.0.0.7", count: 2), "\(chained)")
        let verbose = try oracle.ours(["-v", "--preproxy", "socks5://\(socks)", "-x", httpProxy, "-w", "%{dns_source}", url])
        #expect(verbose.status == 0 && verbose.stdout.hasSuffix("proxy") && !verbose.stderr.contains("* RESOLVE"), "\(verbose.stderr)")
        #expect(verbose.stderr.contains("* HTTPDNS a.test: the proxy given with -x resolves this name; nothing is pinned\n"))
        let alone = try socksLog {
            try oracle.compare(["--preproxy", "socks5h://\(socks)", "-w", format, url])
            try oracle.compare(["--preproxy", "socks5://\(socks)", "-w", format, url])
        }
        #expect(alone.count == 4 && alone[0].hasPrefix("socks5 name a.test") && alone[2].hasPrefix("socks5 address 127.0.0.2"), "\(alone)")
        let pinned = try oracle.ours(["-v", "--preproxy", "socks5://\(socks)", url])
        #expect(pinned.stderr.contains("the SOCKS proxy given with --preproxy is sent the pinned address") && pinned.stderr.contains("* RESOLVE"))
        try oracle.compare(["--preproxy", socks, "-x", httpProxy, "-w", format, url])  // an HTTP proxy: 56
        try oracle.compare(["--preproxy", "socks5://127.0.0.1:9", "--noproxy", "a.test", "-w", format, url])
        // Another SOCKS proxy in -x: the pre-proxy takes its place, as the later one in libcurl's one SOCKS slot.
        let replaced = try socksLog { try oracle.compare(["--socks5", "127.0.0.1:9", "--preproxy", "socks4://\(socks)", "-w", format, url]) }
        #expect(replaced.count == 2 && replaced.allSatisfy { $0.hasPrefix("socks4 address 127.0.0.2") }, "\(replaced)")
    }

    /// The authenticating listener wants username/password (or the user id, for SOCKS4), and chooses GSS-API when
    /// offered only that: `--socks5-basic` and `--socks5-gssapi` reach libcurl (exit 0 against 97), and the
    /// GSS-API settings, which need a KDC the lab lacks, end as curl's do.
    @Test func socks5AuthenticationMethodsAsCurl() throws {
        let url = lab.https("a.test")
        let lines = try socksLog {
            try oracle.compare(["--socks5-hostname", "\(user)@\(socksAuth)", "-w", format, url])
            try oracle.compare(["-U", user, "--socks5", socksAuth, "--socks5-basic", "-w", format, url])
            try oracle.compare(["-x", "socks4a://\(socksAuth)", "-U", user, "-w", format, url])
        }
        #expect(lines.filter { $0.hasSuffix("user labuser -> 127.0.0.2") }.count == 6, "\(lines)")
        // No credentials: 97 for both. Which method libcurl 7.88.1 falls to (and so its message) depends on when the
        // proxy's choice arrives, as below, so only the codes and the output compare.
        let (bare, curlBare) = (try oracle.ours(["-sS", "--socks5-hostname", socksAuth, "-w", format, url]),
                                try oracle.theirs(["-sS", "--socks5-hostname", socksAuth, "-w", format, url]))
        #expect(bare.status == 97 && curlBare.status == 97 && bare.stdout == curlBare.stdout, "\(bare.stderr) \(curlBare.stderr)")
        try oracle.compare(["-U", "labuser:wrong", "--socks5-hostname", socksAuth, "-w", format, url])
        // GSS-API alone is offered, and fails without a KDC: 97 for both. libcurl 7.88.1's message depends on whether
        // the proxy's choice arrived within its first call (a local flag it does not keep), so only the codes compare.
        let gssapi = ["-U", user, "--socks5-hostname", socksAuth, "--socks5-gssapi"]
        for extra in [[], ["--socks5-gssapi-service", "sockd"], ["--socks5-gssapi-nec", "--proxy-service-name", "sockd/proxy.test"]] {
            let (mine, curls) = (try oracle.ours(["-sS"] + gssapi + extra + [url]), try oracle.theirs(["-sS"] + gssapi + extra + [url]))
            #expect(mine.status == 97 && curls.status == 97, "\(extra): \(mine.stderr) \(curls.stderr)")
        }
        try oracle.compare(gssapi + ["--no-socks5-gssapi", "--socks5-basic", "-w", format, url])
    }

    /// No name reaches the system resolver unannounced through a SOCKS proxy: under a hosts file that sends a.test
    /// to 127.0.0.3, each SOCKS option (and a pre-proxy) reaches a.test's own certificate, and the proxy is given
    /// the name or the pinned address, never the hosts file's; curl beside it, without a pin, gives the proxy the
    /// hijacked address.
    @Test(.enabled(if: getuid() == 0, "needs root for a private mount namespace"),
          arguments: [["--socks4", "S"], ["--socks4a", "S"], ["--socks5", "S"], ["--socks5-hostname", "S"],
                      ["--preproxy", "socks5://S", "-x", "P"], ["--preproxy", "socks5://S"]])
    func noSOCKSOptionLetsTheSystemResolveTheName(shape: [String]) throws {
        let arguments = shape.map { $0 == "S" ? socks : $0 == "socks5://S" ? "socks5://\(socks)" : $0 == "P" ? httpProxy : $0 }
        let url = lab.https("a.test")
        let lines = try socksLog {
            let result = try inHijackedNamespace([ipcurlBinary(), "--no-fallback", "--doh", lab.dohURL, "--cacert", lab.ca, "-sS"]
                                                 + arguments + ["-o", "/dev/null", "-w", "%{http_code}", url])
            #expect(result.status == 0 && result.stdout == "200", "\(arguments): \(result.stderr)")
        }
        let expected = arguments.contains("-x") ? "address \(httpProxy.dropFirst("http://".count))"
            : ["--socks4a", "--socks5-hostname"].contains(arguments[0]) ? "name a.test:" : "address 127.0.0.2:"
        #expect(lines.count == 1 && lines[0].contains(expected) && !lines.joined().contains("127.0.0.3"), "\(arguments): \(lines)")
        let hijacked = try socksLog {
            let curl = try inHijackedNamespace(["/usr/bin/curl", "-sS", "--cacert", lab.ca, "--socks5", socks, url])
            #expect(curl.status == 60, "the hosts file's address serves another name: \(curl.stderr)")
        }
        #expect(hijacked.count == 1 && hijacked[0].hasPrefix("socks5 address 127.0.0.3:"), "\(hijacked)")
    }

    /// A proxy named by a host name is looked up by the system resolver, which ipcurl says under `--no-fallback`
    /// (docs/resolution.md): under a hosts file that sends proxy.test to 127.0.0.9, where nothing listens, the
    /// warning names the proxy and the transfer goes where the hosts file says (exit 7); a `--resolve` entry pins the
    /// proxy's name instead, the lab proxy answers and nothing is warned.
    @Test(.enabled(if: getuid() == 0, "needs root for a private mount namespace"))
    func aNamedProxyIsLookedUpByTheSystemResolverAndSaysSo() throws {
        let port = try #require(httpProxy.split(separator: ":").last.map(String.init))
        let named = "http://proxy.test:\(port)", url = lab.https("a.test")
        let base = [ipcurlBinary(), "--no-fallback", "--doh", lab.dohURL, "--cacert", lab.ca, "-x", named, "-w", format, "-o", "/dev/null"]
        let hosts = "127.0.0.9 proxy.test\n"
        let unpinned = try inHijackedNamespace(base + ["-v", url], extraHosts: hosts)
        #expect(unpinned.status == 7, "\(unpinned.stderr)")
        #expect(unpinned.stderr.contains("ipcurl: warning: proxy proxy.test given with -x, for the requests: its name is looked up by "
                                         + "the system resolver despite --no-fallback; pin it with --resolve proxy.test:\(port):ADDRESS "
                                         + "or give the proxy by IP address\n"), "\(unpinned.stderr)")
        #expect(unpinned.stderr.contains("Trying 127.0.0.9:\(port)..."), "the hosts file's address is the one tried: \(unpinned.stderr)")
        let pinned = try inHijackedNamespace(base + ["--resolve", "proxy.test:\(port):127.0.0.7", url], extraHosts: hosts)
        #expect(pinned.status == 0 && pinned.stdout == "200 127.0.0.7\n", "\(pinned.stderr)")
        #expect(!pinned.stderr.contains("warning"), "\(pinned.stderr)")
    }
}
