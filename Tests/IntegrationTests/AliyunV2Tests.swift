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
}
