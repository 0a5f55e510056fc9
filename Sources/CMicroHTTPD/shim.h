// libmicrohttpd (the HTTP server), GnuTLS (its TLS: client-certificate policy, SHA-256) and libcrypt (bcrypt) for
// the exporter's HTTP server. Swift cannot call C variadic functions (MHD_start_daemon, MHD_get_connection_info),
// so each gets a fixed, non-variadic wrapper here. Modelled on CCurl's shim.h;
// prefixed `ipc_mhd_`, `ipc_tls_` and `ipc_crypt_`.
#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <microhttpd.h>
#include <gnutls/gnutls.h>
#include <gnutls/crypto.h>
#include <gnutls/x509.h>
#include <crypt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

typedef enum MHD_Result (*ipc_mhd_access_handler)(void *cls, struct MHD_Connection *connection, const char *url,
                                                  const char *method, const char *version, const char *upload_data,
                                                  size_t *upload_data_size, void **request_context);
typedef void (*ipc_mhd_completed_handler)(void *cls, struct MHD_Connection *connection, void **request_context,
                                          enum MHD_RequestTerminationCode reason);
typedef void (*ipc_mhd_connection_handler)(void *cls, struct MHD_Connection *connection, void **socket_context,
                                           enum MHD_ConnectionNotificationCode event);

/// `MHD_start_daemon` on `listen_fd` (a bound, listening socket the caller made) with one thread per connection
/// (handlers may block), poll(2) rather than select(2) (no FD_SETSIZE ceiling) and an inter-thread channel
/// (MHD_quiesce_daemon needs it). TLS when `cert_pem` and `key_pem` are given (NUL-terminated PEM text, GnuTLS
/// `priorities`); `trust_pem` names the CAs client certificates are verified against. `timeout_seconds` closes idle
/// connections; `memory_limit` bounds one connection's buffer, and so a request's header. NULL on failure.
static inline struct MHD_Daemon *ipc_mhd_start(int listen_fd, const char *cert_pem, const char *key_pem,
                                               const char *trust_pem, const char *priorities,
                                               unsigned int timeout_seconds, size_t memory_limit,
                                               ipc_mhd_access_handler access, ipc_mhd_completed_handler completed,
                                               ipc_mhd_connection_handler notify, void *context) {
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL | MHD_USE_ITC;
    struct MHD_OptionItem options[10];
    size_t n = 0;
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_SOCKET, listen_fd, NULL };
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)timeout_seconds, NULL };
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)memory_limit, NULL };
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, context };
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)notify, context };
    if (cert_pem != NULL && key_pem != NULL) {
        flags |= MHD_USE_TLS;
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)cert_pem };
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)key_pem };
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_PRIORITIES, 0, (void *)priorities };
        if (trust_pem != NULL)
            options[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_TRUST, 0, (void *)trust_pem };
    }
    options[n] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
    return MHD_start_daemon(flags, 0, NULL, NULL, access, context, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// bind(2) and listen(2) on a new TCP socket for `address`; an IPv6 wildcard also takes IPv4 (IPV6_V6ONLY off).
/// Returns the socket, or -1 with `*error_number` set.
static inline int ipc_listen_on(const struct sockaddr *address, socklen_t length, int *error_number) {
    int fd = socket(address->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) { *error_number = errno; return -1; }
    int on = 1, off = 0;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (address->sa_family == AF_INET6 && IN6_IS_ADDR_UNSPECIFIED(&((const struct sockaddr_in6 *)address)->sin6_addr))
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off);
    if (bind(fd, address, length) != 0 || listen(fd, SOMAXCONN) != 0) {
        *error_number = errno;
        close(fd);
        return -1;
    }
    return fd;
}

