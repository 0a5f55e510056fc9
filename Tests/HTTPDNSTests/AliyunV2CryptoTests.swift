import Testing
@testable import HTTPDNS

/// HMAC-SHA256, AES-128-GCM and Base64 over libcrypto: known answers checked outside this code first.
///
/// The issue-25 vectors were recomputed independently (OpenSSL 3.0.19, python3 `cryptography` 48.0.0):
/// ```
/// printf %s 'dn=www.aliyun.com&exp=1700000600&id=100000&m=0&q=4&v=1.0' \
///   | openssl dgst -sha256 -mac HMAC -macopt hexkey:00112233445566778899aabbccddeeff
///   -> de4e16b1c1670460ecf0c9305d53b52aea17839a106a798741600044203f4ef0
/// python3 -c 'from cryptography.hazmat.primitives.ciphers.aead import AESGCM; iv = bytes(range(12));
///   print((iv + AESGCM(bytes(range(16))).encrypt(iv, b"{\"dn\":\"www.aliyun.com\",\"q\":\"4\"}", None)).hex())'
///   -> 000102030405060708090a0be84ec3a04421d5233ca54feb5aca097ddd0879893ecfd1d49703cb0f2066df51cf84b0f41cdfc190ff201b9ce3b9e3
/// printf %s '{"dn":"www.aliyun.com","q":"4"}' \
///   | openssl enc -aes-128-ctr -K 000102030405060708090a0b0c0d0e0f -iv 000102030405060708090a0b00000002 | xxd -p
///   -> e84ec3a0…2066df (GCM's ciphertext is CTR from counter block IV‖2; OpenSSL 3.0's `enc` refuses GCM itself)
/// ```
/// The CBC vector is in `AliyunV2RequestTests` (it goes through `SymmetricCipher`, which the DNSPod suite checks too).
@Suite("HMAC-SHA256, AES-GCM and Base64")
struct AliyunV2CryptoTests {
    static let key = Array(0...15).map(UInt8.init)
    static let plaintext = Array(#"{"dn":"www.aliyun.com","q":"4"}"#.utf8)

    // MARK: HMAC-SHA256

    @Test func hmacMatchesTheIssueVector() throws {
        let secret = try #require(Hex.decode("00112233445566778899aabbccddeeff"))
        let message = "dn=www.aliyun.com&exp=1700000600&id=100000&m=0&q=4&v=1.0"
        #expect(HMACSHA256.hex(key: secret, message) == "de4e16b1c1670460ecf0c9305d53b52aea17839a106a798741600044203f4ef0")
        // The wrong key derivation (the hex text's ASCII bytes) gives another tag:
        // printf %s '…' | openssl dgst -sha256 -mac HMAC -macopt key:00112233445566778899aabbccddeeff
        #expect(HMACSHA256.hex(key: Array("00112233445566778899aabbccddeeff".utf8), message)
            == "4943dd10bf0c6f5917feab62d6340ee6d8971c685839247d67f02c3a0f19d9d3")
    }

