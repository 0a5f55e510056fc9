// Typed, non-variadic wrappers around libcurl's variadic setopt/getinfo calls.
// Swift cannot call C variadic functions, so each argument type gets one static inline wrapper.
// Modelled on swift-corelibs-foundation's CFURLSessionInterface.h; prefixed `ccurl_` to stay out of curl's namespace.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <curl/curl.h>
#include <dlfcn.h>
#include <stdint.h>

typedef size_t (*ccurl_data_callback)(char *buffer, size_t size, size_t count, void *userdata);
typedef int (*ccurl_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size, void *userdata);
typedef int (*ccurl_seek_callback)(void *userdata, curl_off_t offset, int origin);
typedef int (*ccurl_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode ccurl_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_int64(CURL *h, CURLoption o, int64_t v) { return curl_easy_setopt(h, o, (curl_off_t)v); }
static inline CURLcode ccurl_easy_setopt_ptr(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_str(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_data_cb(CURL *h, CURLoption o, ccurl_data_callback v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_debug_cb(CURL *h, ccurl_debug_callback v) { return curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, v); }
static inline CURLcode ccurl_easy_setopt_seek_cb(CURL *h, ccurl_seek_callback v) { return curl_easy_setopt(h, CURLOPT_SEEKFUNCTION, v); }
static inline CURLcode ccurl_easy_setopt_xferinfo_cb(CURL *h, ccurl_xferinfo_callback v) { return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, v); }

static inline CURLcode ccurl_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode ccurl_easy_getinfo_int64(CURL *h, CURLINFO i, int64_t *v) {
    curl_off_t t = 0; CURLcode rc = curl_easy_getinfo(h, i, &t); *v = (int64_t)t; return rc;
}
static inline CURLcode ccurl_easy_getinfo_double(CURL *h, CURLINFO i, double *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode ccurl_easy_getinfo_string(CURL *h, CURLINFO i, const char **v) { return curl_easy_getinfo(h, i, v); }

static inline CURLcode ccurl_easy_getinfo_slist(CURL *h, CURLINFO i, struct curl_slist **v) { return curl_easy_getinfo(h, i, v); }

static inline CURLcode ccurl_easy_getinfo_certinfo(CURL *h, struct curl_certinfo **v) { return curl_easy_getinfo(h, CURLINFO_CERTINFO, v); }

// The TLS version of the transfer's live connection (OpenSSL's `SSL_get_version`: "TLSv1.3"), or NULL when there
// is no OpenSSL session; valid only while the connection is open (from a header or body callback).
// `SSL_get_version` is looked up in the libssl that libcurl already loaded, so ipcurl does not link libssl itself
// (a NEEDED libssl ahead of the others costs every start about 0.25 M instructions of symbol lookups).
typedef const char *(*ccurl_ssl_get_version_fn)(const void *ssl);
static inline const char *ccurl_easy_tls_version(CURL *h) {
    struct curl_tlssessioninfo *info = NULL;
    if (curl_easy_getinfo(h, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK || !info) return NULL;
    if (info->backend != CURLSSLBACKEND_OPENSSL || !info->internals) return NULL;
    void *program = dlopen(NULL, RTLD_LAZY);
    if (!program) return NULL;
    ccurl_ssl_get_version_fn get = (ccurl_ssl_get_version_fn)dlsym(program, "SSL_get_version");
    const char *version = get ? get(info->internals) : NULL;  // a static string inside libssl
    dlclose(program);  // only drops the reference dlopen(NULL) took: the program and libssl stay loaded
    return version;
}

/// The live connection's OpenSSL `SSL *` (NULL over plain HTTP, with another TLS backend, or once it closed).
static inline void *ccurl_easy_tls_ssl(CURL *h) {
    struct curl_tlssessioninfo *info = NULL;
    if (curl_easy_getinfo(h, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK || !info) return NULL;
    if (info->backend != CURLSSLBACKEND_OPENSSL) return NULL;
    return info->internals;
}

/// `name(ssl)` for a libssl function of one `SSL *` argument returning a pointer (`SSL_get1_peer_certificate`,
/// `SSL_get_peer_cert_chain`), looked up as `ccurl_easy_tls_version` looks up its function; NULL when there is none.
typedef void *(*ccurl_ssl_pointer_fn)(const void *ssl);
static inline void *ccurl_ssl_pointer(const void *ssl, const char *name) {
    if (!ssl) return NULL;
    void *program = dlopen(NULL, RTLD_LAZY);
    if (!program) return NULL;
    ccurl_ssl_pointer_fn call = (ccurl_ssl_pointer_fn)dlsym(program, name);
    void *result = call ? call(ssl) : NULL;
    dlclose(program);
    return result;
}

static inline CURLSHcode ccurl_share_setopt_long(CURLSH *s, CURLSHoption o, long v) { return curl_share_setopt(s, o, v); }
typedef void (*ccurl_share_lock_callback)(CURL *handle, curl_lock_data data, curl_lock_access access, void *userptr);
typedef void (*ccurl_share_unlock_callback)(CURL *handle, curl_lock_data data, void *userptr);
static inline CURLSHcode ccurl_share_setopt_locks(CURLSH *s, ccurl_share_lock_callback lock, ccurl_share_unlock_callback unlock, void *user) {
    CURLSHcode rc = curl_share_setopt(s, CURLSHOPT_LOCKFUNC, lock);
    if (rc == CURLSHE_OK) rc = curl_share_setopt(s, CURLSHOPT_UNLOCKFUNC, unlock);
    if (rc == CURLSHE_OK) rc = curl_share_setopt(s, CURLSHOPT_USERDATA, user);
    return rc;
}
static const int ccurl_lock_data_count = CURL_LOCK_DATA_LAST;
static inline CURLMcode ccurl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }

static inline const curl_version_info_data *ccurl_version_info(void) { return curl_version_info(CURLVERSION_NOW); }

// Values Swift cannot import from macros.
static const size_t ccurl_error_size = CURL_ERROR_SIZE;
static const size_t ccurl_readfunc_abort = CURL_READFUNC_ABORT;
static const size_t ccurl_readfunc_pause = CURL_READFUNC_PAUSE;
static const int ccurl_pause_cont = CURLPAUSE_CONT;
static const long ccurl_global_all = CURL_GLOBAL_ALL;
static const int ccurl_seekfunc_ok = CURL_SEEKFUNC_OK;
static const int ccurl_seekfunc_cantseek = CURL_SEEKFUNC_CANTSEEK;
// The CURLAUTH_ bits are casts Swift does not import.
static const unsigned long ccurl_auth_basic = CURLAUTH_BASIC;
static const unsigned long ccurl_auth_digest = CURLAUTH_DIGEST;
static const unsigned long ccurl_auth_negotiate = CURLAUTH_NEGOTIATE;
static const unsigned long ccurl_auth_ntlm = CURLAUTH_NTLM;
static const unsigned long ccurl_auth_ntlm_wb = CURLAUTH_NTLM_WB;
static const unsigned long ccurl_auth_bearer = CURLAUTH_BEARER;
static const unsigned long ccurl_auth_aws_sigv4 = CURLAUTH_AWS_SIGV4;
static const unsigned long ccurl_auth_any = CURLAUTH_ANY;
static const unsigned long ccurl_auth_gssapi = CURLAUTH_GSSAPI;
static const long ccurl_header_separate = CURLHEADER_SEPARATE;
static const long ccurl_sslopt_allow_beast = CURLSSLOPT_ALLOW_BEAST;

#endif
