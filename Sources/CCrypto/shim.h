// Small wrappers around libcrypto (OpenSSL 3) for HTTPDNS's signatures, ciphers and Base64.
// Each call does one whole job (fetch, digest, one-shot cipher) so Swift never handles an EVP context,
// and every failure path clears this thread's OpenSSL error queue, which libcurl's TLS code shares.
// Modelled on swift-corelibs-foundation's CFURLSessionInterface.h; prefixed `ccrypto_`.
#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

/// Output room a one-shot cipher call needs beyond the input length.
static const size_t ccrypto_max_block = EVP_MAX_BLOCK_LENGTH;
/// Bytes in an MD5 digest.
static const size_t ccrypto_md5_length = 16;
/// Bytes in a SHA-256 digest, and so in an HMAC-SHA256 tag.
static const size_t ccrypto_sha256_length = 32;
/// Bytes in an AES-GCM IV (the 96 bits GCM takes without hashing it) and in its full tag.
static const size_t ccrypto_gcm_iv_length = 12;
static const size_t ccrypto_gcm_tag_length = 16;

/// A new library context with only the "default" and "legacy" providers, for single DES without
/// loading "legacy" into the default context libcurl uses. No config file is read. NULL when either
/// provider cannot be loaded (e.g. ossl-modules/legacy.so missing).
static inline OSSL_LIB_CTX *ccrypto_legacy_context_new(void) {
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
    if (ctx == NULL) { ERR_clear_error(); return NULL; }
    OSSL_PROVIDER *legacy = OSSL_PROVIDER_load(ctx, "legacy");
    OSSL_PROVIDER *standard = legacy ? OSSL_PROVIDER_load(ctx, "default") : NULL;
    if (standard == NULL) {
        if (legacy) OSSL_PROVIDER_unload(legacy);
        OSSL_LIB_CTX_free(ctx);
        ERR_clear_error();
        return NULL;
    }
    return ctx;
}

/// `EVP_CIPHER_fetch(ctx, name, NULL)`; ctx NULL is the default context. NULL when no provider offers it.
/// The result is immutable and may be shared across threads.
static inline EVP_CIPHER *ccrypto_cipher_fetch(OSSL_LIB_CTX *ctx, const char *name) {
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(ctx, name, NULL);
    if (cipher == NULL) ERR_clear_error();
    return cipher;
}

/// Whether `ctx` (NULL: the default context) offers cipher `name`; fetches and frees. For tests.
static inline int ccrypto_cipher_offered(OSSL_LIB_CTX *ctx, const char *name) {
    EVP_CIPHER *cipher = ccrypto_cipher_fetch(ctx, name);
    EVP_CIPHER_free(cipher);
    return cipher != NULL;
}

/// `EVP_MD_fetch(ctx, name, NULL)`; ctx NULL is the default context. NULL when no provider offers it.
static inline EVP_MD *ccrypto_digest_fetch(OSSL_LIB_CTX *ctx, const char *name) {
    EVP_MD *md = EVP_MD_fetch(ctx, name, NULL);
    if (md == NULL) ERR_clear_error();
    return md;
}

/// One-shot `EVP_Digest`; `out` needs `EVP_MD_get_size(md)` bytes. Returns 1 on success, 0 on failure.
static inline int ccrypto_digest(const EVP_MD *md, const uint8_t *in, size_t in_len, uint8_t *out) {
    unsigned int len = 0;
    if (EVP_Digest(in, in_len, out, &len, md, NULL) == 1) return 1;
    ERR_clear_error();
    return 0;
}

/// `RAND_bytes` from the default context's DRBG. Returns 1 on success, 0 on failure.
static inline int ccrypto_random(uint8_t *out, size_t len) {
    if (len > INT_MAX) return 0;
    if (RAND_bytes(out, (int)len) == 1) return 1;
    ERR_clear_error();
    return 0;
}

/// One whole encryption (`encrypt` 1) or decryption (0) with standard (PKCS#7) padding.
/// `key_len`/`iv_len` must match the cipher (`iv` may be NULL when it takes none); `out` needs room for
/// `in_len + ccrypto_max_block` bytes. Returns 1 and sets `*out_len`, or 0 (wrong lengths, bad padding).
static inline int ccrypto_cipher_run(const EVP_CIPHER *cipher, int encrypt,
                                     const uint8_t *key, size_t key_len, const uint8_t *iv, size_t iv_len,
                                     const uint8_t *in, size_t in_len, uint8_t *out, size_t *out_len) {
    *out_len = 0;
    if (key_len != (size_t)EVP_CIPHER_get_key_length(cipher)) return 0;
    if (iv_len != (size_t)EVP_CIPHER_get_iv_length(cipher) || (iv_len > 0 && iv == NULL)) return 0;
    if (in_len > (size_t)INT_MAX - EVP_MAX_BLOCK_LENGTH) return 0;
    static const uint8_t nothing = 0;
    if (in == NULL) in = &nothing;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int update = 0, final = 0;
    int ok = ctx != NULL
        && EVP_CipherInit_ex2(ctx, cipher, key, iv_len > 0 ? iv : NULL, encrypt, NULL) == 1
        && EVP_CipherUpdate(ctx, out, &update, in, (int)in_len) == 1
        && EVP_CipherFinal_ex(ctx, out + update, &final) == 1;
    EVP_CIPHER_CTX_free(ctx);
    if (!ok) { ERR_clear_error(); return 0; }
    *out_len = (size_t)update + (size_t)final;
    return 1;
}

