import CCrypto

/// Algorithms fetched from libcrypto once per process and kept for its lifetime (never freed).
///
/// Swift's lazy `static let` makes each fetch happen once, thread-safely. Fetched algorithms and library
/// contexts are immutable, shareable objects in OpenSSL 3; every operation makes its own EVP context.
/// - SeeAlso: `EVP_CIPHER_fetch`, `EVP_MD_fetch`, `OSSL_LIB_CTX_new`, `OSSL_PROVIDER_load`.
enum LibCrypto {
    /// A fetched `EVP_CIPHER`/`EVP_MD` or an `OSSL_LIB_CTX`.
    struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// A private library context with the "legacy" and "default" providers; nil without "legacy".
    /// Kept apart from the default context so libcurl's TLS never sees legacy algorithms.
    private static let legacyContext = ccrypto_legacy_context_new().map(Handle.init)

    /// AES-128-CBC from the default context.
    static let aes128CBC = ccrypto_cipher_fetch(nil, "AES-128-CBC").map(Handle.init)

    /// AES-128-GCM from the default context.
    static let aes128GCM = ccrypto_cipher_fetch(nil, "AES-128-GCM").map(Handle.init)

    /// Single DES in ECB mode from the private context: OpenSSL 3 offers it only in "legacy".
    static let desECB = legacyContext.flatMap { ccrypto_cipher_fetch($0.pointer, "DES-ECB") }.map(Handle.init)

    /// MD5 from the default context, or from the private one if the default refuses it (FIPS-only setups).
    static let md5 = (ccrypto_digest_fetch(nil, "MD5")
        ?? legacyContext.flatMap { ccrypto_digest_fetch($0.pointer, "MD5") }).map(Handle.init)

    /// Whether this thread's OpenSSL error queue is empty (the shim clears it after every failure).
    static var errorQueueIsEmpty: Bool { ccrypto_error_pending() == 0 }

    /// Whether the default library context (libcurl's) offers cipher `name`; for tests.
    static func defaultContextOffers(cipher name: String) -> Bool { ccrypto_cipher_offered(nil, name) == 1 }
}
