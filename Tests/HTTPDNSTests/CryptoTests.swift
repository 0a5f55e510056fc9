import Foundation
import Testing
@testable import HTTPDNS

@Suite("Hex and MD5")
struct HexMD5Tests {
    @Test func hexRoundTrips() {
        #expect(Hex.encode([]) == "")
        #expect(Hex.encode([0x00, 0x0f, 0xa5, 0xff]) == "000fa5ff")
        #expect(Hex.decode("000FA5ff") == [0x00, 0x0f, 0xa5, 0xff])
        #expect(Hex.decode("") == [])
        #expect(Hex.decode("c0ffee"[...]) == [0xc0, 0xff, 0xee])
        let all = (0...255).map(UInt8.init)
        #expect(Hex.decode(Hex.encode(all)) == all)
    }

    @Test(arguments: ["abc", "zz", "0g", "a", " 0", "0x00", "é0"])
    func hexRejects(_ text: String) {
        #expect(Hex.decode(text) == nil)
    }

    @Test func md5KnownAnswers() {  // RFC 1321 appendix A.5
        #expect(MD5.hex("") == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(MD5.hex("abc") == "900150983cd24fb0d6963f7d28e17f72")
        #expect(MD5.hex("message digest") == "f96b697d7cb7938d525a2f31aaf161d0")
        #expect(MD5.digest(Array("abc".utf8)) == Hex.decode("900150983cd24fb0d6963f7d28e17f72"))
    }
}

@Suite("DNSPod ciphers")
struct SymmetricCipherTests {
    static let aesKey = Array("0123456789abcdef".utf8)
    static let iv: [UInt8] = Array(0...15)
    static let undecryptable = "cannot decrypt the answer (wrong key or corrupt data)"

    @Test func desMatchesTencentVector() throws {
        let cipher = try SymmetricCipher(.des, key: Array("dnspodpass".utf8))
        let expected = Hex.decode("87ae992c1321f299da3c0210a9900ae7")!
        #expect(try cipher.encrypt(Array("www.dnspod.cn".utf8)) == expected)
        #expect(try cipher.decrypt(expected) == Array("www.dnspod.cn".utf8))
        let eightBytes = try SymmetricCipher(.des, key: Array("dnspodpa".utf8))
        #expect(try eightBytes.decrypt(expected) == Array("www.dnspod.cn".utf8))
    }

    @Test func aesMatchesOpenSSLVector() throws {
        // printf www.dnspod.cn | openssl enc -aes-128-cbc -K 3031...6566 -iv 0001...0e0f | xxd -p
        let cipher = try SymmetricCipher(.aes, key: Self.aesKey)
        let expected = Self.iv + Hex.decode("556fad2b1e6696ecb7b748a48d600025")!
        #expect(try cipher.encrypt(Array("www.dnspod.cn".utf8), iv: Self.iv) == expected)
        #expect(try cipher.decrypt(expected) == Array("www.dnspod.cn".utf8))
    }

    @Test func aesUsesAFreshIV() throws {
        let cipher = try SymmetricCipher(.aes, key: Self.aesKey)
        let text = Array("www.dnspod.cn".utf8)
        let first = try cipher.encrypt(text), second = try cipher.encrypt(text)
        #expect(first != second)
        #expect(first.prefix(16) != second.prefix(16))
        #expect(try cipher.decrypt(first) == text)
        #expect(try cipher.decrypt(second) == text)
    }

    @Test(arguments: [SymmetricCipher.Algorithm.aes, .des], [0, 1, 15, 16, 17, 1000])
    func roundTrips(_ algorithm: SymmetricCipher.Algorithm, length: Int) throws {
        let cipher = try SymmetricCipher(algorithm, key: Self.aesKey)
        let text = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let sealed = try cipher.encrypt(text)
        let block = algorithm == .aes ? 16 : 8
        #expect(sealed.count == (algorithm == .aes ? 16 : 0) + (length / block + 1) * block)
        #expect(try cipher.decrypt(sealed) == text)
    }

