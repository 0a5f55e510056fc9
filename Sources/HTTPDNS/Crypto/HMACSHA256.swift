import CCrypto

/// HMAC-SHA256 (RFC 2104 over SHA-256), for Alibaba Cloud HTTPDNS v2's `s` signature: the tag of the sorted
/// `key=value` parameters, keyed with the hex-decoded console secret.
///
/// Traps only if libcrypto's default context offers no HMAC-SHA256, which every OpenSSL 3 build does.
/// - SeeAlso: `EVP_Q_mac(NULL, "HMAC", NULL, "SHA256", …)`; RFC 4231 (test vectors); Alibaba's Android SDK
///   `impl/SignService.java` (`hmacSha256`).
public enum HMACSHA256 {
    /// Bytes in a tag.
    public static let length = ccrypto_sha256_length

    /// The 32-byte tag of `message` under `key` (either may be empty).
    public static func digest(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        let ok = key.withUnsafeBufferPointer { key in
            message.withUnsafeBufferPointer { message in
                out.withUnsafeMutableBufferPointer {
                    ccrypto_hmac_sha256(key.baseAddress, key.count, message.baseAddress, message.count, $0.baseAddress)
                }
            }
        }
        guard ok == 1 else { fatalError("libcrypto's HMAC-SHA256 failed") }
        return out
    }

    /// The lowercase hex tag (64 characters) of `text`'s UTF-8 bytes under `key`.
    public static func hex(key: [UInt8], _ text: String) -> String { Hex.encode(digest(key: key, Array(text.utf8))) }
}
