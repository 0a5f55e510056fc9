import CCrypto

/// MD5 digests, for Alibaba Cloud HTTPDNS's `sign_d` signature: `md5("HOST-SECRET-EXPIRY")`.
///
/// Traps only if libcrypto offers MD5 in neither the default nor the private legacy context.
/// - SeeAlso: `EVP_MD_fetch(NULL, "MD5", NULL)`, `EVP_Digest`.
public enum MD5 {
    /// The lowercase hex digest of `text`'s UTF-8 bytes (32 characters).
    public static func hex(_ text: String) -> String { Hex.encode(digest(Array(text.utf8))) }

    /// The 16-byte digest of `bytes`.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        guard let md5 = LibCrypto.md5 else { fatalError("this libcrypto offers no MD5") }
        var out = [UInt8](repeating: 0, count: ccrypto_md5_length)
        let ok = bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { ccrypto_digest(md5.pointer, input.baseAddress, input.count, $0.baseAddress) }
        }
        guard ok == 1 else { fatalError("libcrypto's MD5 failed") }
        return out
    }
}
