import Foundation
import Testing

/// Alibaba Cloud HTTPDNS v2 (`--aliyun-api v2`) against the lab fixture: plain, CBC and GCM queries, batching,
/// and the usage errors of its options.
@Suite(.serialized) struct AliyunV2Tests: LabSuite {
    let fixture: LabFixture
    let http: String
    init() throws {
        fixture = try LabFixture()
        http = "http://\(try fixture.lab.value("LAB_HTTPDNS_IP")):\(try fixture.lab.value("LAB_HTTPDNS_HTTP_PORT"))"
    }

    /// The `/v2/d` requests the fixture logged for `name`.
    func v2Log(_ name: String) throws -> [[String: Any]] {
        let result = try run("/usr/bin/curl", ["-sS", "--noproxy", "*", http + "/_v2/log?name=" + name])
        let object = try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any] ?? [:]
        return (object["requests"] as? [[String: Any]] ?? []).filter { $0["path"] as? String == "/v2/d" }
    }

    /// `--aliyun-encryption WORD` with the lab's AES key file.
    func encryptionOptions(_ word: String) throws -> [String] {
        ["--aliyun-encryption", word, "--aliyun-aes-key-file", try lab.value("LAB_ALIYUN_AES_KEY_FILE")]
    }

    @Test(arguments: [[], ["--aliyun-encryption", "cbc"], ["--aliyun-encryption", "gcm"]])
    func resolveOfThreeNamesIsOneV2Query(_ encryption: [String]) throws {
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let names = ["a", "b", "c"].map { "\($0)-\(tag).any.test" }
        let key = encryption.isEmpty ? [] : ["--aliyun-aes-key-file", try lab.value("LAB_ALIYUN_AES_KEY_FILE")]
        let result = try ipcurl(["resolve", "--aliyun", try lab.value("LAB_ALIYUN_ACCOUNT"), "--aliyun-api", "v2",
                                 "--httpdns-server", http] + encryption + key + names)
        #expect(result.status == 0, "\(result.stderr)")
        for name in names { #expect(result.stdout.contains(name), "\(result.stdout)") }
        let requests = try v2Log(names[0])
        #expect(requests.count == 1, "\(requests)")
        let expectedMode: Int? = encryption.isEmpty ? nil : (encryption[1] == "cbc" ? 1 : 2)
        if let expectedMode {
            #expect(requests.first?["mode"] as? String == String(expectedMode) || requests.first?["mode"] as? Int == expectedMode,
                    "\(requests)")
            #expect(requests.allSatisfy { $0["names_in_clear"] as? Bool == false }, "\(requests)")
        }
        #expect(Set(requests.first?["names"] as? [String] ?? []) == Set(names), "\(requests)")
    }

    @Test(arguments: [
        ["--aliyun-encryption", "gcm"], ["--aliyun-api", "v3"], ["--aliyun-encryption", "rot13"],
        ["--aliyun-api", "v1", "--aliyun-encryption", "cbc", "--aliyun-aes-key-file", "/etc/hostname"],
    ])
    func inconsistentV2OptionsAreUsageErrors(_ options: [String]) throws {
        let result = try ipcurl(["--aliyun", "1"] + options + ["-s", "https://a.test/"])
        #expect(result.status == 2, "\(options): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test func encryptionWithoutAKeyNamesTheKeyOptions() throws {
        let result = try ipcurl(["--aliyun", "1", "--aliyun-api", "v2", "--aliyun-encryption", "cbc", "--httpdns-server", http,
                                 "https://a.test/"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--aliyun-aes-key-file"), "\(result.stderr)")
    }

    @Test(arguments: ["none", "cbc", "gcm"])
    func fetchOverTheV2TLSServerVerifiesItsName(_ encryption: String) throws {
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let name = "f-\(tag).any.test"
        let server = "https://\(try lab.value("LAB_HTTPDNS_IP")):\(try lab.value("LAB_HTTPDNS_ALIYUN_V2_TLS_PORT"))"
        let result = try ipcurl(["--aliyun", try lab.value("LAB_ALIYUN_SIGNED_ACCOUNT"), "--aliyun-api", "v2",
                                 "--aliyun-encryption", encryption, "--aliyun-aes-key-file", try lab.value("LAB_ALIYUN_AES_KEY_FILE"),
                                 "--httpdns-secret-file", try lab.value("LAB_ALIYUN_SECRET_FILE"),
                                 "--httpdns-server", server, "--cacert", lab.ca, "-sS", "-w", "%{http_code}", lab.https(name)])
        #expect(result.status == 0, "\(result.stderr)")
        // nginx's *.any.test vhost echoes the Host header and the SNI it received.
        #expect(result.stdout.hasPrefix("vhost=any.test host=\(name) sni=\(name) method=GET uri=/\n"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("\n200"), "\(result.stdout)")
        let requests = try v2Log(name)
        #expect(requests.count == 1, "\(requests)")
        #expect(requests.first?["sni"] as? String == "resolvers.httpdns.aliyuncs.com", "\(requests)")
        #expect(requests.first?["code"] as? String == nil || requests.first?["status"] as? Int == 200, "\(requests)")
        if encryption != "none" { #expect(requests.allSatisfy { $0["names_in_clear"] as? Bool == false }, "\(requests)") }
    }

    @Test(arguments: ["none", "cbc", "gcm"])
    func wrongSecretIsExit6NamingInvalidSignatureAfterOneQuery(_ encryption: String) throws {
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let name = "w-\(tag).any.test"
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("v2-wrong-\(tag)").path
        try writePrivateFile("00112233445566778899aabbccddeeff", to: secret)
        defer { try? FileManager.default.removeItem(atPath: secret) }
        let result = try ipcurl(["resolve", "--aliyun", try lab.value("LAB_ALIYUN_SIGNED_ACCOUNT"), "--aliyun-api", "v2",
                                 "--httpdns-secret-file", secret, "--httpdns-server", http, "--httpdns-server", http + "/",
                                 "--no-fallback"] + (try encryptionOptions(encryption)) + [name])
        #expect(result.status == 6, "\(result.stderr)")
        #expect(result.stderr.contains("InvalidSignature"), "\(result.stderr)")
        let requests = try v2Log(name)
        #expect(requests.count == 1, "\(requests)")
        #expect(requests.first?["mode"] as? String == ["none": "0", "cbc": "1", "gcm": "2"][encryption], "\(requests)")
    }

    @Test(arguments: ["none", "cbc", "gcm"])
    func lockedAccountWithoutASecretNamesUnsignedInterfaceDisabled(_ encryption: String) throws {
        let name = "u-\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).any.test"
        let result = try ipcurl(["resolve", "--aliyun", try lab.value("LAB_ALIYUN_SIGNED_ACCOUNT"), "--aliyun-api", "v2",
                                 "--httpdns-server", http, "--httpdns-server", http + "/", "--no-fallback"]
                                + (try encryptionOptions(encryption)) + [name])
        #expect(result.status == 6, "\(result.stderr)")
        #expect(result.stderr.contains("UnsignedInterfaceDisabled"), "\(result.stderr)")
        let requests = try v2Log(name)
        #expect(requests.count == 1, "\(requests)")
        #expect(requests.first?["mode"] as? String == ["none": "0", "cbc": "1", "gcm": "2"][encryption], "\(requests)")
    }

    @Test func environmentChoosesV2() throws {
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let name = "e-\(tag).any.test"
        let result = try ipcurl(["resolve", "--httpdns-server", http, name],
                                environment: ["IPCURL_DNS": "aliyun-v2:" + (try lab.value("LAB_ALIYUN_ACCOUNT"))])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try v2Log(name).count == 1)
    }

    @Test func v1AndV2AnswersAreCachedApart() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("v2-cache-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let name = "k-\(tag).any.test"
        let account = try lab.value("LAB_ALIYUN_ACCOUNT")
        let v1 = try ipcurl(["resolve", "--aliyun", account, "--httpdns-server", http, name], environment: ["IPCURL_CACHE_DIR": cache])
        let v2 = try ipcurl(["resolve", "-v", "--aliyun", account, "--aliyun-api", "v2", "--httpdns-server", http, name],
                            environment: ["IPCURL_CACHE_DIR": cache])
        #expect(v1.status == 0 && v2.status == 0, "\(v1.stderr) \(v2.stderr)")
        #expect(v2.stderr.contains("cache miss"), "\(v2.stderr)")
        #expect(try v2Log(name).count == 1)
    }

    /// b.test has no IPv6 address in the fixture (`no_ip_code` RRNotExist); localhost has none at all there
    /// (DomainNotExist) but is in `/etc/hosts`, so the system resolver answers it on loopback.
    @Test(arguments: ["none", "cbc", "gcm"])
    func aNameWithoutTheAskedFamilyFallsBackOrExits6(_ encryption: String) throws {
        let account = try lab.value("LAB_ALIYUN_ACCOUNT")
        let v2 = ["resolve", "--aliyun", account, "--aliyun-api", "v2", "--httpdns-server", http] + (try encryptionOptions(encryption))
        let strict = try ipcurl(v2 + ["-6", "--no-fallback", "b.test"])
        #expect(strict.status == 6)
        #expect(strict.stdout.isEmpty && strict.stderr.split(separator: "\n").count == 1, "\(strict.stdout)\(strict.stderr)")
        #expect(strict.stderr.hasPrefix("ipcurl: (6) Could not resolve host: b.test (") && strict.stderr.contains("no IPv6 address ('RRNotExist')")
                && !strict.stderr.contains("system"), "\(strict.stderr)")
        let before = try v2Log("localhost").count
        let fallback = try ipcurl(v2 + ["-4", "localhost"])
        #expect(fallback.status == 0, "\(fallback.stderr)")
        #expect(fallback.stdout == "localhost:443:127.0.0.1\n", "the system resolver's answer: \(fallback.stdout)")
        #expect(fallback.stderr == "ipcurl: warning: localhost: HTTPDNS gave no address (\(http): no IPv4 address ('DomainNotExist')); "
                + "using the system resolver\n", "\(fallback.stderr)")
        let queries = try v2Log("localhost").dropFirst(before)
        #expect(queries.count == 1, "\(queries)")
        let query = queries.first?["query"] as? String ?? ""
        if encryption == "none" {
            #expect(query.contains("q=4") && !query.contains("q=4%2C6") && !query.contains("q=4,6"), "\(query)")
        } else {
            #expect(!query.contains("localhost") && queries.first?["names_in_clear"] as? Bool == false, "\(query)")
        }
    }

    /// The secret and the AES key, from the environment, in none of: stdout and stderr under `-v`, a
    /// `--trace-ascii` file, the cache directory of a run with given servers and of a discovering run (every `.entry`
    /// and `.services` file), and a `check --format json -o` report; as hex in either case, or as the raw key bytes.
    @Test func secretAndAESKeyNeverAppearInOutput() throws {
        let secret = try String(contentsOfFile: try lab.value("LAB_ALIYUN_SECRET_FILE"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let key = try String(contentsOfFile: try lab.value("LAB_ALIYUN_AES_KEY_FILE"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let scratch = try TemporaryDirectory()
        let cache = scratch.path + "/cache", trace = scratch.path + "/trace", report = scratch.path + "/report.json"
        let environment = ["IPCURL_HTTPDNS_SECRET": secret, "IPCURL_ALIYUN_AES_KEY": key, "IPCURL_CACHE_DIR": cache]
        let account = try spareAccount(5)
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let server = "https://\(try lab.value("LAB_HTTPDNS_IP")):\(try lab.value("LAB_HTTPDNS_ALIYUN_V2_TLS_PORT"))"
        let v2 = ["--aliyun", account, "--aliyun-api", "v2", "--cacert", lab.ca, "--no-fallback"]
        let given = try ipcurl(v2 + ["--aliyun-encryption", "gcm", "--httpdns-server", server, "-v", "--trace-ascii", trace, "-i",
                                     lab.https("s1-\(tag).any.test")], environment: environment)
        let discovered = try ipcurl(v2 + ["--aliyun-encryption", "cbc", "--aliyun-boot-server", try bootServer(), "-v", "-sS",
                                          lab.https("s2-\(tag).any.test")], environment: environment)
        let checked = try ipcurl(["check"] + v2 + ["--httpdns-server", server, "--format", "json", "-o", report, "-v",
                                                   lab.https("s3-\(tag).any.test")], environment: environment)
        for (what, run) in [("given servers", given), ("discovery", discovered), ("check", checked)] {
            #expect(run.status == 0, "\(what): \(run.stderr)")
        }
        let files = try FileManager.default.subpathsOfDirectory(atPath: cache).map { cache + "/" + $0 }
            .filter { (try? FileManager.default.attributesOfItem(atPath: $0)[.type] as? FileAttributeType) == .typeRegular }
        #expect(files.filter { $0.hasSuffix(".entry") }.count >= 3, "an answer of each run is cached: \(files)")
        #expect(files.filter { $0.hasSuffix(".services") }.count == 1, "the discovered list is cached: \(files)")
        var outputs: [(String, Data)] = [given, discovered, checked].flatMap { [("stdout", $0.stdoutBytes), ("stderr", Data($0.stderr.utf8))] }
        for path in [trace, report] + files { outputs.append((path, try Data(contentsOf: URL(fileURLWithPath: path)))) }
        #expect(outputs.filter { [trace, report].contains($0.0) }.allSatisfy { !$0.1.isEmpty }, "the trace and the report were written")
        let needles: [Data] = try [secret, key].flatMap { hex in
            [Data(hex.uppercased().utf8), Data(hex.lowercased().utf8), Data(try #require(Self.bytes(ofHex: hex), "not hex: \(hex)"))]
        }
        for (place, data) in outputs {
            for needle in needles { #expect(data.range(of: needle) == nil, "leaked into \(place)") }
        }
    }

    /// The bytes `hex` spells, or `nil` when it is not an even number of hex digits.
    static func bytes(ofHex hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    /// The v2 examples of docs/check.md (a targets file's `resolver:`) and docs/resolution.md (`IPCURL_DNS`) work
    /// against the fixture with a lab account in place of theirs; `--httpdns-secret-file`'s help covers v2's signing.
    @Test func theDocumentedV2ExamplesWorkAndTheHelpCoversV2Signing() throws {
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let account = try spareAccount(6)
        let checkPage = try String(contentsOfFile: Lab.repoRoot + "/docs/check.md", encoding: .utf8)
        let resolverLine = try #require(checkPage.split(separator: "\n").first {
            $0.hasPrefix("resolver: { aliyun: \"") && $0.contains("aliyun-api: v2") && $0.contains("aliyun-encryption: gcm")
        }, "docs/check.md has no v2 targets-file example")
        let quoted = try Regex(#"aliyun: "[^"]*""#)
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/targets.yaml"
        let name = "x1-\(tag).any.test"
        try (String(resolverLine.replacing(quoted, with: "aliyun: \"\(account)\"")) + "\ntargets: [ { url: \"\(lab.https(name))\" } ]\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let checked = try ipcurl(["check", "--targets", path, "--cacert", lab.ca, "--no-fallback", "--aliyun-boot-server", try bootServer(),
                                  "--aliyun-aes-key-file", try lab.value("LAB_ALIYUN_AES_KEY_FILE")])
        #expect(checked.status == 0, "\(resolverLine): \(checked.stdout)\(checked.stderr)")
        #expect(try v2Log(name).map { $0["mode"] as? String } == ["2"])

        let resolutionPage = try String(contentsOfFile: Lab.repoRoot + "/docs/resolution.md", encoding: .utf8)
        let example = try #require(resolutionPage.firstMatch(of: try Regex(#"IPCURL_DNS=aliyun-v2:([0-9]+)"#)),
                                   "docs/resolution.md has no IPCURL_DNS=aliyun-v2: example")
        #expect(example.output[1].substring?.isEmpty == false)
        let other = "x2-\(tag).any.test"
        let resolved = try ipcurl(["resolve", "--httpdns-server", http, "--no-fallback", other], environment: ["IPCURL_DNS": "aliyun-v2:" + account])
        #expect(resolved.status == 0, "\(resolved.stderr)")
        #expect(try v2Log(other).count == 1)

        let help = try ipcurl(["--help", "httpdns"])
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(lines.firstIndex { $0.contains("--httpdns-secret-file") })
        let text = lines[row...].prefix(2).joined(separator: " ")
        for word in ["sign_d", "v2", "HMAC-SHA256", "hex"] { #expect(text.contains(word), "\(word): \(text)") }
    }

    /// Names asked in one v2 query cannot be timed apart: every report gives each the query's time, and the HTML
    /// report says it is the batch's lookup, in the names table and in each waterfall.
    @Test func namesAskedInOneQueryShareTheLookupTimeAndTheReportSaysSo() throws {
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let names = ["h1-\(tag).any.test", "h2-\(tag).any.test"]
        let scratch = try TemporaryDirectory()
        let page = scratch.path + "/report.html"
        let result = try ipcurl(["check", "--aliyun", try lab.value("LAB_ALIYUN_ACCOUNT"), "--aliyun-api", "v2", "--httpdns-server", http,
                                 "--cacert", lab.ca, "--no-fallback", "--format", "html", "-o", page] + names.map { lab.https($0) })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try v2Log(names[0]).count == 1 && v2Log(names[1]).count == 1, "one query for both names")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.components(separatedBy: ">dns (batch of 2)</text>").count == 3, "each waterfall: \(html)")
        #expect(html.components(separatedBy: " (lookup of the batch of 2 names)</td>").count == 3, "each row of the names table")
        #expect(!html.contains("dns (per name)"))
    }

    @Test func clientIPIsSentAsCip() throws {
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let name = "c-\(tag).any.test"
        let result = try ipcurl(["resolve", "--aliyun", try lab.value("LAB_ALIYUN_ACCOUNT"), "--aliyun-api", "v2",
                                 "--httpdns-server", http, "--httpdns-client-ip", "192.0.2.7", name])
        #expect(result.status == 0, "\(result.stderr)")
        let query = try v2Log(name).first?["query"] as? String ?? ""
        #expect(query.split(separator: "&").contains("cip=192.0.2.7"), "\(query)")
    }

    // MARK: Service discovery (`--aliyun-boot-server`, the fixture's `/ss` and service listeners)

    /// The lab's boot server: the fixture's v2 TLS listener, verified as resolvers.httpdns.aliyuncs.com.
    func bootServer() throws -> String {
        "https://\(try lab.value("LAB_HTTPDNS_IP")):\(try lab.value("LAB_HTTPDNS_ALIYUN_V2_TLS_PORT"))"
    }

    /// The `/ACCOUNT/ss` requests the fixture logged.
    func discoveryLog(_ account: String) throws -> [[String: Any]] {
        let result = try run("/usr/bin/curl", ["-sS", "--noproxy", "*", http + "/_v2/log?id=\(account)&path=/\(account)/ss"])
        let object = try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any] ?? [:]
        return object["requests"] as? [[String: Any]] ?? []
    }

    /// A lab spare account (139460 + `index`), so failing its service addresses touches no other test.
    func spareAccount(_ index: Int) throws -> String {
        let first = try lab.value("LAB_ALIYUN_SPARE_ACCOUNTS").split(separator: "-").first.flatMap { Int($0) } ?? 0
        return String(first + index)
    }

    func discoveringRequest(_ account: String, _ name: String, _ extra: [String] = []) throws -> [String] {
        ["--aliyun", account, "--aliyun-api", "v2", "--aliyun-boot-server", try bootServer(), "--cacert", lab.ca,
         "--no-fallback", "-v", "-sS", "-o", "/dev/null", "-w", "%{http_code}"] + extra + [lab.https(name)]
    }

    @Test(arguments: ["none", "cbc", "gcm"])
    func aRequestFindsTheServiceAddressThroughTheBootServer(_ encryption: String) throws {
        let account = try spareAccount(1)
        let name = "d-\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).any.test"
        let before = try discoveryLog(account).count
        let result = try ipcurl(try discoveringRequest(account, name, ["--aliyun-encryption", encryption, "--aliyun-aes-key-file",
                                                                       try lab.value("LAB_ALIYUN_AES_KEY_FILE")]))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "200", "\(result.stdout)")
        let discovery = try discoveryLog(account).dropFirst(before)
        #expect(discovery.count == 1 && discovery.first?["listener"] as? String == "aliyun-v2-tls", "\(discovery)")
        #expect(discovery.first?["sni"] as? String == "resolvers.httpdns.aliyuncs.com", "\(discovery)")
        let queries = try v2Log(name)
        #expect(queries.count == 1 && queries.first?["listener"] as? String == "service-tls", "\(queries)")
        #expect(queries.first?["sni"] as? String == "resolvers.httpdns.aliyuncs.com", "\(queries)")
        if encryption != "none" { #expect(queries.allSatisfy { $0["names_in_clear"] as? Bool == false }, "\(queries)") }
        let service = try lab.value("LAB_HTTPDNS_SERVICE_IP")
        #expect(result.stderr.contains("* HTTPDNS service addresses of account \(account), discovered through \(try bootServer()) "
                                       + "as resolvers.httpdns.aliyuncs.com: https \(service):"), "\(result.stderr)")
    }

    @Test func theListIsCachedAndRediscoveredWhenEveryServiceAddressFailed() throws {
        let account = try spareAccount(2)
        let cache = try TemporaryDirectory()
        let environment = ["IPCURL_CACHE_DIR": cache.path]
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let before = try discoveryLog(account).count
        let first = try ipcurl(try discoveringRequest(account, "l1-\(tag).any.test"), environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try ipcurl(try discoveringRequest(account, "l2-\(tag).any.test"), environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("service addresses of account \(account), from the cache, discovered "), "\(second.stderr)")
        #expect(try discoveryLog(account).count == before + 1)
        // Every service address fails for this account until its list is asked for again.
        _ = try run("/usr/bin/curl", ["-sS", "--noproxy", "*", http + "/_v2/fail-services?id=\(account)"])
        let name = "l3-\(tag).any.test"
        let third = try ipcurl(try discoveringRequest(account, name), environment: environment)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(third.stderr.contains("every cached service address failed") && third.stderr.contains("HTTP 503"), "\(third.stderr)")
        #expect(third.stderr.contains("service addresses of account \(account), rediscovered through"), "\(third.stderr)")
        #expect(try discoveryLog(account).count == before + 2)
        #expect(try v2Log(name).map { $0["status"] as? Int } == [503, 200])
    }

    @Test func aListFileOthersCanWriteIsIgnoredAndReplaced() throws {
        let account = try spareAccount(3)
        let cache = try TemporaryDirectory()
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let first = try ipcurl(try discoveringRequest(account, "p1-\(tag).any.test"), environment: ["IPCURL_CACHE_DIR": cache.path])
        #expect(first.status == 0, "\(first.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".services") }
        #expect(files.count == 1, "\(files)")
        let path = cache.path + "/" + (files.first ?? "")
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains(account) == false)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: path)
        let before = try discoveryLog(account).count
        let second = try ipcurl(try discoveringRequest(account, "p2-\(tag).any.test"), environment: ["IPCURL_CACHE_DIR": cache.path])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("ignoring service address file \(path): writable by group or others"), "\(second.stderr)")
        #expect(try discoveryLog(account).count == before + 1)
    }

    @Test func anAccountTheBootServerDoesNotKnowIsExit6AfterOneQuery() throws {
        let account = try lab.value("LAB_ALIYUN_DISABLED_ACCOUNT")
        let before = try discoveryLog(account).count
        let result = try ipcurl(["resolve", "--aliyun", account, "--aliyun-api", "v2", "--aliyun-boot-server", try bootServer(),
                                 "--aliyun-boot-server", try bootServer() + "/", "--cacert", lab.ca, "--no-fallback", "a.test"])
        #expect(result.status == 6, "\(result.stderr)")
        #expect(result.stderr.contains("service discovery: 'AccountNotExists' (HTTP 403)"), "\(result.stderr)")
        #expect(try discoveryLog(account).count == before + 1)
    }

    @Test(arguments: [
        (["--aliyun", "1", "--aliyun-boot-server", "https://127.0.0.1"], "--aliyun-boot-server needs --aliyun-api v2"),
        (["--aliyun", "1", "--aliyun-api", "v2", "--aliyun-boot-server", "https://127.0.0.1", "--httpdns-server", "https://127.0.0.1"],
         "--aliyun-boot-server and --httpdns-server: choose one"),
        (["--aliyun", "1", "--aliyun-api", "v2", "--aliyun-boot-server", "ftp://127.0.0.1"], "--aliyun-boot-server"),
        (["--doh-url", "https://127.0.0.1/dns-query", "--aliyun-boot-server", "https://127.0.0.1"], "--aliyun-boot-server needs --aliyun"),
    ])
    func bootServerMisuseIsOneUsageLine(_ options: [String], _ message: String) throws {
        let result = try ipcurl(options + ["https://a.test/"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("ipcurl: \(message)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test func aTargetsFileChoosesV2AndItsEncryptionWhileKeysAndServersStayOnTheCommandLine() throws {
        let account = try spareAccount(4)
        let name = "t-\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).any.test"
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/targets.yaml"
        try """
            resolver: { aliyun: "\(account)", aliyun-api: v2, aliyun_encryption: gcm, no-fallback: true }
            targets:
              - url: \(lab.https(name))
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try ipcurl(["check", "--targets", path, "--cacert", lab.ca, "--aliyun-boot-server", try bootServer(),
                                 "--aliyun-aes-key-file", try lab.value("LAB_ALIYUN_AES_KEY_FILE")])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let queries = try v2Log(name)
        #expect(queries.count == 1 && queries.first?["listener"] as? String == "service-tls", "\(queries)")
        #expect(queries.first?["mode"] as? String == "2" || queries.first?["mode"] as? Int == 2, "\(queries)")
        // The servers a query goes to are the command line's to choose.
        try "resolver: { aliyun: \"\(account)\", aliyun-api: v2, aliyun-boot-server: \"\(try bootServer())\" }\ntargets: [\(lab.https(name))]\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let refused = try ipcurl(["check", "--targets", path, "--cacert", lab.ca])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("\"aliyun-boot-server\" chooses the server that vendor secrets are sent to"), "\(refused.stderr)")
    }
}
