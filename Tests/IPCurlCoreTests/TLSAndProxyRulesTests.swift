import CurlKit
@testable import IPCurlCore
import Testing

/// curl's `-E` syntax, CA environment variables and proxy decision, as curl 7.88.1 and libcurl read them.
@Suite struct TLSAndProxyRulesTests {
    @Test func certificateArgumentSplitsAtTheFirstUnescapedColon() {
        #expect(ClientCertificateArgument.parse("client.pem") == ("client.pem", nil))
        #expect(ClientCertificateArgument.parse("client.p12:s3cret") == ("client.p12", "s3cret"))
        #expect(ClientCertificateArgument.parse("client.p12:a:b") == ("client.p12", "a:b"))
        #expect(ClientCertificateArgument.parse("c\\:d.pem:pw") == ("c:d.pem", "pw"))
        #expect(ClientCertificateArgument.parse("c\\\\d.pem") == ("c\\d.pem", nil))
        #expect(ClientCertificateArgument.parse("c\\xd.pem") == ("c\\xd.pem", nil))
        #expect(ClientCertificateArgument.parse("client.pem:") == ("client.pem", nil), "an empty password is none")
        #expect(ClientCertificateArgument.parse("pkcs11:token=a;object=b") == ("pkcs11:token=a;object=b", nil))
    }

    @Test func caVariablesInCurlsOrderOnlyWithoutExplicitTrust() {
        let all = ["CURL_CA_BUNDLE": "/bundle.pem", "SSL_CERT_DIR": "/certs", "SSL_CERT_FILE": "/file.pem"]
        func trust(_ options: TransportOptions, _ environment: [String: String]) -> (String?, String?) {
            let result = options.honoringCAEnvironment(lookup: { environment[$0] })
            return (result.caFile, result.caPath)
        }
        #expect(trust(TransportOptions(), all) == ("/bundle.pem", nil))
        #expect(trust(TransportOptions(), all.merging(["CURL_CA_BUNDLE": ""]) { $1 }) == (nil, "/certs"), "empty is unset")
        #expect(trust(TransportOptions(), ["SSL_CERT_FILE": "/file.pem"]) == ("/file.pem", nil))
        #expect(trust(TransportOptions(caFile: "/mine.pem"), all) == ("/mine.pem", nil))
        var capath = TransportOptions()
        capath.caPath = "/mine"
        #expect(trust(capath, all) == (nil, "/mine"))
        #expect(trust(TransportOptions(insecure: true), all) == (nil, nil))
        #expect(trust(TransportOptions(), [:]) == (nil, nil))
    }

    private func route(_ scheme: String = "https", _ host: String = "a.test", settings: ProxySettings = ProxySettings(),
                       environment: [String: String] = [:]) -> String? {
        ProxyEnvironment.route(scheme: scheme, host: host, settings: settings, lookup: { environment[$0] })?.decider.origin
    }

