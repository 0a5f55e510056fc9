import CurlKit
import Foundation
import HTTPDNS
@testable import IPCurlCore
import Testing

/// What each provider's descriptor must keep byte for byte: the cache-key text (its digest names users' cache
/// files), the flag every setting's usage error names, and the `IPCURL_DNS` forms.
@Suite struct ProviderRegistryTests {
    private func key(_ provider: ProviderChoice, _ transport: TransportOptions = TransportOptions(),
                     _ change: (inout ResolverSettings) -> Void = { _ in }) -> String {
        var settings = ResolverSettings()
        settings.provider = provider
        change(&settings)
        return settings.providerConfiguration(transport)
    }

    @Test func cacheKeyTextIsUnchangedForEveryProviderAndMode() {
        #expect(key(ProviderChoice(.doh)) == "doh https://1.1.1.1/dns-query https://223.5.5.5/dns-query")
        #expect(key(ProviderChoice(.doh, ["https://u:p@127.0.0.1:9/dns-query?token=x", "https://b.test/q#f"]))
                == "doh https://127.0.0.1:9/dns-query https://b.test/q")
        #expect(key(ProviderChoice(.dohJSON, ["https://dns.google/resolve?ct=1"])) == "doh-json https://dns.google/resolve")
        #expect(key(ProviderChoice(.aliyun, ["139450"])) == "aliyun 139450 signed=false ")
        #expect(key(ProviderChoice(.aliyun, ["139450"])) {
            $0.aliyunSecret = Secret(value: "s", origin: "f")
            $0.httpdnsServers = ["http://127.0.0.1:9", "https://203.107.1.1"]
            $0.clientIP = IPAddress("10.0.0.1")
        } == "aliyun 139450 signed=true http://127.0.0.1:9 https://203.107.1.1 ecs 10.0.0.1")
        #expect(key(ProviderChoice(.dnspod)) == "dnspod plain ")
        #expect(key(ProviderChoice(.dnspod)) { $0.dnspodToken = Secret(value: "t", origin: "f") } == "dnspod token ")
        #expect(key(ProviderChoice(.dnspod, ["12"])) { $0.dnspodKey = Secret(value: "k", origin: "f") } == "dnspod id=12 aes ")
        #expect(key(ProviderChoice(.dnspod, ["12"])) {
            $0.dnspodAlgorithm = .des
            $0.httpdnsServers = ["http://119.29.29.98"]
            $0.clientIP = IPAddress("::1")
        } == "dnspod id=12 des http://119.29.29.98 ecs ::1")
        #expect(key(ProviderChoice(.command, ["/bin/my-dns --zone a"])) == "command /bin/my-dns --zone a")
        var trust = TransportOptions(caFile: "/nonexistent/ca.pem", insecure: true)
        trust.caPath = "/nonexistent/dir"
        #expect(key(ProviderChoice(.command, ["x"]), trust) == "command x insecure cacert=unreadable /nonexistent/ca.pem capath=unreadable /nonexistent/dir")
    }

    @Test func everySettingNamesItsFlag() {
        let flags: [(ResolutionError.Setting, String)] = [
            (.dohServer, "--doh"), (.dohJSONServer, "--doh-json"), (.vendorServer, "--httpdns-server"),
            (.aliyunAccount, "--aliyun"), (.bootServer, "--aliyun-boot-server"), (.dnspodID, "--dnspod-id"), (.dnspodKey, "--dnspod-key-file"),
            (.dnspodToken, "--dnspod-token-file"), (.resolverCommand, "--resolver-cmd"),
        ]
        #expect(flags.count + 1 == ResolutionError.Setting.allCases.count, "every setting but --resolve's")
        for (setting, flag) in flags {
            #expect(CurlError(ResolutionError.configuration(setting, value: "v", "why")).message == "\(flag) 'v': why")
        }
    }

    @Test func environmentMessageListsEveryForm() {
        do {
            _ = try ProviderChoice(environment: "system")
            Issue.record("accepted")
        } catch {
            let forms = ProviderDescriptor.all.flatMap(\.environment.texts)
            #expect(forms.starts(with: ["doh[:URL]", "doh-json:URL", "aliyun:ACCOUNT", "aliyun-v2:ACCOUNT", "dnspod[:ID]", "command:CMD"]))
            #expect(error.message == "IPCURL_DNS='system': expected " + ProviderDescriptor.alternatives(forms))
        }
    }

    @Test func serverNameNotesNameUnpinnedHostNamesOnly() {
        var settings = ResolverSettings()
        settings.provider = ProviderChoice(.aliyun, ["1"])
        settings.httpdnsServers = ["http://localhost:9", "https://203.107.1.1", "http://pinned.test:80"]
        settings.staticEntries = [ResolveEntry(host: "pinned.test", port: 80, addresses: [IPAddress("127.0.0.1")!])!]
        #expect(settings.serverNameNotes()
                == ["server http://localhost:9: its name is looked up by the system resolver (pin it with --resolve)"])
        settings.provider = ProviderChoice(.doh, ["https://dns.test/dns-query"])
        #expect(settings.serverNameNotes().count == 1)
        settings.provider = ProviderChoice(.command, ["x"])
        #expect(settings.serverNameNotes().isEmpty)
    }

    @Test func underNoFallbackNamedServersAndProxiesAreWarningsOtherwiseNotes() {
        var settings = ResolverSettings()
        settings.provider = ProviderChoice(.aliyun, ["1"])
        settings.httpdnsServers = ["http://localhost:9", "https://203.107.1.1"]
        let proxy = ProxyEnvironment.Hop(origin: "-x", proxy: "socks5://user:pw@proxy.test:1080", type: .socks5)
        #expect(settings.systemLookupWarnings().isEmpty && settings.proxyWarning(proxy, for: "requests", pinnable: true) == nil,
                "with the fallback on, the system resolver is announced as it is")
        settings.fallback = false
        #expect(settings.systemLookupWarnings() == ["HTTPDNS server http://localhost:9: its name is looked up by the system "
            + "resolver despite --no-fallback; pin it with --resolve localhost:9:ADDRESS or give the server by IP address"])
        #expect(settings.proxyWarning(proxy, for: "requests", pinnable: true) == "proxy proxy.test given with -x, for the requests: "
            + "its name is looked up by the system resolver despite --no-fallback; pin it with --resolve proxy.test:1080:ADDRESS "
            + "or give the proxy by IP address")
        let fromEnvironment = ProxyEnvironment.Hop(origin: "$https_proxy", proxy: "Proxy.test:3128", type: .http)
        #expect(settings.proxyWarning(fromEnvironment, for: "HTTPDNS queries", pinnable: false)
                == "proxy Proxy.test from $https_proxy, for the HTTPDNS queries: its name is looked up by the system resolver "
                + "despite --no-fallback; give the proxy by IP address")
        let noPort = ProxyEnvironment.Hop(origin: "-x", proxy: "http://proxy.test", type: .http)
        #expect(settings.proxyWarning(noPort, for: "requests", pinnable: true)?.contains("--resolve proxy.test:1080:ADDRESS") == true,
                "libcurl's default proxy port, not http's")
        #expect(settings.proxyWarning(ProxyEnvironment.Hop(origin: "-x", proxy: "http://127.0.0.7:3128", type: .http),
                                      for: "requests", pinnable: true) == nil, "an address needs no lookup")
        settings.staticEntries = [ResolveEntry(host: "proxy.test", port: 1080, addresses: [IPAddress("127.0.0.7")!])!]
        #expect(settings.proxyWarning(proxy, for: "requests", pinnable: true) == nil, "pinned by --resolve")
        #expect(settings.proxyWarning(fromEnvironment, for: "requests", pinnable: true) != nil, "a pin for another port")
        #expect(settings.proxyWarning(proxy, for: "HTTPDNS queries", pinnable: false) != nil, "where no pin applies")
    }

    @Test func givenFlagsChooseThroughTheRegistry() {
        func chosen(_ flags: [GivenFlag]) -> [ProviderChoice] { ProviderChoice.chosen(by: flags) }
        #expect(chosen([]).isEmpty)
        #expect(chosen([GivenFlag("--doh", value: "https://a/"), GivenFlag("--doh-url", value: "https://b/"),
                        GivenFlag("--doh", value: "https://c/")])
                == [ProviderChoice(.doh, ["https://a/", "https://b/", "https://c/"])])
        #expect(chosen([GivenFlag("--aliyun", value: "1"), GivenFlag("--aliyun", value: "2")]) == [ProviderChoice(.aliyun, ["2"])])
        #expect(chosen([GivenFlag("--dnspod", value: ""), GivenFlag("--dnspod", value: "", isOn: false)]).isEmpty)
        #expect(chosen([GivenFlag("--dnspod", value: "", isOn: false), GivenFlag("--dnspod-alg", value: "des")])
                == [ProviderChoice(.dnspod)])
        #expect(chosen([GivenFlag("--dnspod-key-file", value: "k"), GivenFlag("--dnspod-id", value: "5")])
                == [ProviderChoice(.dnspod, ["5"])])
        #expect(chosen([GivenFlag("--resolver-cmd", value: "x"), GivenFlag("--doh-json", value: "https://j/")]).map(\.flag)
                == ["--doh-json", "--resolver-cmd"], "registry order, not command-line order")
    }

    @Test func registryIsConsistent() {
        let kinds = ProviderDescriptor.all.map(\.kind)
        #expect(kinds.starts(with: [.doh, .dohJSON, .aliyun, .dnspod, .command]) && Set(kinds).count == kinds.count,
                "one descriptor per provider kind")
        #expect(kinds.allSatisfy { $0.isCacheable })
        for descriptor in ProviderDescriptor.all {
            #expect(descriptor.environment.word == descriptor.kind.rawValue)
            #expect(!descriptor.flagRows.isEmpty && descriptor.flags.starts(with: descriptor.flagRows.map(\.flag)),
                    "the flags begin with those the CLI makes rows of: \(descriptor.flags)")
            #expect(descriptor.flags.allSatisfy { flag in ProviderDescriptor.all.filter { $0.flags.contains(flag) }.count == 1 })
        }
        #expect(ProviderDescriptor.flags(accepting: "--httpdns-server") == "--aliyun or --dnspod")
        #expect(ProviderDescriptor.flags(accepting: "--httpdns-secret-file") == "--aliyun")
        #expect(ProviderDescriptor.alternatives(["a", "b", "c"]) == "a, b or c")
    }

    @Test func aKindIsAWordAnyFileMayDeclare() throws {
        #expect(ProviderKind.testOnly.rawValue == "test-only" && ProviderKind.testOnly.isCacheable)
        #expect(ProviderKind(rawValue: "doh-json") == .dohJSON && ProviderKind(rawValue: "static") == .staticEntry)
        for word in ["", "DoH", "do h", "doh\n", "dns/doh", String(repeating: "a", count: 33)] {
            #expect(ProviderKind(rawValue: word) == nil, "\(Printable.quoted(word))")
        }
        #expect([ProviderKind.staticEntry, .system, .cache].allSatisfy { !$0.isCacheable })
        let json = try JSONEncoder().encode([ProviderKind.dohJSON, .staticEntry, .testOnly])
        #expect(String(decoding: json, as: UTF8.self) == #"["doh-json","static","test-only"]"#)
        #expect(try JSONDecoder().decode([ProviderKind].self, from: json) == [.dohJSON, .staticEntry, .testOnly])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([ProviderKind].self, from: Data(#"["Not a kind"]"#.utf8)) }
    }
}

extension ProviderKind {
    /// A kind declared outside HTTPDNS, as a provider's resolver file declares its own.
    static let testOnly = ProviderKind("test-only")
}
