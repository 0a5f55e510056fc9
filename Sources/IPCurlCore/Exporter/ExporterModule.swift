/// One module of the exporter's configuration: what `GET /probe?module=NAME` runs.
public struct ExporterModule: Sendable {
    /// The prober the module names: `http`, or one of blackbox's others (`tcp`, `icmp`, `dns`, `grpc`), which ipcurl
    /// exporter does not run.
    public var prober: String
    /// The module's `timeout` in seconds; `nil` when it gives none (or `0s`), and the scrape's timeout rules alone.
    public var timeoutSeconds: Double?
    /// The `http:` block of a module of prober `http` (its defaults when the file gives none); `nil` for others.
    public var http: HTTPProbeModule?

    /// A module of `prober` with no timeout and no `http:` settings.
    public init(prober: String, timeoutSeconds: Double? = nil, http: HTTPProbeModule? = nil) {
        self.prober = prober
        self.timeoutSeconds = timeoutSeconds
        self.http = http
    }
}

/// The `http:` block of a module: what a probe sends and what makes it fail. Each default is blackbox_exporter
/// 0.23's (its CONFIGURATION.md and `DefaultHTTPProbe` in `config/config.go`).
public struct HTTPProbeModule: Sendable {
    /// `valid_status_codes`; empty means any 2xx (`prober/http.go`).
    public var validStatusCodes: [Int] = []
    /// `valid_http_versions` as written (`HTTP/1.1`, `HTTP/2.0`); empty means any.
    public var validHTTPVersions: [String] = []
    /// `method`; GET when the file gives none or an empty one (`prober/http.go`).
    public var method = "GET"
    /// `headers`, in file order. A `Host` header is the request's Host and the TLS server name, as in blackbox.
    public var headers: [(name: String, value: String)] = []
    /// `body`; `nil` when the file gives none or an empty one.
    public var body: String?
    /// `fail_if_ssl`: the probe fails when the final response came over TLS.
    public var failIfSSL = false
    /// `fail_if_not_ssl`: the probe fails when it did not.
    public var failIfNotSSL = false
    /// `fail_if_body_matches_regexp`: RE2 patterns, checked at load by ``ExporterRegex/compile(_:)``.
    public var failIfBodyMatches: [String] = []
    /// `fail_if_body_not_matches_regexp`, checked likewise.
    public var failIfBodyNotMatches: [String] = []
    /// `fail_if_header_matches`.
    public var failIfHeaderMatches: [HeaderMatch] = []
    /// `fail_if_header_not_matches`.
    public var failIfHeaderNotMatches: [HeaderMatch] = []
    /// `follow_redirects` (true by default: prometheus/common's `DefaultHTTPClientConfig`); the deprecated
    /// `no_follow_redirects` overrides it when given, as blackbox's `HTTPProbe.UnmarshalYAML` does.
    public var followRedirects = true
    /// `tls_config`.
    public var tls = TLSSettings()
    /// `basic_auth`, when given.
    public var basicAuth: BasicAuthSettings?
    /// `bearer_token`, when given and not empty.
    public var bearerToken: String?
    /// `preferred_ip_protocol`: ip6 by default, as in blackbox (CONFIGURATION.md; `chooseProtocol` in
    /// `prober/utils.go`, which reads anything but `ip6` or nothing as ip4).
    public var preferredIPProtocol = ProbeIPProtocol.ip6
    /// Whether the module gives `preferred_ip_protocol` (not null, not empty): then its preference wins over the
    /// command line's `-4`/`-6`, which otherwise choose the preferred family.
    public var preferredIPProtocolGiven = false
    /// `ip_protocol_fallback`: true by default (`DefaultHTTPProbe`).
    public var ipProtocolFallback = true
    /// ipcurl's `httpdns:` block, when given.
    public var httpdns: HTTPDNSBlock?

    /// blackbox's defaults.
    public init() {}
}

/// The address family a probe prefers (`preferred_ip_protocol`).
public enum ProbeIPProtocol: String, Sendable {
    case ip4, ip6
}

/// One entry of `fail_if_header_matches` or `fail_if_header_not_matches`.
public struct HeaderMatch: Sendable, Equatable {
    /// The header's name, never empty.
    public var header: String
    /// An RE2 pattern (``ExporterRegex``), never empty.
    public var regexp: String
    /// Whether a response without the header passes the check.
    public var allowMissing: Bool

    /// A match of `header` against `regexp`.
    public init(header: String, regexp: String, allowMissing: Bool) {
        self.header = header
        self.regexp = regexp
        self.allowMissing = allowMissing
    }
}

/// A module's `tls_config`: the trust and client certificate of its probes (not of the HTTPDNS queries). When no
/// `min_version` is given, blackbox's Go client allows TLS 1.2 and up (CONFIGURATION.md).
public struct TLSSettings: Sendable, Equatable {
    /// `ca_file`: the CA certificates that verify the target, instead of the system's.
    public var caFile: String?
    /// `cert_file`: the client certificate.
    public var certFile: String?
    /// `key_file`: the client certificate's key.
    public var keyFile: String?
    /// `insecure_skip_verify`.
    public var insecureSkipVerify: Bool
    /// `server_name`: the name the certificate is verified against (and the SNI).
    public var serverName: String?
    /// `min_version` (`TLS10` … `TLS13`).
    public var minVersion: TLSVersion?
    /// `max_version`.
    public var maxVersion: TLSVersion?

    /// Settings that change nothing, or the given ones.
    public init(caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil, insecureSkipVerify: Bool = false,
                serverName: String? = nil, minVersion: TLSVersion? = nil, maxVersion: TLSVersion? = nil) {
        self.caFile = caFile
        self.certFile = certFile
        self.keyFile = keyFile
        self.insecureSkipVerify = insecureSkipVerify
        self.serverName = serverName
        self.minVersion = minVersion
        self.maxVersion = maxVersion
    }
}

/// A module's `basic_auth`; at most one of `password` and `passwordFile` is set.
public struct BasicAuthSettings: Sendable, Equatable {
    /// `username` (empty when not given).
    public var username: String
    /// `password`, when given and not empty.
    public var password: String?
    /// `password_file`: a file holding the password, when given and not empty.
    public var passwordFile: String?

    /// `username` with `password` or `passwordFile`.
    public init(username: String, password: String?, passwordFile: String?) {
        self.username = username
        self.password = password
        self.passwordFile = passwordFile
    }
}

/// ipcurl's `httpdns:` block in a module's `http:`: how the module's targets are resolved.
public struct HTTPDNSBlock: Sendable, Equatable {
    /// The resolver keys (those of a targets file's `resolver:`, read with the trust of the operator's own
    /// configuration) as command-line options, in file order; they override the command line's for this module.
    public var resolverArguments: [ResolverArgument] = []
    /// `all_ips`: probe every address of the answer.
    public var allIPs = false
    /// `compare_system`: compare the answer with the system resolver's.
    public var compareSystem = false

    /// An empty block.
    public init() {}
}
