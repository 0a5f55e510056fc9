@testable import IPCurlCore
import Testing

/// What ``ExporterConfig`` refuses (each at its `FILE:LINE:COL`) and what it loads with a warning.
extension ExporterConfigTests {
    /// `line` as the only line of module `m`'s `http:` block, at line 5, column 7.
    static func inHTTP(_ line: String) -> String { "modules:\n  m:\n    prober: http\n    http:\n      \(line)\n" }
    /// `mapping` as module `m`'s `http:` value, at line 4, column 11.
    static func httpFlow(_ mapping: String) -> String { "modules:\n  m:\n    prober: http\n    http: \(mapping)\n" }
    /// `value` as module `m`'s `timeout`, at line 4, column 14.
    static func timeout(_ value: String) -> String { "modules:\n  m:\n    prober: http\n    timeout: \(value)\n" }

    static let fileRefusals: [(String, String)] = [
        ("", #"1:1: the file holds no YAML document (it needs a "modules" mapping)"#),
        ("# nothing\n", #"1:1: the file holds no YAML document (it needs a "modules" mapping)"#),
        ("[]\n", #"1:1: the file must be a mapping with "modules", not a list"#),
        ("foo: 1\n", #"1:1: unknown key "foo" at the top level (expected one of: modules)"#),
        ("modules: [a]\n", #"1:10: "modules" must be a mapping of module names to modules, not a list"#),
        ("modules:\n  m: null\n", #"2:6: module "m": a module must be a mapping with "prober", not null"#),
        ("modules:\n  m:\n    timeout: 5s\n", #"3:5: module "m": missing key "prober" (one of: http, tcp, icmp, dns, grpc)"#),
        ("modules:\n  m:\n    prober: HTTP\n", #"3:13: module "m": unknown prober "HTTP" (expected one of: http, tcp, icmp, dns, grpc)"#),
        ("modules:\n  m:\n    prober: [http]\n", #"3:13: module "m": "prober" must be a string, not a list"#),
        ("modules:\n  m:\n    prober: http\n    http2: {}\n",
         #"4:5: module "m": unknown key "http2" in module (expected one of: prober, timeout, http, tcp, icmp, dns, grpc)"#),
        ("modules:\n  m:\n    prober: http\n    http: 5\n", #"4:11: module "m": "http" must be a mapping, not a scalar"#),
        ("modules:\n  t:\n    prober: tcp\n    tcp: [send]\n", #"4:10: module "t": "tcp" must be a mapping, not a list"#),
        ("modules:\n  m: &x\n    prober: http\n", "2:6: anchors (&x) are not supported"),
        ("modules:\n  m:\n    prober: !!str http\n", "3:13: tags (tag:yaml.org,2002:str) are not supported"),
        ("modules:\n  m:\n    prober: http\n    prober: tcp\n", #"4:5: duplicate key "prober" (first at line 3, column 5)"#),
        ("modules:\n  m: {prober: http}\n  m: {prober: tcp}\n", #"3:3: duplicate key "m" (first at line 2, column 3)"#),
    ]

    @Test(arguments: fileRefusals) func fileAndModuleMistakesAreRefusedAtTheirPlace(text: String, expected: String) {
        #expect(Self.failure(text) == "bb.yml:" + expected)
    }

    static let durationMessage = #"must be a Go duration such as 5s, 1m30s or 500ms (units ns, us, ms, s, m, h)"#
    static let timeoutRefusals: [(String, String)] = [
        ("5", #"not "5""#), ("0", #"not "0""#), ("1.5", #"not "1.5""#), ("\"5\"", #"not "5""#), ("1d", #"not "1d""#),
        ("5S", #"not "5S""#), ("1 s", #"not "1 s""#), ("2562048h", #"not "2562048h""#), ("[5s]", "not a list"),
    ]

    @Test(arguments: timeoutRefusals) func timeoutsThatAreNotGoDurationsAreRefused(value: String, what: String) {
        #expect(Self.failure(Self.timeout(value)) == #"bb.yml:4:14: module "m": "timeout" "# + Self.durationMessage + ", " + what)
    }

    @Test func aNegativeTimeoutIsRefused() {
        #expect(Self.failure(Self.timeout("-1s")) == #"bb.yml:4:14: module "m": "timeout" must not be negative"#)
    }

    static let httpLineRefusals: [(String, String)] = [
        ("fail_if_ssl: yes", #"5:20: module "m": "fail_if_ssl" must be true or false ("yes" is ambiguous in YAML)"#),
        ("fail_if_ssl: \"true\"", #"5:20: module "m": "fail_if_ssl" must be true or false"#),
        ("valid_status_codes: 200", #"5:27: module "m": "valid_status_codes" must be a list, not a scalar"#),
        ("valid_status_codes: [\"200\"]",
         #"5:28: module "m": each "valid_status_codes" entry must be an unquoted whole number from 100 to 999"#),
        ("valid_status_codes: [200, 99]",
         #"5:33: module "m": each "valid_status_codes" entry must be an unquoted whole number from 100 to 999"#),
        ("valid_http_versions: HTTP/1.1", #"5:28: module "m": "valid_http_versions" must be a list, not a scalar"#),
        ("method: \"GE T\"", #"5:15: module "m": "method" must be a method name such as GET (token characters only)"#),
        ("headers: {X: [a]}", #"5:20: module "m": the value of header "X" must be a string, not a list"#),
        ("headers: {\"X Y\": a}", #"5:17: module "m": header name "X Y" must be token characters only (no spaces or colons)"#),
        ("headers: {X: \"a\\nb\"}", #"5:20: module "m": the value of header "X" must not contain line breaks"#),
        ("fail_if_body_matches_regexp: [\"(x\"]",
         #"5:37: module "m": "fail_if_body_matches_regexp" is not a valid regular expression: expected ')'"#),
        ("fail_if_body_matches_regexp: 'x'", #"5:36: module "m": "fail_if_body_matches_regexp" must be a list, not a scalar"#),
        ("fail_if_body_not_matches_regexp: ['\\C']",
         #"5:41: module "m": "fail_if_body_not_matches_regexp" is not a valid regular expression: '\C' is not currently supported"#),
        ("fail_if_body_matches_regexp: [~]",
         #"5:37: module "m": each "fail_if_body_matches_regexp" entry must be a regular expression, not null"#),
        ("fail_if_header_matches: [{header: X}]", #"5:32: module "m": "regexp" must be set for HTTP header matchers"#),
        ("fail_if_header_matches: [{regexp: x}]", #"5:32: module "m": "header" must be set for HTTP header matchers"#),
        ("fail_if_header_not_matches: [{header: X, regexp: x, value: y}]",
         #"5:59: module "m": unknown key "value" in fail_if_header_not_matches (expected one of: header, regexp, allow_missing)"#),
        ("fail_if_header_matches: [{header: X, regexp: \"(\", allow_missing: true}]",
         #"5:52: module "m": "regexp" is not a valid regular expression: expected ')'"#),
        ("fail_if_header_matches: x", #"5:31: module "m": "fail_if_header_matches" must be a list, not a scalar"#),
        ("fail_if_header_matches: [x]",
         #"5:32: module "m": each "fail_if_header_matches" entry must be a mapping with "header" and "regexp", not a scalar"#),
        ("tls_config: {min_version: TLS1}", #"5:33: module "m": "min_version" must be one of TLS10, TLS11, TLS12, TLS13"#),
        ("tls_config: {min_version: TLS13, max_version: TLS12}",
         #"5:53: module "m": "min_version" TLS13 is above "max_version" TLS12"#),
        ("tls_config: {ca: x}", #"5:20: module "m": unknown key "ca" in tls_config (expected one of: ca_file, cert_file, key_file, server_name, insecure_skip_verify, min_version, max_version)"#),
        ("tls_config: x", #"5:19: module "m": "tls_config" must be a mapping, not a scalar"#),
        ("basic_auth: {username: u, password: p, password_file: /f}",
         #"5:46: module "m": at most one of basic_auth password & password_file must be configured"#),
        ("basic_auth: {user: u}", #"5:20: module "m": unknown key "user" in basic_auth (expected one of: username, password, password_file)"#),
    ]

    @Test(arguments: httpLineRefusals) func httpSettingsOfTheWrongTypeOrValueAreRefusedAtTheirPlace(line: String, expected: String) {
        #expect(Self.failure(Self.inHTTP(line)) == "bb.yml:" + expected)
    }

    static let httpMappingRefusals: [(String, String)] = [
        ("{bearer_token: t, basic_auth: {username: u}}",
         #"4:29: module "m": at most one of basic_auth, oauth2, bearer_token & bearer_token_file must be configured"#),
        ("{bearer_token: t, bearer_token_file: /f}",
         #"4:29: module "m": at most one of bearer_token & bearer_token_file must be configured"#),
        ("{authorization: {credentials: c}, basic_auth: {username: u}}",
         #"4:45: module "m": at most one of basic_auth, oauth2 & authorization must be configured"#),
        ("{bearer_token: t, authorization: {credentials: c}}",
         #"4:29: module "m": authorization is not compatible with bearer_token & bearer_token_file"#),
        ("{proxy_connect_header: {X: [y]}}",
         #"4:12: module "m": if proxy_connect_header is configured proxy_url must also be configured"#),
        ("{enable_http2: maybe}", #"4:26: module "m": "enable_http2" must be true or false"#),
        ("{oauth2: x}", #"4:20: module "m": "oauth2" must be a mapping, not a scalar"#),
        ("{httpdns: x}", #"4:21: module "m": "httpdns" must be a mapping, not a scalar"#),
        ("{httpdns: {all_ips: on}}", #"4:31: module "m": "all_ips" must be true or false ("on" is ambiguous in YAML)"#),
        ("{httpdns: {doh: x, doh: y}}", #"4:30: duplicate key "doh" (first at line 4, column 22)"#),
        ("{httpdns: {no-fallback: true, no_fallback: true}}",
         #"4:41: module "m": duplicate key "no_fallback" (the same as "no-fallback" at line 4, column 22)"#),
    ]

    @Test(arguments: httpMappingRefusals) func conflictingSettingsAreRefusedAsBlackboxRefusesThem(mapping: String, expected: String) {
        #expect(Self.failure(Self.httpFlow(mapping)) == "bb.yml:" + expected)
    }

    @Test func keysBlackboxDoesNotKnowAreRefusedListingTheKnownOnes() throws {
        // proxy_from_environment and no_proxy came with prometheus/common 0.42, after the one blackbox 0.23 is built with.
        for key in ["no_proxy: localhost", "proxy_from_environment: true", "http_client_config: {}", "timeout: 5s"] {
            let message = try #require(Self.failure(Self.inHTTP(key)))
            let name = String(key.prefix { $0 != ":" })
            #expect(message.hasPrefix("bb.yml:5:7: module \"m\": unknown key \"\(name)\" in http (expected one of: valid_status_codes, "))
            #expect(message.hasSuffix(", httpdns)"))
        }
        let message = try #require(Self.failure(Self.httpFlow("{httpdns: {foo: 1}}")))
        #expect(message == "bb.yml:4:22: module \"m\": unknown key \"foo\" in httpdns (expected one of: all_ips, compare_system, "
                + "aliyun, cacert, dns-timeout, doh, httpdns-secret-file, httpdns-server, no-fallback, resolve, resolver-cmd)")
    }

    // MARK: warnings

    @Test func everyKeyBlackboxKnowsAndIpcurlIgnoresLoadsWithOneWarning() throws {
        let config = try Self.decode("""
            modules:
              m:
                prober: http
                http:
                  enable_http2: false
                  compression: gzip
                  body_size_limit: 10MB
                  skip_resolve_phase_with_proxy: true
                  proxy_url: http://127.0.0.1:3128
                  proxy_connect_header: {X: [y]}
                  oauth2: {client_id: a, client_secret: b, token_url: 'http://127.0.0.1/t'}
              n:
                prober: http
                http:
                  authorization: {type: Bearer, credentials: c}
              o:
                prober: http
                http:
                  bearer_token_file: /etc/token

            """)
        let ignored = ["5:7 m enable_http2", "6:7 m compression", "7:7 m body_size_limit", "8:7 m skip_resolve_phase_with_proxy",
                       "9:7 m proxy_url", "10:7 m proxy_connect_header", "11:7 m oauth2", "15:7 n authorization",
                       "19:7 o bearer_token_file"]
        #expect(config.warnings == ignored.map { item in
            let parts = item.split(separator: " ")
            return "bb.yml:\(parts[0]): module \"\(parts[1])\": \"\(parts[2])\" is not supported by ipcurl exporter; ignored"
        })
        #expect(Set(ignored.map { String($0.split(separator: " ")[2]) }) == Set(ExporterSchema.ignoredHTTPKeys.map(\.key)))
        #expect(config.modules["m"]?.http?.method == "GET")
    }

    @Test func aModuleOfAnotherProberLoadsWithOneWarningAndItsBlocksUnread() throws {
        let config = try Self.decode("""
            modules:
              i:
                prober: icmp
                icmp: {ttl: 300, nonsense: 1}
                http: {anything: [1]}
              d:
                prober: dns

            """)
        #expect(config.warnings == [
            "bb.yml:3:13: module \"i\" uses prober icmp, which ipcurl exporter does not run; its probes answer 400",
            "bb.yml:7:13: module \"d\" uses prober dns, which ipcurl exporter does not run; its probes answer 400",
        ])
        #expect(config.modules["i"]?.prober == "icmp" && config.modules["i"]?.http == nil)
    }

    @Test func anotherProbersBlockInAnHTTPModuleLoadsWithAWarning() throws {
        let config = try Self.decode("modules:\n  m:\n    prober: http\n    tcp: {tls: true}\n    dns:\n")
        #expect(config.warnings == [#"bb.yml:4:5: module "m": "tcp" is read only by prober tcp; ignored"#])
    }

    @Test func aPreferredIPProtocolOtherThanIP6IsIP4AsInBlackbox() throws {
        let config = try Self.decode(Self.inHTTP("preferred_ip_protocol: ipv4"))
        #expect(config.modules["m"]?.http?.preferredIPProtocol == .ip4 && config.modules["m"]?.http?.preferredIPProtocolGiven == true)
        #expect(config.warnings == [
            #"bb.yml:5:30: module "m": "preferred_ip_protocol" is "ipv4", neither ip4 nor ip6: read as ip4, as blackbox_exporter reads it"#,
        ])
        let empty = try Self.decode(Self.inHTTP("preferred_ip_protocol: \"\""))
        #expect(empty.modules["m"]?.http?.preferredIPProtocol == .ip6 && empty.warnings.isEmpty)
        // Empty is not given: the command line's -4/-6 choose for such a module.
        #expect(empty.modules["m"]?.http?.preferredIPProtocolGiven == false)
    }

    @Test func aFileWithoutModulesLoadsWithAWarning() throws {
        for text in ["modules:\n", "modules: {}\n", "{}\n"] {
            let config = try Self.decode(text)
            #expect(config.modules.isEmpty && config.moduleNames.isEmpty)
            #expect(config.warnings == ["bb.yml:1:1: no modules: every probe answers 400 (Unknown module)"])
        }
    }

    @Test func warningsEscapeWhatTheFileSays() throws {
        let config = try Self.decode("modules:\n  \"a\\eb\":\n    prober: tcp\n")
        let warning = try #require(config.warnings.first)
        #expect(!warning.unicodeScalars.contains("\u{1B}"))
        #expect(warning.hasPrefix("bb.yml:3:13: module \"a"))
    }
}