/// A listening TCP socket for MHD_OPTION_LISTEN_SOCKET, with SO_REUSEADDR as Go's net.Listen sets it. `host` is an
/// address literal or a name (getaddrinfo's first IPv4 answer, else its first: Go too listens on one address of a
/// name, IPv4 first); NULL, "0.0.0.0" and "::" listen on every address, dual-stack as Go does (IPv6 with IPV6_V6ONLY
/// off, IPv4 alone where the host has no IPv6). `port` is decimal. Returns the socket, or -1 with `*gai_error` (a
/// getaddrinfo code) or `*error_number` (an errno) set.
static inline int ipc_listen(const char *host, const char *port, int *error_number, int *gai_error) {
    *error_number = 0;
    *gai_error = 0;
    struct addrinfo hints = { .ai_flags = AI_PASSIVE | AI_NUMERICSERV, .ai_socktype = SOCK_STREAM };
    struct addrinfo *answers = NULL;
    int rc = getaddrinfo(host, port, &hints, &answers);
    if (rc != 0) { *gai_error = rc; if (rc == EAI_SYSTEM) *error_number = errno; return -1; }
    const struct addrinfo *chosen = answers;
    for (const struct addrinfo *a = answers; a != NULL; a = a->ai_next)
        if (a->ai_family == AF_INET) { chosen = a; break; }
    int wildcard = chosen->ai_family == AF_INET
        ? ((const struct sockaddr_in *)chosen->ai_addr)->sin_addr.s_addr == htonl(INADDR_ANY)
        : IN6_IS_ADDR_UNSPECIFIED(&((const struct sockaddr_in6 *)chosen->ai_addr)->sin6_addr);
    int fd = -1;
    if (wildcard) {
        in_port_t port_number = chosen->ai_family == AF_INET ? ((const struct sockaddr_in *)chosen->ai_addr)->sin_port
                                                             : ((const struct sockaddr_in6 *)chosen->ai_addr)->sin6_port;
        struct sockaddr_in6 any = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_ANY_INIT, .sin6_port = port_number };
        fd = ipc_listen_on((const struct sockaddr *)&any, sizeof any, error_number);
        if (fd >= 0 || *error_number != EAFNOSUPPORT) { freeaddrinfo(answers); return fd; }
        struct sockaddr_in any4 = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY), .sin_port = any.sin6_port };
        fd = ipc_listen_on((const struct sockaddr *)&any4, sizeof any4, error_number);
    } else {
        fd = ipc_listen_on(chosen->ai_addr, chosen->ai_addrlen, error_number);
    }
    freeaddrinfo(answers);
    return fd;
}

/// The port a socket is bound to (getsockname), or -1.
static inline int ipc_socket_port(int fd) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) return -1;
    if (address.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&address)->sin_port);
    if (address.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&address)->sin6_port);
    return -1;
}

/// The peer's address as "IP:PORT" or "[IPv6]:PORT" (an IPv4-mapped IPv6 address as plain IPv4, as Go writes it),
/// from `MHD_get_connection_info(MHD_CONNECTION_INFO_CLIENT_ADDRESS)`; "" when unknown. `out` needs 64 bytes.
static inline void ipc_mhd_client_address(struct MHD_Connection *connection, char *out, size_t out_len) {
    out[0] = 0;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    struct sockaddr_storage copy;
    socklen_t length = info->client_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    memcpy(&copy, info->client_addr, length);
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&copy;
    if (copy.ss_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr)) {
        struct sockaddr_in v4 = { .sin_family = AF_INET, .sin_port = v6->sin6_port };
        memcpy(&v4.sin_addr, &v6->sin6_addr.s6_addr[12], 4);
        memcpy(&copy, &v4, sizeof v4);
        length = sizeof v4;
    }
    char host[INET6_ADDRSTRLEN], port[8];
    if (getnameinfo((struct sockaddr *)&copy, length, host, sizeof host, port, sizeof port,
                    NI_NUMERICHOST | NI_NUMERICSERV) != 0) return;
    const char *format = copy.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s";
    snprintf(out, out_len, format, host, port);
}

/// The connection's GnuTLS session (`MHD_CONNECTION_INFO_GNUTLS_SESSION`), or NULL on a plain connection.
static inline gnutls_session_t ipc_mhd_tls_session(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
    return info == NULL ? NULL : (gnutls_session_t)info->tls_session;
}

/// 1 when the peer's certificate chain verifies against the daemon's trust (`MHD_OPTION_HTTPS_MEM_TRUST`) for
/// client authentication (`gnutls_certificate_verify_peers` with the TLS WWW client key purpose, which also checks
/// validity dates and signatures); 0 when it does not, -1 when the peer sent no certificate.
static inline int ipc_tls_peer_verified(gnutls_session_t session) {
    unsigned int count = 0, status = 0;
    if (gnutls_certificate_get_peers(session, &count) == NULL || count == 0) return -1;
    gnutls_typed_vdata_st purpose = { GNUTLS_DT_KEY_PURPOSE_OID, (unsigned char *)GNUTLS_KP_TLS_WWW_CLIENT, 0 };
    if (gnutls_certificate_verify_peers(session, &purpose, 1, &status) < 0) return 0;
    return status == 0 ? 1 : 0;
}