    @Test func hmacMatchesRFC4231() throws {
        // RFC 4231 §4.2 (test case 1) and §4.3 (test case 2).
        #expect(HMACSHA256.hex(key: [UInt8](repeating: 0x0b, count: 20), "Hi There")
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(HMACSHA256.hex(key: Array("Jefe".utf8), "what do ya want for nothing?")
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // An empty key and an empty message: python3 -c 'import hmac,hashlib; print(hmac.new(b"", b"abc", hashlib.sha256).hexdigest())'
        #expect(HMACSHA256.hex(key: [], "abc") == "fd7adb152c05ef80dccf50a1fa4c05d5a3ec6da95575fc312ae7c5d091836351")
        // printf '' | openssl dgst -sha256 -mac HMAC -macopt hexkey:00
        #expect(HMACSHA256.digest(key: [0], []) == Hex.decode("b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"))
        #expect(LibCrypto.errorQueueIsEmpty)
    }

    // MARK: AES-128-GCM

    @Test func gcmMatchesTheIssueVector() throws {
        let gcm = try AESGCM(key: Self.key)
        let iv = Array(0...11).map(UInt8.init)
        let expected = try #require(Hex.decode(
            "000102030405060708090a0be84ec3a04421d5233ca54feb5aca097ddd0879893ecfd1d49703cb0f2066df51cf84b0f41cdfc190ff201b9ce3b9e3"))
        #expect(try gcm.seal(Self.plaintext, iv: iv) == expected)
        #expect(try gcm.open(expected) == Self.plaintext)
    }

    @Test func gcmMatchesMcGrewViega() throws {
        // The GCM specification's test cases 1 and 2: zero key, zero IV, empty and one zero block.
        let gcm = try AESGCM(key: [UInt8](repeating: 0, count: 16))
        let iv = [UInt8](repeating: 0, count: 12)
        #expect(try gcm.seal([], iv: iv) == iv + Hex.decode("58e2fccefa7e3061367f1d57a4e7455a")!)
        #expect(try gcm.seal([UInt8](repeating: 0, count: 16), iv: iv)
            == iv + Hex.decode("0388dace60b6a392f328c2b971b2fe78ab6e47d42cec13bdf53a67b21257bddf")!)
        #expect(try gcm.open(iv + Hex.decode("58e2fccefa7e3061367f1d57a4e7455a")!) == [])
    }

    @Test func gcmUsesAFreshIV() throws {
        let gcm = try AESGCM(key: Self.key)
        let first = try gcm.seal(Self.plaintext), second = try gcm.seal(Self.plaintext)
        #expect(first.count == 12 + Self.plaintext.count + 16)
        #expect(first.prefix(12) != second.prefix(12))
        #expect(try gcm.open(first) == Self.plaintext && gcm.open(second) == Self.plaintext)
    }

    @Test func gcmRefusesEveryAlteredByteAWrongKeyAndShortInput() throws {
        let gcm = try AESGCM(key: Self.key)
        let sealed = try gcm.seal(Self.plaintext, iv: Array(0...11).map(UInt8.init))
        for index in sealed.indices {  // IV, ciphertext and tag alike
            var altered = sealed
            altered[index] ^= 0x01
            #expect(throws: CipherError.self, "byte \(index) altered") { try gcm.open(altered) }
        }
        let wrong = try AESGCM(key: Array(Self.key.reversed()))
        #expect(throws: CipherError.self) { try wrong.open(sealed) }
        for length in [0, 1, 12, 27] {
            #expect(throws: CipherError.self, "\(length) bytes") { try gcm.open(Array(sealed.prefix(length))) }
        }
        #expect(throws: CipherError.self) { try gcm.open(sealed + [0]) }
        #expect(LibCrypto.errorQueueIsEmpty)
    }

    @Test(arguments: [0, 1, 15, 16, 17, 1000])
    func gcmRoundTrips(length: Int) throws {
        let gcm = try AESGCM(key: Self.key)
        let text = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let sealed = try gcm.seal(text)
        #expect(sealed.count == 12 + length + 16)
        #expect(try gcm.open(sealed) == text)
    }

    @Test(arguments: [0, 15, 17, 24, 32])
    func gcmRefusesKeysThatAreNot16Bytes(_ length: Int) {
        let error = #expect(throws: CipherError.self) { try AESGCM(key: [UInt8](repeating: 1, count: length)) }
        #expect(error?.unavailable == false && error?.message.contains("\(length)") == true)
    }

    @Test func gcmRefusesAnIVThatIsNot12Bytes() throws {
        let gcm = try AESGCM(key: Self.key)
        #expect(throws: CipherError.self) { try gcm.seal(Self.plaintext, iv: Array(0...15).map(UInt8.init)) }
        #expect(LibCrypto.errorQueueIsEmpty)
    }

    // MARK: Base64

    @Test func base64MatchesRFC4648() {
        // RFC 4648 §10.
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (text, encoded) in vectors {
            #expect(Base64.encode(Array(text.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(text.utf8), "\(encoded)")
        }
    }

    @Test func base64DecodesTheIssuesAnswerVectors() throws {
        // base64 -d <<< AAECAwQF… | xxd -p: the CBC and GCM request vectors' bytes.
        #expect(Base64.decode("AAECAwQFBgcICQoLDA0ODxqJ7TW5wK4CQYF5rJ8gWUTkwjT79hrImCbIA6gjEXN1")
            == Hex.decode("000102030405060708090a0b0c0d0e0f1a89ed35b9c0ae02418179ac9f205944e4c234fbf61ac89826c803a823117375"))
        #expect(Base64.decode("AAECAwQFBgcICQoL6E7DoEQh1SM8pU/rWsoJfd0IeYk+z9HUlwPLDyBm31HPhLD0HN/BkP8gG5zjueM=")
            == Hex.decode("000102030405060708090a0be84ec3a04421d5233ca54feb5aca097ddd0879893ecfd1d49703cb0f2066df51cf84b0f41cdfc190ff201b9ce3b9e3"))
    }

    @Test func base64RoundTripsEveryLengthAndByte() {
        for length in 0...64 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 255) }
            #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        }
        let all = (0...255).map(UInt8.init)
        #expect(Base64.decode(Base64.encode(all)) == all)
    }

    @Test(arguments: [
        "Zg=", "Zg", "Z", "Zm9vY", "Z===", "====", "Zg==Zg==", "Zm=v", "Zg=a",  // length and padding
        " Zm9v", "Zm9v ", "Zm9v\n", "Zm\n9v", "Zm9v\r\n",                        // white space: the server sends none
        "Zm9-", "Zm9_", "Zm9v!", "Zm9v\u{0}", "Zm9vé",                            // outside the standard alphabet
    ])
    func base64RefusesWhatIsNotStrictStandardBase64(_ text: String) {
        #expect(Base64.decode(text) == nil, "\(text.debugDescription)")
        #expect(LibCrypto.errorQueueIsEmpty)
    }
}
