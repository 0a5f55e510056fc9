import Foundation
import Testing

/// `-x/--proxy`, `--noproxy` and `-U/--proxy-user` through the lab's forward proxy (127.0.0.7), compared with curl.
/// Through a proxy the proxy resolves the name: ipcurl pins nothing and says so with -v.
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
}
