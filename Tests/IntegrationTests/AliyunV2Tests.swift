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
                                 "--httpdns-server", server, "--cacert", lab.ca, "-sS", "-o", "/dev/null",
                                 "-w", "%{http_code}", lab.https(name)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "200", "\(result.stdout)")
        let requests = try v2Log(name)
        #expect(requests.count == 1, "\(requests)")
        #expect(requests.first?["sni"] as? String == "resolvers.httpdns.aliyuncs.com", "\(requests)")
        #expect(requests.first?["code"] as? String == nil || requests.first?["status"] as? Int == 200, "\(requests)")
        if encryption != "none" { #expect(requests.allSatisfy { $0["names_in_clear"] as? Bool == false }, "\(requests)") }
    }

    @Test func wrongSecretIsExit6NamingInvalidSignatureAfterOneQuery() throws {
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let name = "w-\(tag).any.test"
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("v2-wrong-\(tag)").path
        try writePrivateFile("00112233445566778899aabbccddeeff", to: secret)
        defer { try? FileManager.default.removeItem(atPath: secret) }
        let result = try ipcurl(["resolve", "--aliyun", try lab.value("LAB_ALIYUN_SIGNED_ACCOUNT"), "--aliyun-api", "v2",
                                 "--httpdns-secret-file", secret, "--httpdns-server", http, "--httpdns-server", http + "/",
                                 "--no-fallback", name])
        #expect(result.status == 6, "\(result.stderr)")
        #expect(result.stderr.contains("InvalidSignature"), "\(result.stderr)")
        #expect(try v2Log(name).count == 1)
    }

    @Test func lockedAccountWithoutASecretNamesUnsignedInterfaceDisabled() throws {
        let result = try ipcurl(["resolve", "--aliyun", try lab.value("LAB_ALIYUN_SIGNED_ACCOUNT"), "--aliyun-api", "v2",
                                 "--httpdns-server", http, "--no-fallback", "a.test"])
        #expect(result.status == 6, "\(result.stderr)")
        #expect(result.stderr.contains("UnsignedInterfaceDisabled"), "\(result.stderr)")
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

    @Test func aNameWithoutTheAskedFamilyFallsBackOrExits6() throws {
        let account = try lab.value("LAB_ALIYUN_ACCOUNT")
        let v2 = ["resolve", "--aliyun", account, "--aliyun-api", "v2", "--httpdns-server", http]
        let strict = try ipcurl(v2 + ["-6", "--no-fallback", "b.test"])
        #expect(strict.status == 6)
        #expect(strict.stderr.contains("b.test") && strict.stderr.contains("RRNotExist") && !strict.stderr.contains("system"),
                "\(strict.stderr)")
        let fallback = try ipcurl(v2 + ["-6", "b.test"])
        #expect(fallback.stderr.contains("system"), "\(fallback.stderr)")
        let warned = try ipcurl(v2 + ["-4", "localhost"])
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(warned.stderr.contains("ipcurl: warning: localhost: HTTPDNS gave no address"), "\(warned.stderr)")
        let query = try v2Log("localhost").last?["query"] as? String ?? ""
        #expect(query.contains("q=4") && !query.contains("q=4%2C6") && !query.contains("q=4,6"), "\(query)")
    }

    @Test func secretAndAESKeyNeverAppearInOutput() throws {
        let secret = try String(contentsOfFile: try lab.value("LAB_ALIYUN_SECRET_FILE"), encoding: .utf8)
        let key = try String(contentsOfFile: try lab.value("LAB_ALIYUN_AES_KEY_FILE"), encoding: .utf8)
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("v2-trace-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let server = "https://\(try lab.value("LAB_HTTPDNS_IP")):\(try lab.value("LAB_HTTPDNS_ALIYUN_V2_TLS_PORT"))"
        let run = try ipcurl(["--aliyun", try lab.value("LAB_ALIYUN_SIGNED_ACCOUNT"), "--aliyun-api", "v2", "--aliyun-encryption", "gcm",
                              "--httpdns-server", server, "--cacert", lab.ca, "-v", "--trace-ascii", trace, "-i", lab.https("a.test")],
                             environment: ["IPCURL_HTTPDNS_SECRET": secret, "IPCURL_ALIYUN_AES_KEY": key])
        #expect(run.status == 0, "\(run.stderr)")
        let traced = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        for text in [secret, key, secret.lowercased(), key.lowercased()] {
            #expect(!run.stdout.contains(text) && !run.stderr.contains(text) && !traced.contains(text), "leaked: \(run.stderr)")
        }
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
