@testable import HTTPDNS
import Testing

/// The `/v2/d` query Alibaba's v2 API takes: parameters, signature, encryption, batches.
///
/// Every signature below was computed outside this code, e.g.
/// `printf %s 'cip=192.0.2.1&dn=www.aliyun.com&exp=1700000600&id=100000&m=0&q=4&v=1.0' | openssl dgst -sha256 -mac HMAC -macopt hexkey:00112233445566778899aabbccddeeff`,
/// and the CBC `enc` with
/// `printf %s '{"dn":"www.aliyun.com","q":"4"}' | openssl enc -aes-128-cbc -K 000102030405060708090a0b0c0d0e0f -iv 000102030405060708090a0b0c0d0e0f | xxd -p`.
@Suite struct AliyunV2RequestTests {
    static let secret = "00112233445566778899aabbccddeeff"
    static let aesKey = "000102030405060708090a0b0c0d0e0f"
    static let now = 1_700_000_000
    static let cbcEnc = "000102030405060708090a0b0c0d0e0f1a89ed35b9c0ae02418179ac9f205944e4c234fbf61ac89826c803a823117375"
    static let gcmEnc = "000102030405060708090a0be84ec3a04421d5233ca54feb5aca097ddd0879893ecfd1d49703cb0f2066df51cf84b0f41cdfc190ff201b9ce3b9e3"

    static func api(signed: Bool = true, _ mode: AliyunV2.Mode = .plain, clientIP: String? = nil) throws -> AliyunV2 {
        try AliyunV2(account: "100000", signingKey: signed ? AliyunV2.SigningKey(hex: secret) : nil,
                     encryption: mode == .plain ? .plain : AliyunV2.Encryption(mode, hexKey: aesKey),
                     clientIP: clientIP.flatMap { IPAddress($0) })
    }

    static func names(_ names: String...) throws -> AliyunV2.Names { try #require(AliyunV2.Names(names)) }

    @Test func aPlainSignedQueryMatchesTheIssueVector() throws {
        let query = try Self.api().query(Self.names("www.aliyun.com"), families: .v4Only, now: Self.now)
        #expect(query.signedText == "dn=www.aliyun.com&exp=1700000600&id=100000&m=0&q=4&v=1.0")
        #expect(query.path == "/v2/d?id=100000&m=0&dn=www.aliyun.com&q=4&v=1.0&exp=1700000600"
            + "&s=de4e16b1c1670460ecf0c9305d53b52aea17839a106a798741600044203f4ef0")
        #expect(query.mode == .plain && query.names.names == ["www.aliyun.com"])
    }

    @Test func anUnsignedQueryCarriesExpiryButNoSignature() throws {
        let query = try Self.api(signed: false).query(Self.names("www.aliyun.com"), families: .v4Only, now: Self.now)
        #expect(query.signedText == nil)
        #expect(query.path == "/v2/d?id=100000&m=0&dn=www.aliyun.com&q=4&v=1.0&exp=1700000600")
    }