/// One-shot HMAC-SHA256 (`EVP_Q_mac` in the default context) of `in` keyed with `key` (either may be empty);
/// `out` needs `ccrypto_sha256_length` bytes. Returns 1 on success, 0 on failure.
static inline int ccrypto_hmac_sha256(const uint8_t *key, size_t key_len, const uint8_t *in, size_t in_len,
                                      uint8_t *out) {
    static const uint8_t nothing = 0;
    size_t len = 0;
    if (EVP_Q_mac(NULL, "HMAC", NULL, "SHA256", NULL, key_len > 0 ? key : &nothing, key_len,
                  in_len > 0 ? in : &nothing, in_len, out, ccrypto_sha256_length, &len) != NULL
        && len == ccrypto_sha256_length) return 1;
    ERR_clear_error();
    return 0;
}

/// One whole AES-GCM sealing (`encrypt` 1) or opening (0) with a 12-byte IV, a 16-byte tag and no AAD.
/// Sealing writes the ciphertext of `in` and then the tag: `out` needs `in_len + ccrypto_gcm_tag_length` bytes.
/// Opening takes `in` as ciphertext followed by the tag, writes the plaintext (`in_len - ccrypto_gcm_tag_length`
/// bytes) and fails unless the tag verifies; what it wrote before failing must be discarded. `key_len` must match
/// `cipher` (a GCM cipher). Returns 1 and sets `*out_len`, or 0 (wrong lengths, tag mismatch).
static inline int ccrypto_gcm_run(const EVP_CIPHER *cipher, int encrypt, const uint8_t *key, size_t key_len,
                                  const uint8_t *iv, size_t iv_len, const uint8_t *in, size_t in_len,
                                  uint8_t *out, size_t *out_len) {
    *out_len = 0;
    if (key_len != (size_t)EVP_CIPHER_get_key_length(cipher) || iv_len != ccrypto_gcm_iv_length || iv == NULL) return 0;
    if (in_len > (size_t)INT_MAX - ccrypto_gcm_tag_length || (!encrypt && in_len < ccrypto_gcm_tag_length)) return 0;
    size_t text_len = encrypt ? in_len : in_len - ccrypto_gcm_tag_length;
    static const uint8_t nothing = 0;
    uint8_t scratch[1];
    if (in == NULL) in = &nothing;
    if (out == NULL) { if (text_len > 0 || encrypt) return 0; out = scratch; }
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int update = 0, final = 0;
    uint8_t *tag = encrypt ? out + text_len : (uint8_t *)(in + text_len);
    int ok = ctx != NULL
        && EVP_CipherInit_ex2(ctx, cipher, key, iv, encrypt, NULL) == 1
        && EVP_CipherUpdate(ctx, out, &update, in, (int)text_len) == 1
        && (encrypt || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)ccrypto_gcm_tag_length, tag) > 0)
        && EVP_CipherFinal_ex(ctx, out + update, &final) == 1
        && (!encrypt || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)ccrypto_gcm_tag_length, tag) > 0);
    EVP_CIPHER_CTX_free(ctx);
    if (!ok || (size_t)update + (size_t)final != text_len) { ERR_clear_error(); return 0; }
    *out_len = encrypt ? text_len + ccrypto_gcm_tag_length : text_len;
    return 1;
}

/// Standard Base64 (RFC 4648 section 4: `A-Za-z0-9+/`, `=` padding, no line breaks) of `in` (`EVP_EncodeBlock`),
/// NUL-terminated: `out` needs `4 * ((in_len + 2) / 3) + 1` bytes. Returns the text's length, or 0 when `in_len`
/// is too large to encode in one call.
static inline size_t ccrypto_base64_encode(const uint8_t *in, size_t in_len, char *out) {
    if (in_len > (size_t)INT_MAX / 4 * 3 - 3) return 0;
    static const uint8_t nothing = 0;
    int len = EVP_EncodeBlock((unsigned char *)out, in_len > 0 ? in : &nothing, (int)in_len);
    return len < 0 ? 0 : (size_t)len;
}

/// Strict standard Base64 back to bytes (`EVP_DecodeBlock`): the length a multiple of 4, only the 64 alphabet
/// characters, `=` only as the last one or two; no white space (which `EVP_DecodeBlock` would trim). `out` needs
/// `in_len / 4 * 3` bytes. `EVP_DecodeBlock` counts the zero bytes the padding stands for, so they are taken off
/// `*out_len`. Returns 1 and sets `*out_len`, or 0.
static inline int ccrypto_base64_decode(const char *in, size_t in_len, uint8_t *out, size_t *out_len) {
    *out_len = 0;
    if (in_len % 4 != 0 || in_len > (size_t)INT_MAX) return 0;
    if (in_len == 0) return 1;
    size_t padding = 0;
    for (size_t i = 0; i < in_len; i++) {
        unsigned char c = (unsigned char)in[i];
        int alphabet = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
        if (c == '=' && i + 2 >= in_len) padding++;
        else if (!alphabet || padding > 0) return 0;
    }
    int len = EVP_DecodeBlock(out, (const unsigned char *)in, (int)in_len);
    if (len < 0 || (size_t)len != in_len / 4 * 3) { ERR_clear_error(); return 0; }
    *out_len = (size_t)len - padding;
    return 1;
}

