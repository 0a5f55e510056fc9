import CCrypto

/// Standard Base64 (RFC 4648 section 4) over libcrypto, strict: what Alibaba Cloud HTTPDNS v2 sends an encrypted
/// answer's `data` in. Decoding takes only the 64-character alphabet with `=` padding, in groups of four, with no
/// white space or line breaks.
/// - SeeAlso: `EVP_EncodeBlock`, `EVP_DecodeBlock`; Alibaba's iOS SDK (`initWithBase64EncodedString:options:0`,
///   which refuses white space too).
public enum Base64 {
    /// The Base64 text of `bytes`, padded, on one line.
    public static func encode(_ bytes: [UInt8]) -> String {
        var text = [UInt8](repeating: 0, count: 4 * ((bytes.count + 2) / 3) + 1)
        let length = bytes.withUnsafeBufferPointer { input in
            text.withUnsafeMutableBufferPointer { output in
                output.withMemoryRebound(to: CChar.self) { ccrypto_base64_encode(input.baseAddress, input.count, $0.baseAddress) }
            }
        }
        return String(decoding: text.prefix(length), as: UTF8.self)
    }

    /// The bytes of `text`, or `nil` when it is not strict standard Base64.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let input = Array(text.utf8)
        var output = [UInt8](repeating: 0, count: max(1, input.count / 4 * 3))
        var length = 0
        let ok = input.withUnsafeBufferPointer { input in
            input.withMemoryRebound(to: CChar.self) { input in
                output.withUnsafeMutableBufferPointer { ccrypto_base64_decode(input.baseAddress, input.count, $0.baseAddress, &length) }
            }
        }
        guard ok == 1 else { return nil }
        output.removeSubrange(length...)
        return output
    }
}
