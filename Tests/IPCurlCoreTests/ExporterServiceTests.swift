import CurlKit
import HTTPDNS
@testable import IPCurlCore
import Testing

/// ``ExporterService``'s request rules, as blackbox_exporter's `Handler` applies them, before any probe runs; and
/// the pieces of a probe's metrics that need no network.
@Suite struct ExporterServiceTests {
    static func service(_ modules: [String: ExporterService.Module] = ["http_2xx": .init(prober: "http")]) -> ExporterService {
        ExporterService(modules: modules, resolver: ResolverSettings(), transport: TransportOptions())
    }

    @Test func anUnknownModuleIs400AndCounted() {
        let service = Self.service()
        let response = service.probe(query: [("target", "https://a.test/"), ("module", "nope")]) { _ in nil }
        #expect(response == .init(status: 400, contentType: "text/plain; charset=utf-8", body: "Unknown module \"nope\"\n"))
        #expect(service.metrics().body.contains("blackbox_module_unknown_total 1\n"))
    }

    @Test func aMissingTargetIs400() {
        let response = Self.service().probe(query: []) { _ in nil }
        #expect(response.status == 400 && response.body == "Target parameter is missing\n")
    }

    @Test func aModuleOfAnotherProberIs400NamingIt() {
        let response = Self.service(["icmp": .init(prober: "icmp")]).probe(query: [("target", "a.test"), ("module", "icmp")]) { _ in nil }
        #expect(response.status == 400 && response.body.contains("\"icmp\""), "\(response)")
    }

    @Test func hostnameAgainstAnotherHostHeaderIs400() {
        var http = BlackboxHTTPSettings()
        http.headers = [("Host", "b.test")]
        let response = Self.service(["http_2xx": .init(prober: "http", http: http)])
            .probe(query: [("target", "https://a.test/"), ("hostname", "c.test")]) { _ in nil }
        #expect(response.status == 400)
        #expect(response.body == "host header defined both in module configuration (b.test) and with URL-parameter 'hostname' (c.test)\n")
    }

    @Test(arguments: ["not-an-ip", "0.0.0.0", "ff02::1"])
    func anIPParameterThatIsNoUsableAddressIs400(_ text: String) {
        let response = Self.service().probe(query: [("target", "https://a.test/"), ("ip", text)]) { _ in nil }
        #expect(response.status == 400, "\(response)")
    }

    @Test func aScrapeTimeoutThatIsNoNumberIs500() {
        let response = Self.service().probe(query: [("target", "https://a.test/")]) { $0 == "X-Prometheus-Scrape-Timeout-Seconds" ? "soon" : nil }
        #expect(response.status == 500 && response.body.hasPrefix("Failed to parse timeout from Prometheus header"), "\(response)")
    }

    @Test(arguments: [
        (nil, nil, 119.5), ("10", nil, 9.5), ("10", 5.0, 5.0), ("10", 30.0, 9.5), ("0", nil, 119.5), ("0.2", nil, 0.0), ("0.2", 3.0, 3.0),
    ] as [(String?, Double?, Double)])
    func theTimeoutIsTheScrapeTimeoutLessTheOffsetOrTheModulesWhenShorter(_ header: String?, _ module: Double?, _ expected: Double) throws {
        let seconds = try ExporterService.timeoutSeconds(header: header, module: module, offset: 0.5).get()
        #expect(abs(seconds - expected) < 1e-9, "\(seconds)")
    }

    @Test func addressHashIsFNV32aOfTheAddressBytes() {
        // FNV-1a 32 of 127.0.0.1 (4 bytes) and of ::1 (16 bytes), computed independently.
        #expect(BlackboxProbe.addressHash(IPAddress("127.0.0.1")!) == Double(Self.fnv1a32([127, 0, 0, 1])))
        #expect(BlackboxProbe.addressHash(IPAddress("::1")!) == Double(Self.fnv1a32([UInt8](repeating: 0, count: 15) + [1])))
        #expect(Self.fnv1a32(Array("a".utf8)) == 0xe40c292c)  // the FNV reference vector
    }

    static func fnv1a32(_ bytes: [UInt8]) -> UInt32 {
        bytes.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
    }

    @Test func theRegistryWritesFamiliesByNameAndLabelsByName() {
        var registry = ProbeRegistry()
        registry.set("probe_success", 1, help: "s")
        registry.add("probe_http_duration_seconds", 0.25, labels: [("phase", "tls")], help: "d")
        registry.add("probe_http_duration_seconds", 0.5, labels: [("phase", "connect")], help: "d")
        registry.add("probe_http_duration_seconds", 0.25, labels: [("phase", "tls")], help: "d")
        registry.set("x_info", 1, labels: [("subject", "CN=a\"b"), ("issuer", "i")], help: "i")
        #expect(registry.text == """
            # HELP probe_http_duration_seconds d
            # TYPE probe_http_duration_seconds gauge
            probe_http_duration_seconds{phase="connect"} 0.5
            probe_http_duration_seconds{phase="tls"} 0.5
            # HELP probe_success s
            # TYPE probe_success gauge
            probe_success 1
            # HELP x_info i
            # TYPE x_info gauge
            x_info{issuer="i",subject="CN=a\\"b"} 1

            """)
    }

    @Test(arguments: [("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777), ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777),
                      ("Sun Nov  6 08:49:37 1994", 784_111_777)] as [(String, Int64)])
    func lastModifiedReadsTheThreeHTTPDateForms(_ text: String, _ seconds: Int64) {
        #expect(HTTPDate.seconds(text) == seconds)
    }

    @Test func goNameEscapingFollowsRFC2253() {
        #expect(PeerCertificate.escaped("a,b+c") == "a\\,b\\+c")
        #expect(PeerCertificate.escaped(" #lead ") == "\\ #lead\\ ")
        #expect(PeerCertificate.escaped("#x") == "\\#x")
    }

    @Test func quotingFollowsGoAndLogfmt() {
        #expect(ExporterService.goQuoted("a\u{1}b\"c\n") == "\"a\\x01b\\\"c\\n\"")
        #expect(ProbeLog.value("plain") == "plain")
        #expect(ProbeLog.value("two words") == "\"two words\"")
        #expect(ProbeLog.value("k=v") == "\"k=v\"")
        #expect(ProbeLog.value("") == "\"\"")
    }

    @Test func headerRulesFollowBlackbox() {
        var headers = ResponseHeaders()
        for line in ["HTTP/2 200\r\n", "server: nginx/1.22\r\n", "x-a: one\r\n", "x-a: two\r\n", "\r\n"] { headers.receive(line) }
        func passes(_ matching: [BlackboxHTTPSettings.HeaderRule], _ notMatching: [BlackboxHTTPSettings.HeaderRule]) -> Bool {
            var settings = BlackboxHTTPSettings()
            (settings.failIfHeaderMatches, settings.failIfHeaderNotMatches) = (matching, notMatching)
            var log = ProbeLog(module: "m", target: "t")
            return RegexRules.headersPass(headers, settings, log: &log)
        }
        #expect(!passes([.init(header: "Server", regexp: "nginx/1\\.2")], []))
        #expect(passes([.init(header: "Server", regexp: "apache")], []))
        #expect(passes([], [.init(header: "X-A", regexp: "^two$")]), "any value of a repeated header may match")
        #expect(!passes([], [.init(header: "X-A", regexp: "^three$")]))
        #expect(!passes([], [.init(header: "X-Missing", regexp: ".")]))
        #expect(passes([], [.init(header: "X-Missing", regexp: ".", allowMissing: true)]))
    }
}
