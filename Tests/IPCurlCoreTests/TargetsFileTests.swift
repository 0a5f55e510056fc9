#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(Fuzzing) @testable import IPCurlCore
import Testing

@Suite struct TargetsFileTests {
    static let options: [String: ResolverOptionKind] = [
        "doh": .value, "doh-json": .value, "aliyun": .value, "dnspod-id": .value, "resolve": .values,
        "no-fallback": .flag, "dns-timeout": .value, "cacert": .value, "ipv4": .flag,
    ]

    private func parse(_ text: String) throws(TargetsFileError) -> TargetsFile {
        try TargetsFile.parse(text, path: "t.yaml", resolverOptions: Self.options)
    }

    /// The error `text` gives, as the CLI prints it; `nil` when it parses.
    private func failure(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    /// The expectation of the only target in `expect: {EXPECT}`.
    private func expectation(_ expect: String) throws -> IPCurlCore.Expectation {
        let file = try parse("targets:\n  - url: https://a.test/\n    expect: \(expect)\n")
        return try #require(file.targets.first).expect
    }

    /// Writes `bytes` to a new temporary file and returns its path.
    private func temporaryFile(_ bytes: [UInt8]) -> String {
        var template = Array("/tmp/ipcurl-targets-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        #expect(descriptor >= 0)
        #expect(write(descriptor, bytes, bytes.count) == bytes.count)
        close(descriptor)
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static let example = """
        defaults: { all_ips: true, method: GET, headers: {X-Probe: ci}, expect: { status: 200, min_cert_days: 14 } }
        resolver: { doh: https://dns.example/dns-query }
        labels: { vantage: ci-shanghai, region: cn_east }
        targets:
          - name: api                       # optional; defaults to the url
            url: https://api.example.com/health
            method: POST
            headers: { X-Probe: ci, Accept: application/json }
            body: "{\\"ping\\": 1}"
            all_ips: false
            expect: { status: [200, 204], body_contains: ok, max_time_ms: 800 }
          - url: https://www.example.com/
            expect:
              status: 2xx
              body_matches: 'Example \\d+'
              headers: { Content-Type: text/html }
              tls_min: 1.2
              http_version: 2

        """

    static let exampleJSON = """
        {
          "defaults": {
            "all_ips": true,
            "method": "GET",
            "headers": {"X-Probe": "ci"},
            "expect": {"status": 200, "min_cert_days": 14}
          },
          "resolver": {"doh": "https://dns.example/dns-query"},
          "labels": {"vantage": "ci-shanghai", "region": "cn_east"},
          "targets": [
            {
              "name": "api",
              "url": "https://api.example.com/health",
              "method": "POST",
              "headers": {"X-Probe": "ci", "Accept": "application/json"},
              "body": "{\\"ping\\": 1}",
              "all_ips": false,
              "expect": {"status": [200, 204], "body_contains": "ok", "max_time_ms": 800}
            },
            {
              "url": "https://www.example.com/",
              "expect": {
                "status": "2xx",
                "body_matches": "Example \\\\d+",
                "headers": {"Content-Type": "text/html"},
                "tls_min": 1.2,
                "http_version": "2"
              }
            }
          ]
        }

        """

    @Test func theFullExampleDecodes() throws {
        let file = try parse(Self.example)
        var defaultExpect = IPCurlCore.Expectation()
        defaultExpect.status = StatusSet(parsing: "200")
        defaultExpect.minCertDays = 14
        #expect(file.defaults == TargetDefaults(allIPs: true, expect: defaultExpect, method: "GET", headers: ["X-Probe: ci"]))
        #expect(file.resolverArguments == [ResolverArgument(option: "--doh", value: "https://dns.example/dns-query", line: 2, column: 18)])
        #expect(file.labels.map(\.name) == ["vantage", "region"])
        #expect(file.labels.map(\.value) == ["ci-shanghai", "cn_east"])

        var api = CheckTarget(url: "https://api.example.com/health", name: "api")
        api.method = "POST"
        api.headers = ["X-Probe: ci", "Accept: application/json"]
        api.body = #"{"ping": 1}"#
        api.expect.status = StatusSet([200...200, 204...204])
        api.expect.bodyContains = ["ok"]
        api.expect.maxTimeMS = 800
        var www = CheckTarget(url: "https://www.example.com/")
        www.headers = ["X-Probe: ci"]
        www.allIPs = true
        www.expect.status = StatusSet([200...299])
        www.expect.bodyMatches = #"Example \d+"#
        www.expect.headers = [HeaderExpectation(name: "Content-Type", value: "text/html")]
        www.expect.tlsMin = .tls1_2
        www.expect.httpVersion = "2"
        #expect(file.targets == [api, www])
    }

    @Test(arguments: ["  ", "    ", "\t"])
    func prettyPrintedJSONDecodesLikeTheYAML(indent: String) throws {
        let json = Self.exampleJSON.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let depth = line.prefix(while: { $0 == " " }).count / 2
            return String(repeating: indent, count: depth) + line.drop(while: { $0 == " " })
        }.joined(separator: "\n")
        let yaml = try parse(Self.example), decoded = try parse(json)
        #expect(decoded.targets == yaml.targets)
        #expect(decoded.defaults == yaml.defaults)
        #expect(decoded.labels.map(\.name) == yaml.labels.map(\.name))
        #expect(decoded.labels.map(\.value) == yaml.labels.map(\.value))
        #expect(decoded.resolverArguments.map(\.option) == ["--doh"])
        #expect(decoded.resolverArguments.map(\.value) == ["https://dns.example/dns-query"])
    }

    @Test func compactJSONDecodes() throws {
        let file = try parse(#"{"targets":[{"url":"https://a.test/","expect":{"status":"200,204"}}]}"#)
        #expect(file.targets.first?.expect.status == StatusSet([200...200, 204...204]))
    }

    @Test func targetsFallBackToTheDefaults() throws {
        let file = try parse("""
            defaults: { method: HEAD, headers: { X-A: "1" }, all_ips: true, expect: { status: 204 } }
            targets:
              - url: https://a.test/
              - { url: https://b.test/, method: GET, headers: { X-B: 2 }, all_ips: false }
            """)
        #expect(file.targets.map(\.method) == ["HEAD", "GET"])
        #expect(file.targets.map(\.headers) == [["X-A: 1"], ["X-B: 2"]])
        #expect(file.targets.map(\.allIPs) == [true, false])
        #expect(file.targets.map(\.expect) == [IPCurlCore.Expectation(), IPCurlCore.Expectation()], "a target keeps only its own expect")
        let plain = try parse("targets: [{url: https://a.test/}]").targets[0]
        #expect(plain.allIPs == false && plain.method == "GET" && plain.headers.isEmpty && plain.name == "https://a.test/")
    }

    @Test func unknownKeysAreNamedWithTheAllowedOnes() {
        #expect(failure("targets:\n  - url: https://a.test/\n    timeout: 5\n")
            == #"t.yaml:3:5: unknown key "timeout" in target (expected one of: name, url, method, headers, body, all_ips, samples, max_failed_samples, retries, retry_interval, expect)"#)
        #expect(failure("target:\n  - url: https://a.test/\n")
            == #"t.yaml:1:1: unknown key "target" at the top level (expected one of: defaults, resolver, labels, targets)"#)
        #expect(failure("defaults: { body: x }\ntargets: [{url: https://a.test/}]")
            == #"t.yaml:1:13: unknown key "body" in defaults (expected one of: all_ips, method, headers, samples, max_failed_samples, retries, retry_interval, expect)"#)
        #expect(failure("targets: [{url: https://a.test/, expect: {code: 200}}]")?
            .hasPrefix(#"t.yaml:1:43: unknown key "code" in expect (expected one of: status, min_cert_days, max_time_ms,"#) == true)
    }

    @Test func retriesAndTheirIntervalFromDefaultsOrTheTarget() throws {
        let file = try parse("""
            defaults: { retries: 2, retry_interval: 500ms }
            targets:
              - { url: https://a.test/ }
              - { url: https://b.test/, retries: 0, retry_interval: 0.25 }
              - { url: https://c.test/, retry_interval: 2s }
              - { url: https://d.test/, retry_interval: 0 }
            """)
        #expect(file.targets.map(\.retries) == [2, 0, 2, 2])
        #expect(file.targets.map(\.retryIntervalMS) == [500, 250, 2000, 0])
        let plain = try parse("targets: [{url: https://a.test/}]").targets[0]
        #expect(plain.retries == 0 && plain.retryIntervalMS == CheckTarget.defaultRetryIntervalMS)
        for bad in ["-1", "101", "1.5", "x", "\"2\""] {
            #expect(failure("targets: [{url: https://a.test/, retries: \(bad)}]")
                == #"t.yaml:1:43: "retries" must be a whole number from 0 to 100"#, "\(bad)")
        }
        for bad in ["-1", "1d", "2h", "3601", "1.2.3", "'5'", "[1]", "."] {
            #expect(failure("targets: [{url: https://a.test/, retry_interval: \(bad)}]")
                == #"t.yaml:1:50: "retry_interval" must be seconds (0.5) or a duration (500ms, 2s) of at most 1h"#, "\(bad)")
        }
    }

    /// JSON has no bare duration: a targets file written as JSON (or by a JSON library) quotes `"500ms"` and may
    /// write a number with an exponent (Python writes 0.00005 as `5e-05`).
    @Test func retryIntervalAsAJSONDocumentWritesIt() throws {
        let file = try parse("""
            {"defaults": {"retry_interval": "500ms"},
             "targets": [{"url": "https://a.test/"}, {"url": "https://b.test/", "retry_interval": "2s"},
                         {"url": "https://c.test/", "retry_interval": 2.5e-1}, {"url": "https://d.test/", "retry_interval": 1E3}]}
            """)
        #expect(file.targets.map(\.retryIntervalMS) == [500, 2000, 250, 1_000_000])
        for bad in ["\"0.5\"", "\"\"", "\"-1s\"", "\"2h\"", "1e4", "1e", "e3", "-1e-3"] {
            #expect(failure("{\"targets\": [{\"url\": \"https://a.test/\", \"retry_interval\": \(bad)}]}")
                == #"t.yaml:1:59: "retry_interval" must be seconds (0.5) or a duration (500ms, 2s) of at most 1h"#, "\(bad)")
        }
    }

    @Test func missingURLEmptyOrMissingTargets() {
        #expect(failure("targets:\n  - name: api\n    method: GET\n") == #"t.yaml:2:5: missing key "url" in target"#)
        #expect(failure("labels: {a: b}\ntargets: []\n") == #"t.yaml:2:10: "targets" must be a non-empty list"#)
        #expect(failure("labels: {a: b}\ntargets:\n") == #"t.yaml:2:9: "targets" must be a non-empty list"#)
        #expect(failure("labels: {a: b}\n") == #"t.yaml:1:1: missing key "targets" (the list of targets to probe)"#)
        #expect(failure("") == #"t.yaml:1:1: the file holds no YAML or JSON document (it needs a "targets" list)"#)
        #expect(failure("# only a comment\n") == #"t.yaml:1:1: the file holds no YAML or JSON document (it needs a "targets" list)"#)
        #expect(failure("- url: https://a.test/\n") == #"t.yaml:1:1: the file must be a mapping with a "targets" list, not a list"#)
        #expect(failure("targets:\n  - https://a.test/\n")
            == #"t.yaml:2:5: each target must be a mapping with at least "url", not a scalar"#)
    }

    @Test func duplicateKeysAreRejectedAtTheSecond() {
        #expect(failure("targets:\n  - url: https://a.test/\n    url: https://b.test/\n")
            == #"t.yaml:3:5: duplicate key "url" (first at line 2, column 5)"#)
        #expect(failure("{\n  \"targets\": [{\"url\": \"https://a.test/\"}],\n  \"targets\": []\n}")
            == #"t.yaml:3:3: duplicate key "targets" (first at line 2, column 3)"#)
    }

    @Test func duplicateTargetNamesAreRejected() {
        #expect(failure("targets:\n  - {name: api, url: https://a.test/}\n  - {name: api, url: https://b.test/}\n")
            == #"t.yaml:3:12: duplicate target name "api" (first at line 2, column 12)"#)
        #expect(failure("targets:\n  - url: https://a.test/\n  - url: https://a.test/\n")
            == #"t.yaml:3:10: duplicate target name "https://a.test/" (first at line 2, column 10)"#)
        #expect(failure("targets:\n  - {name: \"\", url: https://a.test/}\n") == #"t.yaml:2:12: "name" must not be empty"#)
    }

    @Test func syntaxErrorsUseLibyamlsProblemAndMark() {
        #expect(failure("targets:\n  - url: https://a.test/\n  url: x\n")
            == "t.yaml:3:3: did not find expected '-' indicator (while parsing a block collection that starts at line 2, column 3)")
        #expect(failure("targets: [{url: https://a.test/}\n")
            == "t.yaml:2:1: did not find expected ',' or ']' (while parsing a flow sequence that starts at line 1, column 10)")
        #expect(failure("targets:\n  - url: \"https://a.test/\n")
            == "t.yaml:3:1: found unexpected end of stream (while scanning a quoted scalar that starts at line 2, column 10)")
        #expect(failure("targets:\n  - url: https://a.test/\n\tname: x\n")?.hasPrefix("t.yaml:3:1: found a tab character") == true)
        #expect(failure("targets: [{url: \"https://a.test/\u{1}\"}]") == "t.yaml:1:33: control characters are not allowed (#x1)")
    }

    @Test func tabsBeforeTheOpeningBraceAreASyntaxError() {
        #expect(failure("\t{\"targets\": [{\"url\": \"https://a.test/\"}]}")?
            .hasPrefix("t.yaml:1:1: found character that cannot start any token") == true)
    }