    @Test func aBatchIsSignedOverLiteralCommasAndSentPercentEncoded() throws {
        let query = try Self.api().query(Self.names("www.aliyun.com", "WWW.Taobao.com."), families: .both, now: Self.now)
        #expect(query.signedText == "dn=www.aliyun.com,www.taobao.com&exp=1700000600&id=100000&m=0&q=4,6&v=1.0")
        #expect(query.path == "/v2/d?id=100000&m=0&dn=www.aliyun.com%2Cwww.taobao.com&q=4%2C6&v=1.0&exp=1700000600"
            + "&s=59345d21584d9b95c41fc293c595c17f3f6faa6dafb37b07e11107570d21db7f")
    }

    @Test func theClientIPIsSentAndSigned() throws {
        let v4 = try Self.api(clientIP: "192.0.2.1").query(Self.names("www.aliyun.com"), families: .v4Only, now: Self.now)
        #expect(v4.signedText == "cip=192.0.2.1&dn=www.aliyun.com&exp=1700000600&id=100000&m=0&q=4&v=1.0")
        #expect(v4.path == "/v2/d?id=100000&m=0&dn=www.aliyun.com&q=4&cip=192.0.2.1&v=1.0&exp=1700000600"
            + "&s=04b0e9da78a9ce798dc0fa610fe1f5b82e2d7f92a91e2b2996f528471e68c13a")
        // The raw value is signed; the URL carries it percent-encoded (':' is not unreserved).
        let v6 = try Self.api(clientIP: "2001:db8::1").query(Self.names("www.aliyun.com"), families: .v6Only, now: Self.now)
        #expect(v6.signedText == "cip=2001:db8::1&dn=www.aliyun.com&exp=1700000600&id=100000&m=0&q=6&v=1.0")
        #expect(v6.path.contains("&cip=2001%3Adb8%3A%3A1&"))
        #expect(v6.path.hasSuffix("&s=35fc6b8f22f810d739a75023b5551762b2e1a5929089b918b15b94b39831a67b"))
    }

    @Test(arguments: [(AddressFamilies.both, "4%2C6"), (.v4Only, "4"), (.v6Only, "6")])
    func familiesChooseQ(_ families: AddressFamilies, _ q: String) throws {
        let query = try Self.api(signed: false).query(Self.names("a.test"), families: families, now: Self.now)
        #expect(query.path.contains("&q=\(q)&"), "\(query.path)")
        #expect(query.families == families)
    }

    @Test func cbcMatchesTheIssueVectorAndKeepsTheNameOutOfTheURL() throws {
        let query = try Self.api(.cbc).query(Self.names("www.aliyun.com"), families: .v4Only, now: Self.now,
                                             iv: Array(0...15).map(UInt8.init))
        #expect(query.signedText == "enc=\(Self.cbcEnc)&exp=1700000600&id=100000&m=1&v=1.0")
        #expect(query.path == "/v2/d?id=100000&m=1&enc=\(Self.cbcEnc)&v=1.0&exp=1700000600"
            + "&s=32372523bf176bfa75805b01d9d60a5f2b4c3b530bc9a07cce46102cfd0ad616")
    }

    @Test func gcmMatchesTheIssueVectorAndKeepsTheNameOutOfTheURL() throws {
        let query = try Self.api(.gcm).query(Self.names("www.aliyun.com"), families: .v4Only, now: Self.now,
                                             iv: Array(0...11).map(UInt8.init))
        #expect(query.signedText == "enc=\(Self.gcmEnc)&exp=1700000600&id=100000&m=2&v=1.0")
        #expect(query.path == "/v2/d?id=100000&m=2&enc=\(Self.gcmEnc)&v=1.0&exp=1700000600"
            + "&s=8561a2d2ad73b3d029b5a705209814e4eebffa8502179463a33650d8e7adbc81")
    }

    @Test(arguments: [AliyunV2.Mode.cbc, .gcm])
    func anEncryptedQueryCarriesNoNameFamilyOrClientIPInClear(_ mode: AliyunV2.Mode) throws {
        let api = try Self.api(mode, clientIP: "192.0.2.1")
        let query = try api.query(Self.names("secret-one.example", "secret-two.example"), families: .both, now: Self.now)
        for clear in ["secret", "example", "dn=", "q=", "cip=", "192.0.2.1"] {
            #expect(!query.path.contains(clear), "\(clear) in \(query.path)")
        }
        let parameters = query.path.dropFirst("/v2/d?".count).split(separator: "&").map { $0.prefix { $0 != "=" } }
        #expect(parameters == ["id", "m", "enc", "v", "exp", "s"])
        // The `enc` value opens with the key to the parameters' JSON object.
        let enc = try #require(query.path.split(separator: "&").first { $0.hasPrefix("enc=") }?.dropFirst(4))
        let opened = try api.encryption.open(#require(Hex.decode(enc)), mode: mode)
        #expect(String(decoding: opened, as: UTF8.self)
            == #"{"dn":"secret-one.example,secret-two.example","q":"4,6","cip":"192.0.2.1"}"#)
    }

    @Test(arguments: [AliyunV2.Mode.cbc, .gcm])
    func everyEncryptedQueryHasAFreshIV(_ mode: AliyunV2.Mode) throws {
        let api = try Self.api(mode)
        let first = try api.query(Self.names("a.test"), families: .both, now: Self.now)
        let second = try api.query(Self.names("a.test"), families: .both, now: Self.now)
        #expect(first.path != second.path)
    }

    @Test func expiryIsTenMinutesAfterNow() throws {
        let query = try Self.api().query(Self.names("a.test"), families: .both, now: 1_234)
        #expect(query.path.contains("&exp=\(1_234 + AliyunV2.signatureLifetime)&"))
        #expect(AliyunV2.signatureLifetime == 600)
    }

    // MARK: Names

    @Test func aBatchHoldsOneToFiveValidNames() {
        let five = (1...5).map { "n\($0).test" }
        #expect(AliyunV2.Names(five)?.names == five)
        #expect(AliyunV2.Names(five + ["n6.test"]) == nil, "six names")
        #expect(AliyunV2.Names([]) == nil)
        #expect(AliyunV2.Names(["a.test", "bad name"]) == nil)
        #expect(AliyunV2.Names(["a.test", "1.2.3.4,evil"]) == nil)
        #expect(AliyunV2.Names(["A.test.", "a.test", "b.test"])?.names == ["a.test", "b.test"], "normalized, duplicates once")
        #expect(AliyunV2.batchLimit == 5)
    }

    @Test func namesAreSplitIntoBatchesOfFive() {
        let twelve = (1...12).map { "n\($0).test" }
        let batches = AliyunV2.Names.batches(twelve)
        #expect(batches.map(\.names.count) == [5, 5, 2])
        #expect(batches.flatMap(\.names) == twelve)
        #expect(AliyunV2.Names.batches([]).isEmpty)
    }

    // MARK: Settings

    @Test(arguments: ["", "abc", "zz", "00 11", "0x0011", "00112233\n"])
    func aSigningSecretMustBeHex(_ text: String) {
        let error = #expect(throws: CipherError.self) { try AliyunV2.SigningKey(hex: text) }
        if !text.isEmpty { #expect(error?.message.contains(text) == false, "the secret is never quoted") }
    }

    @Test func anAESKeyMustBe32HexDigits() throws {
        #expect(throws: Never.self) { try AliyunV2.Encryption(.gcm, hexKey: "000102030405060708090A0B0C0D0E0F") }
        for bad in ["", "0001", String(repeating: "0", count: 31), String(repeating: "0", count: 48), String(repeating: "g", count: 32)] {
            let error = #expect(throws: CipherError.self) { try AliyunV2.Encryption(.cbc, hexKey: bad) }
            #expect(error?.unavailable == false)
        }
        #expect(AliyunV2.Encryption.plain.mode == .plain)
    }

    @Test func noKeyShowsInADescriptionOrADump() throws {
        let api = try Self.api(.gcm, clientIP: "192.0.2.1")
        var dumped = ""
        dump(api, to: &dumped)
        let gcm = try AESGCM(key: Array(0...15).map(UInt8.init))
        var dumpedGCM = ""
        dump(gcm, to: &dumpedGCM)
        for text in ["\(api)", String(reflecting: api), dumped, "\(api.encryption)", "\(gcm)", String(reflecting: gcm), dumpedGCM] {
            // The AES key's bytes (0, 1, 2, …) and the secret's (0x00, 0x11, 0x22, …), as numbers or hex.
            for secret in ["0, 1, 2, 3", "0, 17, 34, 51", Self.aesKey, Self.secret, "0x11", "1, 2, 3"] {
                #expect(!text.contains(secret), "\(secret) in \(text)")
            }
        }
        #expect("\(api)".contains("100000") && "\(api.encryption)".contains("gcm"), "the rest still shows")
    }

    @Test(arguments: ["", "12 34", "1,2", "../x", String(repeating: "9", count: 33)])
    func oddAccountsAreRefused(_ account: String) {
        let error = #expect(throws: ResolutionError.self) { try AliyunV2(account: account, signingKey: nil) }
        #expect(error?.kind == .configuration && error?.setting == .aliyunAccount)
    }
}
