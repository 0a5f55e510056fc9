import CCrypto
import CurlKit

/// DNSPod (Tencent Cloud) HTTPDNS's query/answer ciphers, both with PKCS#7 (for DES: PKCS#5) padding.
///
/// - `aes`: AES-128-CBC with a 16-byte key; each message is a fresh random 16-byte IV followed by the ciphertext.
/// - `des`: single DES in ECB mode with the key's first 8 bytes. OpenSSL 3 keeps DES in its "legacy" provider,
///   which is loaded into a private library context only, never into the default one libcurl uses.
///
/// Decrypting with a wrong key usually fails on the padding, but about 1 in 256 times yields garbage instead.
/// - SeeAlso: `EVP_CipherInit_ex2`, `EVP_CipherUpdate`, `EVP_CipherFinal_ex`, `RAND_bytes`,
///   `EVP_CIPHER_fetch` (`AES-128-CBC`; `DES-ECB` from an `OSSL_LIB_CTX` with the legacy provider).
public struct SymmetricCipher: Sendable {
    /// The cipher, named as on the command line.
    public enum Algorithm: String, Sendable {
        case aes, des
    }

    /// The algorithm in use.
    public let algorithm: Algorithm
    private let key: [UInt8]
    private let cipher: LibCrypto.Handle

    /// The cipher for `algorithm` with `key`: exactly 16 bytes for `aes`, at least 8 for `des` (the first 8 are used).
    ///
    /// Throws `.usage` for a bad key length and `.notBuiltIn` when this libcrypto cannot provide the cipher.
    public init(_ algorithm: Algorithm, key: [UInt8]) throws(CurlError) {
        self.algorithm = algorithm
        switch algorithm {
        case .aes:
            guard key.count == 16 else {
                throw .usage("the AES key must be 16 bytes, not \(key.count)")
            }
            guard let cipher = LibCrypto.aes128CBC else {
                throw CurlError.notBuiltIn.with(message: "AES-128-CBC is not offered by this libcrypto")
            }
            self.key = key
            self.cipher = cipher
        case .des:
            guard key.count >= 8 else {
                throw .usage("the DES key must be at least 8 bytes, not \(key.count)")
            }
            guard let cipher = LibCrypto.desECB else {
                throw CurlError.notBuiltIn.with(
                    message: "DES is not offered by this libcrypto (OpenSSL's legacy provider could not be loaded)")
            }
            self.key = Array(key.prefix(8))
            self.cipher = cipher
        }
    }

    /// Encrypts `plaintext`: for `aes`, a fresh random IV followed by the ciphertext; for `des`, the ciphertext.
    public func encrypt(_ plaintext: [UInt8]) throws(CurlError) -> [UInt8] {
        guard algorithm == .aes else { return try run(encrypt: true, iv: [], plaintext) }
        var iv = [UInt8](repeating: 0, count: Self.ivLength)
        let ok = iv.withUnsafeMutableBufferPointer { ccrypto_random($0.baseAddress, $0.count) }
        guard ok == 1 else {
            throw CurlError.couldntResolveHost.with(message: "cannot encrypt the query: libcrypto has no random bytes")
        }
        return try encrypt(plaintext, iv: iv)
    }

    /// AES only: `iv` followed by the ciphertext of `plaintext` under that IV. For tests.
    func encrypt(_ plaintext: [UInt8], iv: [UInt8]) throws(CurlError) -> [UInt8] {
        try iv + run(encrypt: true, iv: iv, plaintext)
    }

    /// Decrypts `data` (for `aes`, IV followed by ciphertext); wrong key, bad length or bad padding throw
    /// a `.couldntResolveHost` error.
    public func decrypt(_ data: [UInt8]) throws(CurlError) -> [UInt8] {
        let block = algorithm == .aes ? 16 : 8
        let ivLength = algorithm == .aes ? Self.ivLength : 0
        guard data.count >= ivLength + block, (data.count - ivLength) % block == 0 else { throw Self.undecryptable }
        return try run(encrypt: false, iv: Array(data.prefix(ivLength)), Array(data.dropFirst(ivLength)))
    }

    private static let ivLength = 16
    private static let undecryptable = CurlError.couldntResolveHost.with(
        message: "cannot decrypt the answer (wrong key or corrupt data)")

    private func run(encrypt: Bool, iv: [UInt8], _ input: [UInt8]) throws(CurlError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: input.count + ccrypto_max_block)
        var length = 0
        let ok = key.withUnsafeBufferPointer { key in
            iv.withUnsafeBufferPointer { iv in
                input.withUnsafeBufferPointer { input in
                    output.withUnsafeMutableBufferPointer { output in
                        ccrypto_cipher_run(
                            cipher.pointer, encrypt ? 1 : 0, key.baseAddress, key.count, iv.baseAddress, iv.count,
                            input.baseAddress, input.count, output.baseAddress, &length)
                    }
                }
            }
        }
        guard ok == 1 else {
            throw encrypt
                ? CurlError.couldntResolveHost.with(message: "cannot encrypt the query with \(algorithm.rawValue)")
                : Self.undecryptable
        }
        output.removeSubrange(length...)
        return output
    }
}
