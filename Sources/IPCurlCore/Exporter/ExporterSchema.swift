/// The keys of blackbox_exporter 0.23's configuration file, as Debian 12's build (0.23.0-4) reads it: `Config`,
/// `Module` and `HTTPProbe` in blackbox's `config/config.go` at tag v0.23.0, and the `HTTPClientConfig` and
/// `TLSConfig` that `HTTPProbe` inlines from prometheus/common's `config/http_config.go`. Debian builds with its own
/// prometheus/common, which knows `max_version` and `proxy_connect_header` (v0.39 and later; the v0.37 of
/// upstream's go.mod does not) and not `no_proxy` or `proxy_from_environment` (v0.42): its `--config.check`
/// accepts the first two and refuses the others. blackbox decodes with yaml.v3's `KnownFields(true)`, so any other
/// key is an error there too.
enum ExporterSchema {
    /// `Config`: the only top-level key.
    static let fileKeys = ["modules"]
    /// `Module`'s keys.
    static let moduleKeys = ["prober", "timeout", "http", "tcp", "icmp", "dns", "grpc"]
    /// The probers blackbox runs (`Probers` in `prober/handler.go`); a module names one of them.
    static let probers = ["http", "tcp", "icmp", "dns", "grpc"]

    /// The `http:` keys ipcurl exporter reads.
    static let readHTTPKeys = [
        "valid_status_codes", "valid_http_versions", "method", "headers", "body", "fail_if_ssl", "fail_if_not_ssl",
        "fail_if_body_matches_regexp", "fail_if_body_not_matches_regexp", "fail_if_header_matches",
        "fail_if_header_not_matches", "follow_redirects", "no_follow_redirects", "tls_config", "basic_auth", "bearer_token",
        "preferred_ip_protocol", "ip_protocol_fallback",
    ]

    /// What a key ipcurl ignores must hold for blackbox to accept it.
    enum Shape {
        case bool, string, mapping
    }

    /// The `http:` keys blackbox knows and ipcurl exporter ignores (with a warning), in the order of
    /// docs/exporter.md's table; each is checked for its type only.
    static let ignoredHTTPKeys: [(key: String, shape: Shape)] = [
        ("compression", .string), ("body_size_limit", .string), ("enable_http2", .bool), ("proxy_url", .string),
        ("proxy_connect_header", .mapping), ("skip_resolve_phase_with_proxy", .bool), ("authorization", .mapping),
        ("oauth2", .mapping), ("bearer_token_file", .string),
    ]

    /// Every `http:` key: blackbox's, then ipcurl's own block.
    static let httpKeys = readHTTPKeys + ignoredHTTPKeys.map(\.key) + ["httpdns"]

    /// `tls_config:` (prometheus/common's `TLSConfig`).
    static let tlsKeys = ["ca_file", "cert_file", "key_file", "server_name", "insecure_skip_verify", "min_version", "max_version"]
    /// `TLSVersions` in prometheus/common: the spellings `min_version` and `max_version` take.
    static let tlsVersions: [(name: String, version: TLSVersion)] = [
        ("TLS10", .tls1_0), ("TLS11", .tls1_1), ("TLS12", .tls1_2), ("TLS13", .tls1_3),
    ]
    /// `basic_auth:` (prometheus/common's `BasicAuth`).
    static let basicAuthKeys = ["username", "password", "password_file"]
    /// An entry of `fail_if_header_matches` or `fail_if_header_not_matches` (`HeaderMatch`).
    static let headerMatchKeys = ["header", "regexp", "allow_missing"]
    /// ipcurl's own keys of `httpdns:`, beside the resolver keys of a targets file's `resolver:`.
    static let httpdnsKeys = ["all_ips", "compare_system"]

    /// `HTTPClientConfig.Validate`'s rules on credentials, in its order: when a key of `first` and one of `second`
    /// are both set, the file is refused with `message` (blackbox's words).
    static let exclusions: [(first: [String], second: [String], message: String)] = [
        (["bearer_token"], ["bearer_token_file"], "at most one of bearer_token & bearer_token_file must be configured"),
        (["basic_auth", "oauth2"], ["bearer_token", "bearer_token_file"],
         "at most one of basic_auth, oauth2, bearer_token & bearer_token_file must be configured"),
        (["authorization"], ["bearer_token", "bearer_token_file"],
         "authorization is not compatible with bearer_token & bearer_token_file"),
        (["authorization"], ["basic_auth", "oauth2"], "at most one of basic_auth, oauth2 & authorization must be configured"),
        (["oauth2"], ["basic_auth"], "at most one of basic_auth, oauth2 & authorization must be configured"),
    ]
}
