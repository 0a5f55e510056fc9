import Foundation
import HTTPDNS
import Testing

/// The vendor fixture itself, checked with the real curl CLI: it must enforce what the real services enforce,
/// or the provider tests would prove nothing.
@Suite struct FixtureTests: LabSuite {
    let fixture: LabFixture
    let base: String
    init() throws {
        fixture = try LabFixture()
        base = "http://\(try fixture.lab.value("LAB_HTTPDNS_IP")):\(try fixture.lab.value("LAB_HTTPDNS_HTTP_PORT"))"
    }

    private func get(_ path: String) throws -> (status: String, body: String) {
        let result = try run("/usr/bin/curl", ["-sS", "--noproxy", "*", "-w", "\n%{http_code}", base + path])
        let parts = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (String(parts.last ?? ""), parts.dropLast().joined(separator: "\n"))
    }

    @Test func signaturesAreCheckedForValueAndExpiry() throws {
        let account = try lab.value("LAB_ALIYUN_SIGNED_ACCOUNT")
        let secret = try String(contentsOfFile: try lab.value("LAB_ALIYUN_SECRET_FILE"), encoding: .utf8)
        let now = Int(Date().timeIntervalSince1970)
        let future = now + 300, past = now - 60
        let good = try get("/\(account)/sign_d?host=a.test&t=\(future)&s=\(MD5.hex("a.test-\(secret)-\(future)"))")
        #expect(good.status == "200" && good.body.contains("\"127.0.0.2\""), "\(good)")
        let expired = try get("/\(account)/sign_d?host=a.test&t=\(past)&s=\(MD5.hex("a.test-\(secret)-\(past)"))")
        #expect(expired.status == "403" && expired.body.contains("SignatureExpired"), "\(expired)")
        let wrong = try get("/\(account)/sign_d?host=a.test&t=\(future)&s=\(MD5.hex("a.test-wrong-\(future)"))")
        #expect(wrong.status == "403" && wrong.body.contains("InvalidSignature"), "\(wrong)")
        let otherHost = try get("/\(account)/sign_d?host=b.test&t=\(future)&s=\(MD5.hex("a.test-\(secret)-\(future)"))")
        #expect(otherHost.status == "403", "\(otherHost)")
    }

    @Test func encryptedModeRoundTripsWithTheLabKey() throws {
        let key = try String(contentsOfFile: try lab.value("LAB_DNSPOD_DES_KEY_FILE"), encoding: .utf8)
        let cipher = try SymmetricCipher(.des, key: Array(key.utf8))
        let dn = Hex.encode(try cipher.encrypt(Array("b.test".utf8)))
        let reply = try get("/d?dn=\(dn)&id=\(try lab.value("LAB_DNSPOD_ID"))&ttl=1")
        #expect(reply.status == "200")
        let plain = try cipher.decrypt(try #require(Hex.decode(reply.body.trimmingCharacters(in: .whitespacesAndNewlines))))
        #expect(String(decoding: plain, as: UTF8.self) == "127.0.0.2,300")
    }
}
