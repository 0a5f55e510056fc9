@testable import HTTPDNS
import Testing

/// The request each vendor provider sends: parameters, signature, encryption.
@Suite struct VendorRequestTests {
    private let client: HTTPDNSClient
    init() { client = HTTPDNSClient(servers: [], transport: ScriptedTransport()) }

    @Test func aliyunUnsignedAndSigned() throws {
        let plain = try AliyunResolver(account: "139450", secret: nil, clientIP: IPAddress("10.1.2.3"), client: client)
        #expect(plain.path(single: true, hosts: "a.test") == "/139450/d?host=a.test&query=4,6&ip=10.1.2.3")
        #expect(plain.path(single: false, hosts: "a.test,b.test") == "/139450/resolve?host=a.test,b.test&query=4,6&ip=10.1.2.3")
        let signed = try AliyunResolver(account: "139450", secret: "s3cret", clientIP: nil, client: client)
        let expiry = 1_700_000_000 + AliyunResolver.signatureLifetime
        #expect(signed.path(single: true, hosts: "a.test", now: 1_700_000_000)
            == "/139450/sign_d?host=a.test&query=4,6&t=\(expiry)&s=\(MD5.hex("a.test-s3cret-\(expiry)"))")
        #expect(signed.path(single: false, hosts: "a.test,b.test", now: 1_700_000_000)
            .hasPrefix("/139450/sign_resolve?host=a.test,b.test&query=4,6&t=\(expiry)&s=\(MD5.hex("a.test,b.test-s3cret-\(expiry)"))"))
    }

    @Test func aliyunSignatureIsTheDocumentedMD5() {
        // md5("a.test-s3cret-1700000600"), computed independently with `printf %s … | md5sum`.
        #expect(MD5.hex("a.test-s3cret-1700000600") == "65fd6398556bb53e8baf9874d6a0ff0a")
    }

    @Test(arguments: ["", "12 34", "1,2", "../x", String(repeating: "9", count: 33)])
    func aliyunRefusesOddAccounts(_ account: String) {
        let error = #expect(throws: ResolutionError.self) {
            try AliyunResolver(account: account, secret: nil, clientIP: nil, client: client)
        }
        #expect(error?.kind == .configuration && error?.setting == .aliyunAccount)
    }

    @Test func dnspodModes() throws {
        let plain = try DNSPodResolver(mode: .plain, clientIP: IPAddress("10.1.2.3"), client: client)
        #expect(try plain.path(for: "a.test") == "/d?dn=a.test&ip=10.1.2.3&ttl=1&type=addrs")
        let token = try DNSPodResolver(mode: .token("123456789"), clientIP: nil, client: client)
        #expect(try token.path(for: "a.test") == "/d?dn=a.test&token=123456789&ttl=1&type=addrs")
    }

    @Test func theDNSPodTokenRefusesAPlainHTTPServer() throws {
        let secure = try HTTPDNSServer(scheme: "https", host: "127.0.0.1", port: 9, setting: .vendorServer)
        let server = try HTTPDNSServer(scheme: "http", host: "127.0.0.1", port: 9, setting: .vendorServer)
        let plain = HTTPDNSClient(servers: [secure, server], transport: ScriptedTransport())
        let error = #expect(throws: ResolutionError.self) { try DNSPodResolver(mode: .token("123456789"), clientIP: nil, client: plain) }
        #expect(error?.kind == .configuration && error?.setting == .vendorServer)
        #expect(error?.settingValue == "'\(server.label)'")
        #expect(throws: Never.self) { try DNSPodResolver(mode: .plain, clientIP: nil, client: plain) }
    }

    @Test func dnspodDESMatchesTencentsExample() throws {
        // Tencent's documented example: DES-ECB-PKCS5 of www.dnspod.cn with key "dnspodpass".
        let des = try SymmetricCipher(.des, key: Array("dnspodpass".utf8))
        let resolver = try DNSPodResolver(mode: .encrypted(id: "1234", cipher: des), clientIP: nil, client: client)
        #expect(try resolver.path(for: "www.dnspod.cn") == "/d?dn=87ae992c1321f299da3c0210a9900ae7&id=1234&ttl=1&type=addrs")
    }

    @Test func dnspodAESSendsIVThenCiphertextAndNamesTheAlgorithm() throws {
        let aes = try SymmetricCipher(.aes, key: Array("0123456789abcdef".utf8))
        let resolver = try DNSPodResolver(mode: .encrypted(id: "1234", cipher: aes), clientIP: IPAddress("10.1.2.3"), client: client)
        let path = try resolver.path(for: "a.test")
        let query = path.dropFirst(3).split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
        let fields = Dictionary(uniqueKeysWithValues: query.map { ($0[0], $0[1]) })
        #expect(fields["id"] == "1234" && fields["alg"] == "aes" && fields["ttl"] == "1" && fields["type"] == "addrs")
        let dnText = try #require(fields["dn"])
        let ipText = try #require(fields["ip"])
        let dn = try #require(Hex.decode(dnText))
        let ip = try #require(Hex.decode(ipText))
        #expect(dn.count == 32)  // 16-byte IV + one block
        #expect(try aes.decrypt(dn) == Array("a.test".utf8))
        #expect(try aes.decrypt(ip) == Array("10.1.2.3".utf8))
        #expect(try resolver.path(for: "a.test") != path, "a fresh IV every time")
    }
}