    @Test(arguments: [(SymmetricCipher.Algorithm.aes, 15), (.aes, 17), (.aes, 0), (.aes, 8), (.des, 7), (.des, 0)])
    func badKeyLengthIsAKeyError(_ algorithm: SymmetricCipher.Algorithm, length: Int) {
        let error = #expect(throws: CipherError.self) {
            try SymmetricCipher(algorithm, key: [UInt8](repeating: 0x41, count: length))
        }
        #expect(error?.unavailable == false, "the key is wrong, not the libcrypto")
        #expect(error?.message.contains("\(length)") == true)
    }

    @Test func wrongKeyFailsOnPadding() throws {
        let desVector = Hex.decode("87ae992c1321f299da3c0210a9900ae7")!
        let wrongDES = try SymmetricCipher(.des, key: Array("wrongkey".utf8))
        expectUndecryptable { () throws(CipherError) in _ = try wrongDES.decrypt(desVector) }

        let sealed = try SymmetricCipher(.aes, key: Self.aesKey).encrypt(Array("www.dnspod.cn".utf8), iv: Self.iv)
        let wrongAES = try SymmetricCipher(.aes, key: Array("fedcba9876543210".utf8))
        expectUndecryptable { () throws(CipherError) in _ = try wrongAES.decrypt(sealed) }
        #expect(LibCrypto.errorQueueIsEmpty)
    }

    @Test(arguments: [SymmetricCipher.Algorithm.aes, .des])
    func malformedInputFails(_ algorithm: SymmetricCipher.Algorithm) throws {
        let cipher = try SymmetricCipher(algorithm, key: Self.aesKey)
        let sealed = try cipher.encrypt(Array(repeating: 0x61, count: 40))
        let cases: [[UInt8]] = [
            [], Array(sealed.dropLast()), Array(sealed.dropLast(8)), Array(sealed.prefix(algorithm == .aes ? 16 : 7)),
            Array(sealed.prefix(algorithm == .aes ? 31 : 1)), sealed + [0],
        ]
        for data in cases {
            expectUndecryptable { () throws(CipherError) in _ = try cipher.decrypt(data) }
        }
        #expect(LibCrypto.errorQueueIsEmpty)
    }

    @Test func legacyProviderStaysOutOfTheDefaultContext() throws {
        _ = try SymmetricCipher(.des, key: Self.aesKey).encrypt([1, 2, 3])
        #expect(!LibCrypto.defaultContextOffers(cipher: "DES-ECB"))
        #expect(LibCrypto.defaultContextOffers(cipher: "AES-128-CBC"))
        #expect(LibCrypto.errorQueueIsEmpty)
    }

    @Test func concurrentUseIsSafe() async throws {
        let ciphers = [try SymmetricCipher(.aes, key: Self.aesKey), try SymmetricCipher(.des, key: Self.aesKey)]
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                let cipher = ciphers[index % 2]
                group.addTask {
                    let text = Array("host-\(index).example".utf8)
                    return try cipher.decrypt(cipher.encrypt(text)) == text && MD5.hex("\(index)").count == 32
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }

    private func expectUndecryptable(_ body: () throws(CipherError) -> Void) {
        let error = #expect(throws: CipherError.self) { try body() }
        #expect(error?.message == Self.undecryptable)
        #expect(error?.unavailable == false)
    }
}

@Suite("Cross-check with the openssl CLI", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")))
struct OpenSSLCLITests {
    /// Runs `/usr/bin/openssl enc <arguments>` with `input` on stdin and returns stdout.
    private func openssl(_ arguments: [String], input: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["enc"] + arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data(input))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return Array(output)
    }

    @Test(arguments: [0, 1, 15, 16, 17, 1000])
    func aesMatchesCLI(length: Int) throws {
        let key = (0..<16).map { UInt8($0 * 17) }, iv = (0..<16).map { UInt8(255 - $0) }
        let text = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let cli = try openssl(["-aes-128-cbc", "-K", Hex.encode(key), "-iv", Hex.encode(iv)], input: text)
        let cipher = try SymmetricCipher(.aes, key: key)
        #expect(try cipher.encrypt(text, iv: iv) == iv + cli)
        #expect(try cipher.decrypt(iv + cli) == text)
    }

    @Test(arguments: [0, 1, 7, 8, 9, 1000])
    func desMatchesCLI(length: Int) throws {
        let key = Array("k3y-Byt3s!".utf8)
        let text = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let cli = try openssl(
            ["-des-ecb", "-K", Hex.encode(Array(key.prefix(8))), "-provider", "legacy", "-provider", "default"],
            input: text)
        let cipher = try SymmetricCipher(.des, key: key)
        #expect(try cipher.encrypt(text) == cli)
        #expect(try cipher.decrypt(cli) == text)
    }
}
