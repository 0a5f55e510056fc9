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
        FileManager.default.createFile(atPath: secret, contents: Data("00112233445566778899aabbccddeeff".utf8),
                                       attributes: [.posixPermissions: 0o600])
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
}