/// Nonzero when this thread's OpenSSL error queue holds an error (`ERR_peek_error`); for tests.
static inline unsigned long ccrypto_error_pending(void) { return ERR_peek_error(); }

// MARK: Certificates (the exporter's TLS metrics: a peer certificate's names and fingerprint)

/// The DER certificate `der` parsed; NULL when it is not one. Free with ccrypto_x509_free.
static inline X509 *ccrypto_x509_parse(const uint8_t *der, size_t len) {
    const unsigned char *p = der;
    X509 *x = len <= LONG_MAX ? d2i_X509(NULL, &p, (long)len) : NULL;
    if (!x) ERR_clear_error();
    return x;
}

static inline void ccrypto_x509_free(X509 *x) { X509_free(x); }

/// The subject's entries (the issuer's when `issuer` is 1).
static inline int ccrypto_x509_name_count(const X509 *x, int issuer) {
    return X509_NAME_entry_count(issuer ? X509_get_issuer_name(x) : X509_get_subject_name(x));
}

/// Entry `i` of the subject (issuer): its NID (NID_undef for a type OpenSSL does not know), the dotted OID into
/// `oid`, the index of its RDN set, its ASN.1 string type, and its value's raw bytes (valid while `x` lives).
/// 0 when there is no such entry.
static inline int ccrypto_x509_name_entry(const X509 *x, int issuer, int i, int *nid, int *set, int *type,
                                          char *oid, int oid_len, const unsigned char **value, int *value_len) {
    const X509_NAME *name = issuer ? X509_get_issuer_name(x) : X509_get_subject_name(x);
    const X509_NAME_ENTRY *entry = X509_NAME_get_entry(name, i);
    if (!entry) return 0;
    const ASN1_OBJECT *object = X509_NAME_ENTRY_get_object(entry);
    const ASN1_STRING *data = X509_NAME_ENTRY_get_data(entry);
    *nid = OBJ_obj2nid(object);
    *set = X509_NAME_ENTRY_set(entry);
    *type = ASN1_STRING_type(data);
    if (OBJ_obj2txt(oid, oid_len, object, 1) <= 0) oid[0] = 0;
    *value = ASN1_STRING_get0_data(data);
    *value_len = ASN1_STRING_length(data);
    return 1;
}

/// The subjectAltName DNS names, each followed by a NUL, into `out` (at most `cap` bytes); returns the bytes
/// needed, 0 when there are none.
static inline size_t ccrypto_x509_dns_names(const X509 *x, char *out, size_t cap) {
    GENERAL_NAMES *names = X509_get_ext_d2i(x, NID_subject_alt_name, NULL, NULL);
    size_t needed = 0;
    if (!names) { ERR_clear_error(); return 0; }
    for (int i = 0; i < sk_GENERAL_NAME_num(names); i++) {
        const GENERAL_NAME *name = sk_GENERAL_NAME_value(names, i);
        if (name->type != GEN_DNS) continue;
        const ASN1_STRING *dns = name->d.dNSName;
        size_t len = (size_t)ASN1_STRING_length(dns);
        if (needed + len + 1 <= cap) {
            memcpy(out + needed, ASN1_STRING_get0_data(dns), len);
            out[needed + len] = 0;
        }
        needed += len + 1;
    }
    GENERAL_NAMES_free(names);
    return needed;
}

/// Certificates of a peer's chain (`STACK_OF(X509) *`, as `SSL_get_peer_cert_chain` gives it), and the one at `i`.
static inline int ccrypto_chain_count(const void *chain) { return chain ? OPENSSL_sk_num((const OPENSSL_STACK *)chain) : 0; }
static inline X509 *ccrypto_chain_at(const void *chain, int i) { return (X509 *)OPENSSL_sk_value((const OPENSSL_STACK *)chain, i); }

/// The certificate's notAfter in seconds since 1970, or LLONG_MIN when it cannot be read.
static inline long long ccrypto_x509_not_after(const X509 *x) {
    struct tm when;
    if (!x || ASN1_TIME_to_tm(X509_get0_notAfter(x), &when) != 1) { ERR_clear_error(); return LLONG_MIN; }
    return (long long)timegm(&when);
}

/// SHA-256 of the certificate's DER into `out` (ccrypto_sha256_length bytes); 0 on failure.
static inline int ccrypto_x509_sha256(const X509 *x, uint8_t *out) {
    unsigned int length = 0;
    int ok = X509_digest(x, EVP_sha256(), out, &length);
    if (!ok) ERR_clear_error();
    return ok && length == ccrypto_sha256_length;
}

#endif