    @Test func anchorsAliasesTagsAndSecondDocumentsAreRefused() {
        #expect(failure("targets:\n  - &a {url: https://a.test/}\n") == "t.yaml:2:5: anchors (&a) are not supported")
        #expect(failure("targets:\n  - url: https://a.test/\n  - *a\n") == "t.yaml:3:5: aliases (*a) are not supported")
        #expect(failure("targets:\n  - url: !!str https://a.test/\n")
            == "t.yaml:2:10: tags (tag:yaml.org,2002:str) are not supported")
        #expect(failure("targets: [{url: https://a.test/}]\n---\ntargets: [{url: https://b.test/}]\n")
            == "t.yaml:2:1: the file holds more than one YAML document (only one is read)")
        #expect(failure("? [a]\n: b\n") == "t.yaml:1:3: mapping keys must be scalars, not lists")
        #expect(failure(String(repeating: "[", count: 70) + String(repeating: "]", count: 70))
            == "t.yaml:1:65: lists and mappings nest deeper than 64 levels")
    }

    @Test func booleansFollowTheYAML12CoreSchema() throws {
        for (text, value) in [("true", true), ("True", true), ("TRUE", true), ("false", false), ("False", false), ("FALSE", false)] {
            #expect(try parse("targets: [{url: https://a.test/, all_ips: \(text)}]").targets[0].allIPs == value)
        }
        #expect(failure("targets: [{url: https://a.test/, all_ips: yes}]")
            == #"t.yaml:1:43: "all_ips" must be true or false ("yes" is ambiguous in YAML)"#)
        #expect(failure("defaults: {all_ips: Off}\ntargets: [{url: https://a.test/}]")
            == #"t.yaml:1:21: "all_ips" must be true or false ("Off" is ambiguous in YAML)"#)
        #expect(failure("targets: [{url: https://a.test/, all_ips: \"true\"}]") == #"t.yaml:1:43: "all_ips" must be true or false"#)
        #expect(failure("targets: [{url: https://a.test/, all_ips: 1}]") == #"t.yaml:1:43: "all_ips" must be true or false"#)
    }

    @Test func statusForms() throws {
        #expect(try expectation("{status: 200}").status == StatusSet([200...200]))
        #expect(try expectation("{status: \"200\"}").status == StatusSet([200...200]))
        #expect(try expectation("{status: 2xx}").status == StatusSet([200...299]))
        #expect(try expectation("{status: 200-299}").status == StatusSet([200...299]))
        #expect(try expectation("{status: \"200,204\"}").status == StatusSet([200...200, 204...204]))
        #expect(try expectation("{status: [200, \"3xx\", 400-404]}").status == StatusSet([200...200, 300...399, 400...404]))
        let message = #""status" must be a status code, a class like 2xx, a range, or a list of them"#
        #expect(failure("targets: [{url: https://a.test/, expect: {status: [200, 2yy]}}]") == "t.yaml:1:57: " + message)
        #expect(failure("targets: [{url: https://a.test/, expect: {status: 999}}]") == "t.yaml:1:51: " + message)
        #expect(failure("targets: [{url: https://a.test/, expect: {status: []}}]") == "t.yaml:1:51: " + message)
        #expect(failure("targets: [{url: https://a.test/, expect: {status: {a: 1}}}]") == "t.yaml:1:51: " + message)
    }

    @Test func integersAreUnquotedDecimalsInRange() throws {
        #expect(try expectation("{min_cert_days: 0, max_time_ms: 1}").minCertDays == 0)
        #expect(try expectation("{max_time_ms: +250}").maxTimeMS == 250)
        let days = #""min_cert_days" must be a whole number of days from 0 to 100000"#
        #expect(try expectation("{min_cert_days: 100000}").minCertDays == 100_000, "the command line's upper bound")
        for bad in ["-1", "0x10", "0o7", "\"14\"", "1e3", "14.0", "100001", "99999999999999999999"] {
            #expect(failure("targets: [{url: https://a.test/, expect: {min_cert_days: \(bad)}}]") == "t.yaml:1:58: " + days)
        }
        #expect(failure("targets: [{url: https://a.test/, expect: {max_time_ms: 0}}]")
            == #"t.yaml:1:56: "max_time_ms" must be a whole number of milliseconds from 1 to 2147483647"#)
        // The command line's range: a limit is compared in microseconds, which a larger one would overflow.
        for key in ["max_time_ms", "p50_ms", "p95_ms", "p99_ms"] {
            #expect(try expectation("{\(key): 2147483647}") != IPCurlCore.Expectation(), "\(key)")
            #expect(failure("targets: [{url: https://a.test/, expect: {\(key): 2147483648}}]")?
                .hasSuffix(#""\#(key)" must be a whole number of milliseconds from 1 to 2147483647"#) == true, "\(key)")
        }
    }

    @Test func bodyMatchesMustCompileAndIsReportedAtItsValue() throws {
        #expect(try expectation(#"{body_matches: 'ok \d+'}"#).bodyMatches == #"ok \d+"#)
        let error = failure("targets:\n  - url: https://a.test/\n    expect:\n      body_matches: \"a(b\"\n")
        #expect(error?.hasPrefix(#"t.yaml:4:21: "body_matches" is not a valid regular expression: "#) == true)
        #expect(error?.contains("\n") == false)
    }

    @Test func bodyContainsTakesAStringOrAList() throws {
        #expect(try expectation("{body_contains: ok}").bodyContains == ["ok"])
        #expect(try expectation("{body_contains: [ok, 200, \"\"]}").bodyContains == ["ok", "200", ""])
        #expect(failure("targets: [{url: https://a.test/, expect: {body_contains: []}}]")
            == #"t.yaml:1:58: "body_contains" must be a string or a non-empty list of strings"#)
        #expect(failure("targets: [{url: https://a.test/, expect: {body_contains: [ok, ~]}}]")
            == #"t.yaml:1:63: "body_contains" must be a string, not null"#)
    }

    @Test func tlsAndHTTPVersions() throws {
        #expect(try expectation("{tls_min: 1.2}").tlsMin == .tls1_2)
        #expect(try expectation("{tls_min: \"1.3\"}").tlsMin == .tls1_3)
        #expect(try expectation("{tls_min: TLSv1.2}").tlsMin == .tls1_2)
        #expect(failure("targets: [{url: https://a.test/, expect: {tls_min: 1.4}}]")
            == #"t.yaml:1:52: "tls_min" must be a TLS version: 1.0, 1.1, 1.2 or 1.3"#)
        #expect(try expectation("{http_version: 1.1}").httpVersion == "1.1")
        #expect(try expectation("{http_version: 2}").httpVersion == "2")
        #expect(try expectation("{http_version: \"3\"}").httpVersion == "3")
        #expect(failure("targets: [{url: https://a.test/, expect: {http_version: 2.0}}]")
            == #"t.yaml:1:57: "http_version" must be one of 1.0, 1.1, 2, 3"#)
    }

    @Test func expectedHeadersKeepOrder() throws {
        let headers = try expectation("{headers: {Content-Type: text/html, X-Count: 3}}").headers
        #expect(headers == [HeaderExpectation(name: "Content-Type", value: "text/html"), HeaderExpectation(name: "X-Count", value: "3")])
    }

    @Test func urlsMethodsAndRequestHeadersAreChecked() throws {
        #expect(try parse("targets: [{url: HTTPS://A.test/}]").targets[0].url == "HTTPS://A.test/")
        #expect(failure("targets: [{url: ftp://a.test/}]") == #"t.yaml:1:17: "url" must start with http:// or https://"#)
        #expect(failure("targets: [{url: \"https://a.test/ b\"}]") == #"t.yaml:1:17: "url" must not contain spaces or control characters"#)
        #expect(failure("targets: [{url: [https://a.test/]}]") == #"t.yaml:1:17: "url" must be a string, not a list"#)
        #expect(failure("targets: [{url: https://a.test/, method: \"GE T\"}]")
            == #"t.yaml:1:42: "method" must be a method name such as GET (token characters only)"#)
        #expect(failure("targets: [{url: https://a.test/, headers: {\"X Probe\": ci}}]")
            == #"t.yaml:1:44: header name "X Probe" must be token characters only (no spaces or colons)"#)
        #expect(failure("targets: [{url: https://a.test/, headers: {X-Probe: \"a\\nb\"}}]")
            == #"t.yaml:1:53: the value of header "X-Probe" must not contain line breaks"#)
        #expect(failure("targets: [{url: https://a.test/, headers: {X-Probe: }}]")
            == #"t.yaml:1:53: the value of header "X-Probe" must be a string, not null"#)
    }

    @Test func resolverKeysBecomeOptions() throws {
        let file = try parse("""
            resolver:
              doh_json: https://dns.test/resolve
              no-fallback: true
              ipv4: false
              dns_timeout: 2.5
              resolve: [a.test:443:127.0.0.1, b.test:443:127.0.0.2]
              aliyun: 139450
            targets: [{url: https://a.test/}]
            """)
        #expect(file.resolverArguments == [
            ResolverArgument(option: "--doh-json", value: "https://dns.test/resolve", line: 2, column: 13),
            ResolverArgument(option: "--no-fallback", value: nil, line: 3, column: 16),
            ResolverArgument(option: "--dns-timeout", value: "2.5", line: 5, column: 16),
            ResolverArgument(option: "--resolve", value: "a.test:443:127.0.0.1", line: 6, column: 13),
            ResolverArgument(option: "--resolve", value: "b.test:443:127.0.0.2", line: 6, column: 35),
            ResolverArgument(option: "--aliyun", value: "139450", line: 7, column: 11),
        ])
        let single = try parse("resolver: {resolve: a.test:443:127.0.0.1}\ntargets: [{url: https://a.test/}]").resolverArguments
        #expect(single == [ResolverArgument(option: "--resolve", value: "a.test:443:127.0.0.1", line: 1, column: 21)])
    }

    @Test func resolverErrors() {
        #expect(failure("resolver: {dot: x}\ntargets: [{url: https://a.test/}]") == #"t.yaml:1:12: unknown key "dot" in resolver "#
            + "(expected one of: aliyun, cacert, dns-timeout, dnspod-id, doh, doh-json, ipv4, no-fallback, resolve)")
        #expect(failure("resolver: {doh-json: a, doh_json: b}\ntargets: [{url: https://a.test/}]")
            == #"t.yaml:1:25: duplicate key "doh_json" (the same as "doh-json" at line 1, column 12)"#)
        #expect(failure("resolver: {doh: [a, b]}\ntargets: [{url: https://a.test/}]") == #"t.yaml:1:17: "doh" must be a single value, not a list"#)
        #expect(failure("resolver: {resolve: [a, [b]]}\ntargets: [{url: https://a.test/}]")
            == #"t.yaml:1:25: "resolve" must be a single value, not a list"#)
        #expect(failure("resolver: {no_fallback: on}\ntargets: [{url: https://a.test/}]")
            == #"t.yaml:1:25: "no_fallback" must be true or false ("on" is ambiguous in YAML)"#)
    }

    @Test func refusedKeysAreErrorsThatSayWhatTheOptionDoes() {
        let options: [String: ResolverOptionKind] = ["doh": .value, "resolver-cmd": .refused("runs a program")]
        let refused = "resolver:\n  doh: https://dns.test/dns-query\n  resolver_cmd: /bin/sh\ntargets: [{url: https://a.test/}]"
        #expect(TargetsFileTests.failure(refused, options) == #"t.yaml:3:3: "resolver_cmd" runs a program: a targets file may not set it "#
            + "(give --resolver-cmd on the command line)")
        #expect(TargetsFileTests.failure("resolver: {dot: x}\ntargets: [{url: https://a.test/}]", options)
            == #"t.yaml:1:12: unknown key "dot" in resolver (expected one of: doh)"#, "a refused key is not offered")
    }

    @Test func aFileLargerThanItsCapIsRefusedWithoutAPosition() throws {
        let text = "targets: [{url: https://a.test/}]\n"
        #expect(try TargetsFile.decode(Array(text.utf8), path: "t.yaml", resolverOptions: [:], maximumBytes: text.utf8.count)
            .targets.count == 1)
        let error = #expect(throws: TargetsFileError.self) {
            try TargetsFile.decode(Array(text.utf8), path: "t.yaml", resolverOptions: [:], maximumBytes: text.utf8.count - 1)
        }
        #expect(error?.description == "t.yaml: larger than 33 bytes, the most a targets file may hold")
        #expect(TargetsFile.maximumBytes == 16 << 20)
        let path = temporaryFile(Array(text.utf8) + [UInt8](repeating: 0x20, count: TargetsFile.maximumBytes))
        defer { unlink(path) }
        let large = #expect(throws: TargetsFileError.self) { try TargetsFile.load(path: path, resolverOptions: [:]) }
        #expect(large?.description == "\(path): larger than 16 MiB, the most a targets file may hold")
    }

    /// The error `text` gives with `options` as the resolver keys; `nil` when it parses.
    private static func failure(_ text: String, _ options: [String: ResolverOptionKind]) -> String? {
        do {
            _ = try TargetsFile.parse(text, path: "t.yaml", resolverOptions: options)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func labelsKeepFileOrderAndMetricNames() throws {
        let labels = try parse("labels: {z: 1, a: two, _b: \"3\"}\ntargets: [{url: https://a.test/}]").labels
        #expect(labels.map(\.name) == ["z", "a", "_b"])
        #expect(labels.map(\.value) == ["1", "two", "3"])
        #expect(failure("labels: {ci-run: 1}\ntargets: [{url: https://a.test/}]")
            == #"t.yaml:1:10: label name "ci-run": a label name is letters, digits and _, not starting with a digit"#)
        #expect(failure("labels: {vantage: a, target: b}\ntargets: [{url: https://a.test/}]")?
            .hasPrefix(#"t.yaml:1:22: label name "target": the reports use "target" themselves"#) == true)
        #expect(failure("labels: [a]\ntargets: [{url: https://a.test/}]") == #"t.yaml:1:9: "labels" must be a mapping"#)
    }

    @Test func loadReadsAFile() throws {
        let path = temporaryFile(Array(Self.example.utf8))
        defer { unlink(path) }
        #expect(try TargetsFile.load(path: path, resolverOptions: Self.options).targets.count == 2)
    }

    @Test func unreadableFilesHaveNoPosition() {
        let missing = #expect(throws: TargetsFileError.self) {
            try TargetsFile.load(path: "/nonexistent/targets.yaml", resolverOptions: [:])
        }
        #expect(missing?.description == "/nonexistent/targets.yaml: cannot read: No such file or directory")
        #expect(missing?.line == 0 && missing?.column == 0)
        let directory = #expect(throws: TargetsFileError.self) { try TargetsFile.load(path: "/tmp", resolverOptions: [:]) }
        #expect(directory?.description == "/tmp: cannot read: Is a directory")
    }

    @Test func nonUTF8IsReportedWhereItStarts() {
        let path = temporaryFile(Array("targets:\n  - url: https://a.test/é".utf8) + [0xFF] + Array("\n".utf8))
        defer { unlink(path) }
        let error = #expect(throws: TargetsFileError.self) { try TargetsFile.load(path: path, resolverOptions: [:]) }
        #expect(error?.description == "\(path):2:26: the file is not valid UTF-8")
    }
}
