import CurlKit
import HTTPDNS

/// What one http probe does, as a blackbox_exporter module says it, in ipcurl's terms.
/// - SeeAlso: blackbox_exporter `config/config.go` (`HTTPProbe`); `CURLOPT_CAINFO`, `CURLOPT_SSL_VERIFYPEER`,
///   `CURLOPT_SSLVERSION`, `CURLOPT_FOLLOWLOCATION` (followed by the probe itself, each hop resolved through HTTPDNS).
public struct BlackboxHTTPSettings: Sendable {
    /// A header rule of `fail_if_header_matches` / `fail_if_header_not_matches`.
    public struct HeaderRule: Sendable {
        /// The header name (case-insensitive).
        public var header: String
        /// The regular expression.
        public var regexp: String
        /// Whether a missing header passes.
        public var allowMissing: Bool

        /// A rule for `header`.
        public init(header: String, regexp: String, allowMissing: Bool = false) {
            self.header = header
            self.regexp = regexp
            self.allowMissing = allowMissing
        }
    }

    /// `valid_status_codes`; empty means 2xx.
    public var validStatusCodes: [Int] = []
    /// `valid_http_versions` as Go spells them: `HTTP/1.1`, `HTTP/2.0`.
    public var validHTTPVersions: [String] = []
    /// `method`.
    public var method = "GET"
    /// `headers`, in file order; a `Host` header sets the Host and the TLS name, as in blackbox.
    public var headers: [(name: String, value: String)] = []
    /// `body`.
    public var body: String?
    /// `fail_if_ssl`, `fail_if_not_ssl`.
    public var failIfSSL = false, failIfNotSSL = false
    /// `fail_if_body_matches_regexp`, `fail_if_body_not_matches_regexp`.
    public var failIfBodyMatches: [String] = [], failIfBodyNotMatches: [String] = []
    /// `fail_if_header_matches`, `fail_if_header_not_matches`.
    public var failIfHeaderMatches: [HeaderRule] = [], failIfHeaderNotMatches: [HeaderRule] = []
    /// `follow_redirects` (at most 10, as Go's client).
    public var followRedirects = true
    /// `tls_config`: `ca_file`.
    public var caFile: String?
    /// `tls_config.insecure_skip_verify`.
    public var insecureSkipVerify = false
    /// `tls_config.server_name`: the TLS name (SNI and verification) instead of the URL's host.
    public var serverName: String?
    /// `tls_config`: `cert_file`, `key_file`, `min_version`, `max_version`.
    public var tls = TargetTLSOptions()
    /// `basic_auth`: user and password.
    public var basicAuth: (user: String, password: String)?
    /// `bearer_token`.
    public var bearerToken: String?
    /// `preferred_ip_protocol`: `ip6` (blackbox's default) or `ip4`.
    public var preferredFamily = IPAddress.Family.v6
    /// `ip_protocol_fallback`.
    public var ipProtocolFallback = true
    /// `httpdns.all_ips`: probe every address of the answer.
    public var allIPs = false
    /// `httpdns.compare_system`: also ask the system resolver and report whether its answer differs.
    public var compareSystem = false

    /// Blackbox's defaults.
    public init() {}

    /// Whether a regular expression reads the body.
    var readsBody: Bool { !failIfBodyMatches.isEmpty || !failIfBodyNotMatches.isEmpty }
}