/// GnuTLS verification callbacks (`gnutls_session_set_verify_function`): nonzero fails the handshake.
static inline int ipc_tls_verify_required(gnutls_session_t session) { return ipc_tls_peer_verified(session) == 1 ? 0 : -1; }
static inline int ipc_tls_verify_if_given(gnutls_session_t session) { return ipc_tls_peer_verified(session) == 0 ? -1 : 0; }

/// Applies a client-certificate policy to a session before its handshake (MHD's connection-started notification
/// runs after MHD made the session and before the handshake): `require` makes the certificate mandatory
/// (GNUTLS_CERT_REQUIRE, else GNUTLS_CERT_REQUEST), `verify` fails the handshake on a certificate that does not verify.
static inline void ipc_tls_client_policy(gnutls_session_t session, int require, int verify) {
    gnutls_certificate_server_set_request(session, require ? GNUTLS_CERT_REQUIRE : GNUTLS_CERT_REQUEST);
    if (verify) gnutls_session_set_verify_function(session, require ? ipc_tls_verify_required : ipc_tls_verify_if_given);
}

/// Loads PEM `cert` and `key` (and `trust`, client CAs, when not NULL) into throwaway GnuTLS credentials
/// (`gnutls_certificate_set_x509_key_mem`, `gnutls_certificate_set_x509_trust_mem`) to tell why they are unusable,
/// which MHD_start_daemon does not. Returns 0, or a GnuTLS error code (`gnutls_strerror`) with `*part` 1 for the
/// certificate and key, 2 for the CAs (GNUTLS_E_NO_CERTIFICATE_FOUND when they hold no certificate).
static inline int ipc_tls_check(const char *cert, const char *key, const char *trust, int *part) {
    gnutls_certificate_credentials_t credentials = NULL;
    int rc = gnutls_certificate_allocate_credentials(&credentials);
    *part = 1;
    if (rc < 0) return rc;
    gnutls_datum_t cert_datum = { (unsigned char *)cert, (unsigned int)strlen(cert) };
    gnutls_datum_t key_datum = { (unsigned char *)key, (unsigned int)strlen(key) };
    rc = gnutls_certificate_set_x509_key_mem(credentials, &cert_datum, &key_datum, GNUTLS_X509_FMT_PEM);
    if (rc >= 0 && trust != NULL) {
        *part = 2;
        gnutls_datum_t trust_datum = { (unsigned char *)trust, (unsigned int)strlen(trust) };
        rc = gnutls_certificate_set_x509_trust_mem(credentials, &trust_datum, GNUTLS_X509_FMT_PEM);
        if (rc == 0) rc = GNUTLS_E_NO_CERTIFICATE_FOUND;
    }
    gnutls_certificate_free_credentials(credentials);
    return rc < 0 ? rc : 0;
}

/// SHA-256 of `in` (`gnutls_hash_fast`) into `out` (32 bytes). Returns 1 on success.
static inline int ipc_tls_sha256(const void *in, size_t in_len, uint8_t *out) {
    return gnutls_hash_fast(GNUTLS_DIG_SHA256, in, in_len, out) == 0;
}

/// Whether `setting` is a hash libcrypt accepts (`crypt_checksalt` says CRYPT_SALT_OK).
static inline int ipc_crypt_setting_ok(const char *setting) { return crypt_checksalt(setting) == CRYPT_SALT_OK; }

/// 1 when `crypt_r(password, hash)` reproduces `hash` exactly, compared in constant time over the hash's length;
/// 0 otherwise (including libcrypt's failure tokens, which never equal a hash).
static inline int ipc_crypt_matches(const char *password, const char *hash) {
    struct crypt_data *data = calloc(1, sizeof *data);
    if (data == NULL) return 0;
    const char *out = crypt_r(password, hash, data);
    size_t length = strlen(hash);
    unsigned char difference = out == NULL || strlen(out) != length;
    if (!difference) for (size_t i = 0; i < length; i++) difference |= (unsigned char)(out[i] ^ hash[i]);
    explicit_bzero(data, sizeof *data);
    free(data);
    return difference == 0;
}

#endif
