import CCrypto

/// AES-128-GCM with a 12-byte IV, a 16-byte tag and no additional data, as Alibaba Cloud HTTPDNS v2 uses it
/// (`m=2`): a sealed message is the IV, the ciphertext and the tag, in that order.
///
/// Unlike CBC (``SymmetricCipher``), opening authenticates: a changed byte anywhere, or the wrong key, fails.
/// - SeeAlso: `EVP_CipherInit_ex2`, `EVP_CTRL_AEAD_GET_TAG`/`EVP_CTRL_AEAD_SET_TAG`, `RAND_bytes`; NIST SP 800-38D;
///   Alibaba's Android SDK `impl/AESEncryptService.java` (`GCMParameterSpec(128, iv)`, IV of 12 bytes).
public struct AESGCM: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Bytes in the IV that starts a sealed message.
    public static let ivLength = ccrypto_gcm_iv_length
    /// Bytes in the tag that ends it.
    public static let tagLength = ccrypto_gcm_tag_length

    private let key: [UInt8]
    private let cipher: LibCrypto.Handle

    /// `AESGCM(redacted)`: no description, dump or mirror shows the key.
    public var description: String { "AESGCM(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    /// The cipher with `key`, which must be 16 bytes. Throws ``CipherError`` for another length or when this
    /// libcrypto offers no AES-128-GCM.
    public init(key: [UInt8]) throws(CipherError) {
        guard key.count == 16 else { throw CipherError("the AES key must be 16 bytes, not \(key.count)") }
        guard let cipher = LibCrypto.aes128GCM else {
            throw CipherError("AES-128-GCM is not offered by this libcrypto", unavailable: true)
        }
        self.key = key
        self.cipher = cipher
    }

    /// A fresh random IV, the ciphertext of `plaintext` and the tag.
    public func seal(_ plaintext: [UInt8]) throws(CipherError) -> [UInt8] {
        var iv = [UInt8](repeating: 0, count: Self.ivLength)
        guard iv.withUnsafeMutableBufferPointer({ ccrypto_random($0.baseAddress, $0.count) }) == 1 else {
            throw CipherError("libcrypto has no random bytes")
        }
        return try seal(plaintext, iv: iv)
    }

    /// `iv` (12 bytes), the ciphertext of `plaintext` under it and the tag. For known answers: an IV must never be
    /// used twice with one key.
    func seal(_ plaintext: [UInt8], iv: [UInt8]) throws(CipherError) -> [UInt8] {
        guard iv.count == Self.ivLength else { throw CipherError("an AES-GCM IV is 12 bytes, not \(iv.count)") }
        return try iv + run(encrypt: true, iv: iv, plaintext, room: plaintext.count + Self.tagLength)
    }

    /// The plaintext of `data` (IV, ciphertext, tag); a wrong key, a changed byte or a short message throw.
    public func open(_ data: [UInt8]) throws(CipherError) -> [UInt8] {
        guard data.count >= Self.ivLength + Self.tagLength else { throw Self.unopenable }
        let sealed = Array(data.dropFirst(Self.ivLength))
        return try run(encrypt: false, iv: Array(data.prefix(Self.ivLength)), sealed, room: sealed.count - Self.tagLength)
    }

    private static let unopenable = CipherError("cannot decrypt the answer (wrong key or corrupt data)")

    private func run(encrypt: Bool, iv: [UInt8], _ input: [UInt8], room: Int) throws(CipherError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: max(1, room))
        var length = 0
        let ok = key.withUnsafeBufferPointer { key in
            iv.withUnsafeBufferPointer { iv in
                input.withUnsafeBufferPointer { input in
                    output.withUnsafeMutableBufferPointer { output in
                        ccrypto_gcm_run(cipher.pointer, encrypt ? 1 : 0, key.baseAddress, key.count, iv.baseAddress,
                                        iv.count, input.baseAddress, input.count, output.baseAddress, &length)
                    }
                }
            }
        }
        guard ok == 1 else { throw encrypt ? CipherError("cannot encrypt the query with AES-GCM") : Self.unopenable }
        output.removeSubrange(length...)
        return output
    }
}
