#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@testable import IPCurlCore
import Testing

/// `ipcurl exporter --config.file`: blackbox_exporter 0.23's configuration file, read by ``ExporterConfig``.
@Suite struct ExporterConfigTests {
    /// The resolver keys an operator's file may say (the CLI passes every resolver row with operator trust).
    static let resolverKeys: [String: ResolverOptionKind] = [
        "doh": .value, "aliyun": .value, "httpdns-secret-file": .value, "httpdns-server": .value, "resolver-cmd": .value,
        "cacert": .value, "resolve": .values, "no-fallback": .flag, "dns-timeout": .value,
    ]

    static func decode(_ text: String) throws(ExporterConfigError) -> ExporterConfig {
        try ExporterConfig.decode(text: Array(text.utf8), path: "bb.yml", resolverOptions: resolverKeys)
    }

    /// The error `text` gives, as the exporter prints it; `nil` when it loads.
    static func failure(_ text: String) -> String? {
        do {
            _ = try decode(text)
            return nil
        } catch {
            return error.description
        }
    }

    /// A file of `Tests/Fixtures/blackbox`.
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/blackbox/\(name)").path
    }

    /// The one http module of `http: {HTTP}`.
    static func http(_ block: String) throws -> HTTPProbeModule {
        let config = try decode("modules:\n  m:\n    prober: http\n    http: \(block)\n")
        return try #require(config.modules["m"]?.http)
    }

    // MARK: blackbox_exporter's own files

    @Test func debiansBlackboxYmlLoadsWithAWarningPerModuleOfAnotherProber() throws {
        let path = Self.fixture("debian-blackbox.yml")
        let config = try ExporterConfig.load(path: path, resolverOptions: Self.resolverKeys)
        #expect(config.moduleNames == ["http_2xx", "http_post_2xx", "tcp_connect", "pop3s_banner", "grpc", "grpc_plain",
                                       "ssh_banner", "irc_banner", "icmp", "icmp_ttl5"])
        #expect(config.modules.count == config.moduleNames.count)
        let http2xx = try #require(config.modules["http_2xx"]?.http)
        #expect(http2xx.method == "GET" && http2xx.validStatusCodes.isEmpty && http2xx.followRedirects)
        #expect(config.modules["http_post_2xx"]?.http?.method == "POST")
        #expect(config.modules["icmp_ttl5"]?.prober == "icmp")
        #expect(config.modules["icmp_ttl5"]?.timeoutSeconds == 5)
        #expect(config.modules["icmp_ttl5"]?.http == nil)
        let others = config.moduleNames.filter { config.modules[$0]?.prober != "http" }
        #expect(config.warnings.count == others.count)
        #expect(config.warnings.first == "\(path):9:13: module \"tcp_connect\" uses prober tcp, which ipcurl exporter does not run; its probes answer 400")
        #expect(config.warnings.last == "\(path):46:13: module \"icmp_ttl5\" uses prober icmp, which ipcurl exporter does not run; its probes answer 400")
    }

    @Test func blackboxsExampleYmlLoadsWithItsValues() throws {
        let path = Self.fixture("example.yml")
        let config = try ExporterConfig.load(path: path, resolverOptions: Self.resolverKeys)
        #expect(config.moduleNames.count == 16)
        let example = try #require(config.modules["http_2xx_example"])
        #expect(example.timeoutSeconds == 5)
        let http = try #require(example.http)
        #expect(http.validHTTPVersions == ["HTTP/1.1", "HTTP/2.0"])
        #expect(http.validStatusCodes.isEmpty)
        #expect(http.headers.map(\.name) == ["Host", "Accept-Language", "Origin"])
        #expect(http.headers.map(\.value) == ["vhost.example.com", "en-US", "example.com"])
        #expect(http.followRedirects)  // no_follow_redirects: false
        #expect(!http.failIfSSL && !http.failIfNotSSL)
        #expect(http.failIfBodyMatches == ["Could not connect to database"])
        #expect(http.failIfBodyNotMatches == ["Download the latest version here"])
        #expect(http.failIfHeaderMatches == [HeaderMatch(header: "Set-Cookie", regexp: ".*", allowMissing: true)])
        #expect(http.failIfHeaderNotMatches == [HeaderMatch(header: "Access-Control-Allow-Origin", regexp: #"(\*|example\.com)"#,
                                                            allowMissing: false)])
        #expect(http.tls == TLSSettings())
        #expect(http.preferredIPProtocol == .ip4 && !http.ipProtocolFallback)

        let post = try #require(config.modules["http_post_2xx"]?.http)
        #expect(post.method == "POST" && post.body == "{}")
        #expect(post.headers.map { "\($0.name): \($0.value)" } == ["Content-Type: application/json"])
        let basic = try #require(config.modules["http_basic_auth_example"]?.http)
        #expect(basic.basicAuth == BasicAuthSettings(username: "username", password: "mysecret", passwordFile: nil))
        #expect(basic.headers.map(\.value) == ["login.example.com"])
        #expect(config.modules["http_custom_ca_example"]?.http?.tls.caFile == "/certs/my_cert.crt")
        #expect(config.modules["http_gzip"]?.http?.method == "GET")
        #expect(config.modules["dns_soa"]?.prober == "dns")

        #expect(config.warnings.filter { $0.contains("is not supported") } == [
            "\(path):34:7: module \"http_with_proxy\": \"proxy_url\" is not supported by ipcurl exporter; ignored",
            "\(path):35:7: module \"http_with_proxy\": \"skip_resolve_phase_with_proxy\" is not supported by ipcurl exporter; ignored",
            "\(path):64:7: module \"http_gzip\": \"compression\" is not supported by ipcurl exporter; ignored",
            "\(path):69:7: module \"http_gzip_with_accept_encoding\": \"compression\" is not supported by ipcurl exporter; ignored",
        ])
        #expect(config.warnings.contains(
            "\(path):13:7: module \"http_2xx_example\": \"no_follow_redirects\" is deprecated (blackbox_exporter replaces it with \"follow_redirects\"); read as follow_redirects: true"))
        let others = config.moduleNames.filter { config.modules[$0]?.prober != "http" }
        #expect(config.warnings.filter { $0.contains("which ipcurl exporter does not run") }.count == others.count)
        #expect(config.warnings.count == 4 + 1 + others.count)
    }

    // MARK: values

    @Test func anHTTPModuleWithoutSettingsHasBlackboxsDefaults() throws {
        for block in ["", "http:", "http: {}"] {
            let config = try Self.decode("modules:\n  http_2xx:\n    prober: http\n    \(block)\n")
            let module = try #require(config.modules["http_2xx"])
            #expect(module.prober == "http" && module.timeoutSeconds == nil)
            let http = try #require(module.http)
            #expect(http.validStatusCodes.isEmpty && http.validHTTPVersions.isEmpty)
            #expect(http.method == "GET" && http.headers.isEmpty && http.body == nil)
            #expect(!http.failIfSSL && !http.failIfNotSSL)
            #expect(http.failIfBodyMatches.isEmpty && http.failIfBodyNotMatches.isEmpty)
            #expect(http.failIfHeaderMatches.isEmpty && http.failIfHeaderNotMatches.isEmpty)
            #expect(http.followRedirects)
            #expect(http.tls == TLSSettings(caFile: nil, certFile: nil, keyFile: nil, insecureSkipVerify: false,
                                            serverName: nil, minVersion: nil, maxVersion: nil))
            #expect(http.basicAuth == nil && http.bearerToken == nil && http.httpdns == nil)
            #expect(http.preferredIPProtocol == .ip6 && http.ipProtocolFallback)
            #expect(config.warnings.isEmpty)
        }
    }

    @Test func everyImplementedKeyIsRead() throws {
        let config = try Self.decode("""
            modules:
              full:
                prober: http
                timeout: 1m30s
                http:
                  valid_status_codes: [200, 204, 301]
                  valid_http_versions: [HTTP/1.1]
                  method: HEAD
                  headers: {X-B: 2, X-A: one, Empty: }
                  body: payload
                  fail_if_ssl: true
                  fail_if_not_ssl: false
                  fail_if_body_matches_regexp: [a+, '\\d{3}']
                  fail_if_body_not_matches_regexp: [ok]
                  fail_if_header_matches: [{header: Server, regexp: nginx}]
                  fail_if_header_not_matches: [{header: X-Id, regexp: '^\\w+$', allow_missing: true}]
                  follow_redirects: false
                  tls_config:
                    ca_file: /etc/ca.pem
                    cert_file: /etc/c.pem
                    key_file: /etc/k.pem
                    insecure_skip_verify: true
                    server_name: api.test
                    min_version: TLS12
                    max_version: TLS13
                  bearer_token: t0ken
                  preferred_ip_protocol: ip4
                  ip_protocol_fallback: false
                  httpdns: {doh: 'https://127.0.0.1:8443/dns-query', all_ips: true, compare_system: true}

            """)
        #expect(config.warnings.isEmpty)
        let module = try #require(config.modules["full"])
        #expect(module.timeoutSeconds == 90)
        let http = try #require(module.http)
        #expect(http.validStatusCodes == [200, 204, 301])
        #expect(http.validHTTPVersions == ["HTTP/1.1"])
        #expect(http.method == "HEAD")
        #expect(http.headers.map { "\($0.name)=\($0.value)" } == ["X-B=2", "X-A=one", "Empty="])
        #expect(http.body == "payload")
        #expect(http.failIfSSL && !http.failIfNotSSL)
        #expect(http.failIfBodyMatches == ["a+", #"\d{3}"#] && http.failIfBodyNotMatches == ["ok"])
        #expect(http.failIfHeaderMatches == [HeaderMatch(header: "Server", regexp: "nginx", allowMissing: false)])
        #expect(http.failIfHeaderNotMatches == [HeaderMatch(header: "X-Id", regexp: #"^\w+$"#, allowMissing: true)])
        #expect(!http.followRedirects)
        #expect(http.tls == TLSSettings(caFile: "/etc/ca.pem", certFile: "/etc/c.pem", keyFile: "/etc/k.pem",
                                        insecureSkipVerify: true, serverName: "api.test", minVersion: .tls1_2, maxVersion: .tls1_3))
        #expect(http.bearerToken == "t0ken" && http.basicAuth == nil)
        #expect(http.preferredIPProtocol == .ip4 && !http.ipProtocolFallback)
        let httpdns = try #require(http.httpdns)
        #expect(httpdns.allIPs && httpdns.compareSystem)
        #expect(httpdns.resolverArguments == [ResolverArgument(option: "--doh", value: "https://127.0.0.1:8443/dns-query",
                                                              line: 29, column: 22)])
    }

    @Test func goDurationsReadAsGoReadsThem() {
        let valid: [(String, Double)] = [
            ("5s", 5), ("1m30s", 90), ("500ms", 0.5), (".5s", 0.5), ("1.s", 1), ("+5s", 5), ("1.5h", 5400),
            ("1h2m3.5s4ms5us6ns", 3723.504005006), ("2\u{B5}s", 2e-6), ("3\u{3BC}s", 3e-6), ("0", 0), ("-1s", -1),
            ("2562047h", 9_223_369_200),
        ]
        for (text, seconds) in valid {
            let parsed = GoDuration.seconds(text)
            #expect(parsed.map { abs($0 - seconds) < 1e-9 } == true, "\(text) → \(String(describing: parsed))")
        }
        for text in ["", "1", "1d", "s", ".s", "5s5", "5S", "1 s", "-", "+", "1e3s", "2562048h", "9223372037s", "5sec"] {
            #expect(GoDuration.seconds(text) == nil, "\(text) read as a duration")
        }
    }

    @Test func aTimeoutOfZeroIsNoTimeoutAsInBlackbox() throws {
        for timeout in ["\"0\"", "0s", "\"-0\"", ""] {
            let config = try Self.decode("modules:\n  m:\n    prober: http\n    timeout: \(timeout)\n")
            #expect(config.modules["m"]?.timeoutSeconds == nil, "timeout: \(timeout)")
        }
        #expect(try Self.decode("modules:\n  m:\n    prober: tcp\n    timeout: 250ms\n").modules["m"]?.timeoutSeconds == 0.25)
    }

    @Test func noFollowRedirectsWinsOverFollowRedirectsAsInBlackbox() throws {
        #expect(try !Self.http("{follow_redirects: true, no_follow_redirects: true}").followRedirects)
        #expect(try Self.http("{no_follow_redirects: false, follow_redirects: false}").followRedirects)
    }

    @Test func theHTTPDNSBlockTakesResolverKeysWithOperatorTrust() throws {
        let http = try Self.http("""
            {httpdns: {aliyun: "12345", httpdns_secret_file: /etc/ipcurl/secret, httpdns-server: 127.0.0.5,
                    resolver_cmd: /usr/local/bin/resolve, cacert: /etc/ca.pem, resolve: [a.test:443:127.0.0.2, b.test:443:127.0.0.3],
                    no_fallback: true, dns_timeout: 2}}
            """)
        let httpdns = try #require(http.httpdns)
        #expect(!httpdns.allIPs && !httpdns.compareSystem)
        #expect(httpdns.resolverArguments.map { [$0.option, $0.value ?? "-"].joined(separator: " ") } == [
            "--aliyun 12345", "--httpdns-secret-file /etc/ipcurl/secret", "--httpdns-server 127.0.0.5",
            "--resolver-cmd /usr/local/bin/resolve", "--cacert /etc/ca.pem", "--resolve a.test:443:127.0.0.2",
            "--resolve b.test:443:127.0.0.3", "--no-fallback -", "--dns-timeout 2",
        ])
        #expect(httpdns.resolverArguments.first.map { [$0.line, $0.column] } == [4, 30])
    }

    @Test func goRE2PatternsCompileWithRE2Classes() throws {
        // RE2's one-letter Unicode class, which Swift spells \p{L}.
        #expect(try ExporterRegex.compile(#"^\pL+$"#).firstMatch(in: "été") != nil)
        #expect(try ExporterRegex.compile(#"[\PN]"#).firstMatch(in: "1a") != nil)
        #expect(try ExporterRegex.compile(#"\\pL"#).firstMatch(in: #"\pL"#) != nil)  // an escaped backslash stays one
        // \d, \s, \w and \b are ASCII in RE2; . is one code point, not one grapheme.
        #expect(try ExporterRegex.compile(#"\d"#).firstMatch(in: "٣") == nil)
        #expect(try ExporterRegex.compile(#"\s"#).firstMatch(in: "\u{A0}") == nil)
        #expect(try ExporterRegex.compile(#"\w"#).firstMatch(in: "é") == nil)
        #expect(try ExporterRegex.compile(#"\bé"#).firstMatch(in: " é") == nil)
        #expect(try ExporterRegex.compile("^.$").firstMatch(in: "e\u{301}") == nil)
        #expect(try ExporterRegex.compile("^..$").firstMatch(in: "e\u{301}") != nil)
        // RE2's $ without (?m) is the end of the text only.
        #expect(try ExporterRegex.compile("ok$").firstMatch(in: "ok\n") == nil)
        #expect(try ExporterRegex.compile("(?m)ok$").firstMatch(in: "ok\n") != nil)
        #expect(try Self.http(#"{fail_if_body_matches_regexp: ['\pL']}"#).failIfBodyMatches == [#"\pL"#])
    }

    // MARK: files

    @Test func loadReadsAFileAndNamesItInErrors() throws {
        var template = Array("/tmp/ipcurl-exporter-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        let text = Array("modules:\n  m:\n    prober: htp\n".utf8)
        #expect(write(descriptor, text, text.count) == text.count)
        close(descriptor)
        #expect(throws: ExporterConfigError(path: path, line: 3, column: 13,
                                            message: "module \"m\": unknown prober \"htp\" (expected one of: http, tcp, icmp, dns, grpc)")) {
            try ExporterConfig.load(path: path, resolverOptions: Self.resolverKeys)
        }
        #expect(throws: ExporterConfigError(path: path + ".missing", line: 0, column: 0,
                                            message: "cannot read: No such file or directory")) {
            try ExporterConfig.load(path: path + ".missing", resolverOptions: Self.resolverKeys)
        }
    }

    @Test func anEndlessFileIsRefusedPastItsFirst16MiB() {
        #expect(throws: ExporterConfigError(path: "/dev/zero", line: 0, column: 0,
                                            message: "larger than 16 MiB, the most a configuration file may hold")) {
            try ExporterConfig.load(path: "/dev/zero", resolverOptions: Self.resolverKeys)
        }
    }

    /// docs/exporter.md's table of keys blackbox knows and ipcurl ignores holds exactly ``ExporterSchema``'s.
    @Test func theExporterPageListsEveryIgnoredKey() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/exporter.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `") && $0.contains("| ignored") }
        let keys = rows.compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) }
        #expect(keys == ExporterSchema.ignoredHTTPKeys.map(\.key))
    }
}
