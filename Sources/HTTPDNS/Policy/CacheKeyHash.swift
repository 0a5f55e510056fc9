/// FNV-1a, 128-bit: the cache's file names and provider digests.
///
/// It is not cryptographic and needs none of libcrypto's start-up cost (about 5 M instructions for the first
/// `EVP_MD_fetch`). It is not a security boundary either: a file is only used when its own host, family and
/// provider fields match the key that was asked for, and its addresses pass `inet_pton` again.
/// - SeeAlso: the FNV hash, draft-eastlake-fnv.
enum CacheKeyHash {
    /// 32 lowercase hex digits for `text`'s UTF-8 bytes.
    static func hex(_ text: String) -> String {
        var high: UInt64 = 0x6c62_272e_07bb_0142, low: UInt64 = 0x62b8_2175_6295_c58d
        for byte in text.utf8 {
            low ^= UInt64(byte)
            // Multiply by the 128-bit FNV prime 2^88 + 0x13B, modulo 2^128.
            let (carry, product) = low.multipliedFullWidth(by: 0x13B)
            high = high &* 0x13B &+ carry &+ (low << 24)
            low = product
        }
        return Hex.encode(withUnsafeBytes(of: high.bigEndian) { Array($0) } + withUnsafeBytes(of: low.bigEndian) { Array($0) })
    }
}
