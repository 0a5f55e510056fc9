import Foundation
import Testing

/// `-x/--proxy`, `--noproxy`, `-U/--proxy-user`, how libcurl speaks to an HTTP proxy (`-p`, `--proxy-header`,
/// `--proxy1.0`, `--suppress-connect-headers`) and the proxy authentication options, through the lab's forward
/// proxy (127.0.0.7), compared with curl. Through a proxy the proxy resolves the name: ipcurl pins nothing and says
/// so with -v. The proxy's `CONNECT` answer lists what it was sent (`X-Proxy-Got`), which `-i` shows.
@Suite struct ProxyOptionTests: LabSuite {
    let fixture: LabFixture
    let proxy: String
    init() throws {
        fixture = try LabFixture()
        proxy = try fixture.lab.value("LAB_PROXY_URL")
    }

    /// A loopback port nothing listens on: a proxy there refuses (exit 7).
    let refusing = "http://127.0.0.1:9"
    let format = "%{http_code} %{http_connect}\n"

    @Test func throughTheProxyNothingIsPinned() throws {
        for url in [lab.https("a.test"), "http://a.test:\(lab.httpPort)/"] {
            try oracle.compare(["-x", proxy, "-w", format, url])
            let verbose = try oracle.ours(["-v", "-x", proxy, "-w", "%{dns_source}", url])
            #expect(verbose.status == 0 && verbose.stdout.hasSuffix("proxy"), "\(verbose.stderr)")
            #expect(verbose.stderr.contains("* HTTPDNS a.test: the proxy given with -x resolves this name; nothing is pinned\n"))
            #expect(!verbose.stderr.contains("* RESOLVE"))
        }
        try oracle.compare(["--proxy", refusing, lab.https("a.test")])
    }

    @Test func noProxyGoesDirectAndPins() throws {
        let url = lab.https("a.test")
        try oracle.compare(["-x", refusing, "--noproxy", "a.test", "-w", format, url])
        try oracle.compare(["-x", refusing, "--noproxy", "*", "-w", format, url])
        try oracle.compare(["-x", proxy, "--noproxy", "b.test,.test", "-w", format, url])
        let direct = try oracle.ours(["-v", "-x", refusing, "--noproxy", "a.test", "-w", "%{dns_source}", url])
        #expect(direct.status == 0 && direct.stdout.hasSuffix("doh") && direct.stderr.contains("* RESOLVE a.test:"))
        // --noproxy replaces no_proxy/NO_PROXY for the environment's proxies too; -x "" turns them off. Both are the
        // target's only: the DoH query (127.0.0.1) follows the environment, as curl's DoH transfers do.
        let dohDirect = ["https_proxy": refusing, "no_proxy": "127.0.0.1"]
        try oracle.compare(["--noproxy", "a.test", "-w", format, url], environment: dohDirect)
        try oracle.compare(["--noproxy", "", "-w", format, url], environment: ["https_proxy": proxy, "no_proxy": "a.test"])
        try oracle.compare(["-x", "", "-w", format, url], environment: dohDirect)
        let dohProxied = try oracle.ours(["--noproxy", "a.test", url], environment: ["https_proxy": refusing])
        #expect(dohProxied.status == 6, "the DoH query went to the environment's proxy: \(dohProxied.stderr)")
        try oracle.compare(["-w", format, url], environment: ["https_proxy": proxy, "no_proxy": "b.test", "NO_PROXY": "a.test"])
    }

    @Test func proxyCredentialsAreSentButNeverShown() throws {
        let authProxy = try lab.value("LAB_PROXY_AUTH_URL")
        let user = try String(contentsOfFile: try lab.value("LAB_PROXY_USER_FILE"), encoding: .utf8)
        let password = String(user.drop { $0 != ":" }.dropFirst())
        let url = lab.https("a.test")
        try oracle.compare(["-x", authProxy, "-w", format, url])  // 407: CONNECT refused, exit 56
        try oracle.compare(["-x", authProxy, "-U", "labuser:wrong", "-w", format, url])
        try oracle.compare(["-x", authProxy, "--proxy-user", user, "-w", format, url])
        try oracle.compare(["-x", authProxy, "-U", user, "-w", format, "http://a.test:\(lab.httpPort)/"])
        let verbose = try oracle.ours(["-v", "-x", authProxy, "-U", user, url])
        let encoded = Data(user.utf8).base64EncodedString()
        #expect(verbose.status == 0 && !verbose.stderr.contains(password) && !verbose.stderr.contains(encoded))
        #expect(verbose.stderr.contains("Proxy-Authorization: [redacted]") || verbose.stderr.contains("Proxy-Authorization: Basic [redacted]"))
        let prompt = try oracle.ours(["-x", authProxy, "-U", "labuser", url])
        #expect(prompt.status == 2, "ipcurl never prompts for a password")
    }

    /// `-i`'s output without nginx's `date:` line, which changes between two runs.
    func shown(_ run: Run) -> String {
        // "\r\n" is one Character: the header lines are split as scalars.
        run.stdout.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
            .filter { !$0.lowercased().hasPrefix("date:") }.joined(separator: "\n")
    }

    /// Runs both with `-i` (and `-A lab`, so both send one user agent) and expects the same exit code and output.
    @discardableResult
    func compareShown(_ arguments: [String]) throws -> Run {
        let mine = try oracle.ours(["-sS", "-i", "-A", "lab"] + arguments), curls = try oracle.theirs(["-sS", "-i", "-A", "lab"] + arguments)
        #expect(mine.status == curls.status && shown(mine) == shown(curls), "\(arguments): ipcurl \(mine.stdout) \(mine.stderr), curl \(curls.stdout)")
        return mine
    }

