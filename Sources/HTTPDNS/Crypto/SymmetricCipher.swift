import CCrypto

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
    /// Throws ``CipherError`` for a bad key length or when this libcrypto cannot provide the cipher.
    public init(_ algorithm: Algorithm, key: [UInt8]) throws(CipherError) {
        self.algorithm = algorithm
        switch algorithm {
        case .aes:
            guard key.count == 16 else {
                throw CipherError("the AES key must be 16 bytes, not \(key.count)")
            }
            guard let cipher = LibCrypto.aes128CBC else {
                throw CipherError("AES-128-CBC is not offered by this libcrypto", unavailable: true)
            }
            self.key = key
            self.cipher = cipher
        case .des:
            guard key.count >= 8 else {
                throw CipherError("the DES key must be at least 8 bytes, not \(key.count)")
            }
            guard let cipher = LibCrypto.desECB else {
                throw CipherError("DES is not offered by this libcrypto (OpenSSL's legacy provider could not be loaded)",
                                  unavailable: true)
            }
            self.key = Array(key.prefix(8))
            self.cipher = cipher
        }
    }

    /// Encrypts `plaintext`: for `aes`, a fresh random IV followed by the ciphertext; for `des`, the ciphertext.
    public func encrypt(_ plaintext: [UInt8]) throws(CipherError) -> [UInt8] {
        guard algorithm == .aes else { return try run(encrypt: true, iv: [], plaintext) }
        var iv = [UInt8](repeating: 0, count: Self.ivLength)
        let ok = iv.withUnsafeMutableBufferPointer { ccrypto_random($0.baseAddress, $0.count) }
        guard ok == 1 else {
            throw CipherError("libcrypto has no random bytes")
        }
        return try encrypt(plaintext, iv: iv)
    }

    /// AES only: `iv` followed by the ciphertext of `plaintext` under that IV. For tests.
    func encrypt(_ plaintext: [UInt8], iv: [UInt8]) throws(CipherError) -> [UInt8] {
        try iv + run(encrypt: true, iv: iv, plaintext)
    }

    /// Decrypts `data` (for `aes`, IV followed by ciphertext); wrong key, bad length or bad padding throw
    /// a ``CipherError``.
    public func decrypt(_ data: [UInt8]) throws(CipherError) -> [UInt8] {
        let block = algorithm == .aes ? 16 : 8
        let ivLength = algorithm == .aes ? Self.ivLength : 0
        guard data.count >= ivLength + block, (data.count - ivLength) % block == 0 else { throw Self.undecryptable }
        return try run(encrypt: false, iv: Array(data.prefix(ivLength)), Array(data.dropFirst(ivLength)))
    }

    private static let ivLength = 16
    private static let undecryptable = CipherError("cannot decrypt the answer (wrong key or corrupt data)")

    private func run(encrypt: Bool, iv: [UInt8], _ input: [UInt8]) throws(CipherError) -> [UInt8] {
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
                ? CipherError("cannot encrypt the query with \(algorithm.rawValue)")
                : Self.undecryptable
        }
        output.removeSubrange(length...)
        return output
    }
}

/// Why a cipher could not be made or used: one line, no key material.
public struct CipherError: Error, Sendable, Equatable {
    /// What went wrong.
    public let message: String
    /// Whether this libcrypto lacks the algorithm altogether (rather than the key or data being wrong).
    public let unavailable: Bool

    init(_ message: String, unavailable: Bool = false) {
        self.message = message
        self.unavailable = unavailable
    }
}