    @Test func environmentProxiesAsLibcurlReadsThem() {
        #expect(route("http", environment: ["HTTP_PROXY": "p:1"]) == nil, "never upper-case HTTP_PROXY")
        #expect(route("http", environment: ["http_proxy": "p:1"]) == "$http_proxy")
        #expect(route(environment: ["https_proxy": "p:1", "HTTPS_PROXY": "p:2"]) == "$https_proxy")
        #expect(route(environment: ["HTTPS_PROXY": "p:2", "all_proxy": "p:3"]) == "$HTTPS_PROXY")
        #expect(route(environment: ["https_proxy": "", "all_proxy": "p:3", "ALL_PROXY": "p:4"]) == "$all_proxy")
        #expect(route(environment: ["ALL_PROXY": "p:4", "no_proxy": "a.test"]) == nil)
        #expect(route(environment: ["ALL_PROXY": "p:4", "no_proxy": "b.test", "NO_PROXY": "a.test"]) == "$ALL_PROXY",
                "no_proxy is read first")
        #expect(route(environment: ["ALL_PROXY": "p:4", "no_proxy": "", "NO_PROXY": "a.test"]) == nil)
    }

    @Test func commandLineProxyAndNoProxyWin() {
        let env = ["https_proxy": "p:1", "no_proxy": "*"]
        #expect(route(settings: ProxySettings(url: "http://x:3128"), environment: [:]) == "-x")
        #expect(route(settings: ProxySettings(url: "http://x:3128"), environment: env) == nil, "no_proxy applies to -x")
        #expect(route(settings: ProxySettings(url: "http://x:3128", noProxy: "other.test"), environment: env) == "-x")
        #expect(route(settings: ProxySettings(noProxy: ""), environment: env) == "$https_proxy", "--noproxy '' replaces no_proxy")
        #expect(route(settings: ProxySettings(url: ""), environment: ["https_proxy": "p:1"]) == nil, "-x '' turns proxies off")
        #expect(route(settings: ProxySettings(noProxy: "a.test"), environment: ["https_proxy": "p:1"]) == nil)
    }

    @Test func socksWithLocalResolutionKeepsThePin() {
        func resolves(_ proxy: String) -> Bool? {
            ProxyEnvironment.route(scheme: "https", host: "a.test", settings: ProxySettings(url: proxy), lookup: { _ in nil })?
                .resolvesNames
        }
        #expect(resolves("proxy.test:3128") == true && resolves("https://p:443") == true)
        #expect(resolves("socks5h://p:1080") == true && resolves("socks4a://p:1080") == true)
        #expect(resolves("socks5://p:1080") == false && resolves("SOCKS4://p:1080") == false)
    }

    /// libcurl 7.88.1's `create_conn_helper_init_proxy` and `parse_proxy`: each proxy string takes the HTTP or the
    /// SOCKS slot by its type (its scheme, else the option's), the later of two for a slot wins, and an HTTP proxy
    /// behind a SOCKS one resolves the name.
    @Test func proxyTypesAndThePreproxyDecideWhoResolves() {
        func route(_ url: String?, _ type: ProxyType = .http, pre: String? = nil, environment: [String: String] = [:])
            -> (String, Bool, [String])? {
            var settings = ProxySettings(url: url)
            settings.type = type
            settings.origin = type == .http ? "-x" : "--opt"
            settings.preProxy = pre
            return ProxyEnvironment.route(scheme: "https", host: "a.test", settings: settings, lookup: { environment[$0] })
                .map { ($0.decider.origin, $0.resolvesNames, $0.locallyResolved.map(\.proxy)) }
        }
        #expect(route("p:1", .socks5)! == ("--opt", false, ["p:1"]))
        #expect(route("http://p:1", .socks5Hostname)! == ("--opt", true, ["http://p:1"]), "http:// takes the option's type")
        #expect(route("socks://p:1")!.1 == false, "socks:// is SOCKS4")
        #expect(route("h:1", pre: "socks5://s:1")! == ("-x", true, ["socks5://s:1", "h:1"]), "socks5 looks the proxy up locally")
        #expect(route("h:1", pre: "socks5h://s:1")! == ("-x", true, ["socks5h://s:1"]), "socks5h has the SOCKS proxy look it up")
        #expect(route(nil, pre: "socks5://s:1", environment: ["https_proxy": "e:1"])! == ("--preproxy", false, ["socks5://s:1"]),
                "a pre-proxy keeps the environment out")
        #expect(route(nil, pre: "", environment: ["https_proxy": "e:1"]) == nil, "even an empty one")
        #expect(route("h:1", pre: "s:1")! == ("--preproxy", true, ["s:1"]), "without a scheme, -x's type: the HTTP slot")
        #expect(route("s:1", .socks5, pre: "socks4a://t:1")! == ("--preproxy", true, ["socks4a://t:1"]), "the later SOCKS proxy wins")
        #expect(route("", pre: "socks5://s:1")! == ("--preproxy", false, ["socks5://s:1"]))
    }

    @Test func noProxyListMatchesAsLibcurl() {
        #expect(NoProxyList("*").matches("a.test"))
        #expect(!NoProxyList("a.test,*").matches("b.test"), "* only counts alone")
        #expect(NoProxyList("example.com").matches("www.Example.com") && NoProxyList(".example.com").matches("example.com"))
        #expect(!NoProxyList("example.com").matches("nonexample.com"))
        #expect(NoProxyList("example.com.").matches("example.com.") && NoProxyList(" b.test , a.test").matches("a.test"))
        #expect(NoProxyList("b.test a.test").matches("a.test"), "blanks separate too")
        #expect(NoProxyList("127.0.0.0/8").matches("127.1.2.3") && !NoProxyList("10.0.0.0/8").matches("127.1.2.3"))
        #expect(NoProxyList("127.0.0.1").matches("127.0.0.1") && !NoProxyList("127.0.0.1").matches("127.0.0.2"))
        #expect(!NoProxyList("127.0.0.0").matches("127.0.0.1"), "no bits: the exact address")
        #expect(NoProxyList("::1").matches("[::1]") && NoProxyList("fd00::/8").matches("fd12::1"))
        #expect(!NoProxyList("").matches("a.test") && !NoProxyList("a.test").matches(""))
    }
}