    @Test func proxytunnelConnectsEvenForPlainHTTP() throws {
        let url = "http://a.test:\(lab.httpPort)/"
        try oracle.compare(["-x", proxy, "-p", "-w", format, url])  // 200 200: a CONNECT first
        try oracle.compare(["-x", proxy, "--proxytunnel", "--no-proxytunnel", "-w", format, url])  // 200 000
        let tunnel = try compareShown(["-x", proxy, "--proxytunnel", url])
        #expect(tunnel.stdout.hasPrefix("HTTP/1.1 200 Connection established\r\nX-Proxy-Version: HTTP/1.1\r\n"), "\(tunnel.stdout)")
    }

    /// `--proxy-header` goes to the proxy only and `-H` to the host only (`CURLOPT_HEADEROPT` separate, as curl);
    /// `@FILE` gives one header a line; a credential in it is blanked from argv as `-H`'s is (ProcessListTests).
    @Test func proxyHeadersGoToTheProxyOnly() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/headers"
        try "X-From-File: 3\r\nX-Second: 4\n".write(toFile: file, atomically: true, encoding: .utf8)
        let url = lab.https("a.test", "/api/echo")
        let run = try compareShown(["-x", proxy, "--proxy-header", "X-Lab: 1", "-H", "X-Target: 2", "--proxy-header", "@" + file, url])
        let (connect, rest) = (run.stdout.components(separatedBy: "\r\n\r\n")[0], run.stdout.components(separatedBy: "\r\n\r\n").dropFirst().joined())
        #expect(connect.contains("X-Proxy-Got: x-lab=1\r\n") && connect.contains("X-Proxy-Got: x-from-file=3\r\nX-Proxy-Got: x-second=4"))
        #expect(!connect.contains("x-target") && rest.contains("\"x-target\":\"2\"") && !rest.contains("\"x-lab\":"), "\(run.stdout)")
        try compareShown(["-x", proxy, "--proxy-header", "User-Agent:", url])  // removed from the CONNECT
        try compareShown(["-x", proxy, "--proxy-header", "X-Lab: 1", "http://a.test:\(lab.httpPort)/api/echo"])
    }

    @Test func proxy10SpeaksHTTP10InItsConnect() throws {
        let address = String(proxy.dropFirst("http://".count))
        let run = try compareShown(["--proxy1.0", address, lab.https("a.test", "/api/echo")])
        #expect(run.stdout.contains("X-Proxy-Version: HTTP/1.0\r\n"), "\(run.stdout)")
        try oracle.compare(["-x", "http://127.0.0.1:9", "--proxy1.0", address, "-w", format, lab.https("a.test")])  // the last wins
    }

    @Test func suppressConnectHeadersLeavesTheConnectOutOfInclude() throws {
        let run = try compareShown(["-x", proxy, "--suppress-connect-headers", lab.https("a.test", "/api/echo")])
        #expect(run.status == 0 && run.stdout.hasPrefix("HTTP/2 200") && !run.stdout.contains("X-Proxy"), "\(run.stdout)")
        try compareShown(["-x", proxy, "--suppress-connect-headers", "--no-suppress-connect-headers", lab.https("a.test", "/api/echo")])
    }

    /// The authenticating proxy offers Basic and Digest: each method switch reaches libcurl (its log names what
    /// came), `--proxy-anyauth` picks Digest, and curl's precedence decides between switches given together. NTLM
    /// and Negotiate (no KDC in the lab) end as curl's do.
    @Test func proxyAuthenticationMethodsAsCurl() throws {
        let authProxy = try lab.value("LAB_PROXY_AUTH_URL")
        let user = try String(contentsOfFile: try lab.value("LAB_PROXY_USER_FILE"), encoding: .utf8)
        let url = lab.https("a.test")
        func logged(_ arguments: [String]) throws -> [String] {
            let log = try lab.value("LAB_PROXY_LOG")
            let before = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
            let run = try oracle.ours(["-sS", "-x", authProxy, "-U", user, "-w", format] + arguments + [url])
            #expect(run.status == 0 || arguments.contains("--proxy-ntlm") || arguments.contains("--proxy-negotiate"), "\(run.stderr)")
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: log)).dropFirst(before), as: UTF8.self)
            return text.split(separator: "\n").filter { $0.contains(": auth ") }.map { String($0.drop { $0 != ":" }.dropFirst(2)) }
        }
        for (arguments, method) in [(["--proxy-digest"], "digest"), (["--proxy-anyauth"], "digest"), (["--proxy-basic"], "basic"),
                                    (["--proxy-basic", "--proxy-digest"], "digest"), (["--proxy-anyauth", "--no-proxy-anyauth"], "basic"),
                                    (["--proxy-ntlm"], "ntlm")] {
            try oracle.compare(["-x", authProxy, "-U", user, "-w", format] + arguments + [url])
            // Other tests of the suite authenticate with Basic meanwhile; only this one sends Digest or NTLM.
            let seen = try logged(arguments)
            #expect(seen.contains { $0.hasPrefix("auth \(method)") } && (method != "basic" || !seen.contains { $0.hasPrefix("auth digest") }),
                    "\(arguments): \(seen)")
        }
        try oracle.compare(["-x", authProxy, "-U", "labuser:wrong", "--proxy-digest", "-w", format, url])  // 407: exit 56
        try oracle.compare(["-x", authProxy, "-U", user, "--proxy-digest", "-w", format, "http://a.test:\(lab.httpPort)/"])
        try oracle.compare(["-x", authProxy, "-U", user, "--proxy-negotiate", "-w", format, url])
        try oracle.compare(["-x", authProxy, "-U", user, "--proxy-negotiate", "--proxy-service-name", "HTTP/proxy.test", "-w", format, url])
    }
}
