import CurlKit

/// Everything the command line says about one request, already validated: what to fetch and send, how to
/// resolve it, how to follow and retry, and where the output goes.
public struct FetchRequest: Sendable {
    /// How `-f/--fail` treats an HTTP status of 400 or more.
    public enum FailMode: Sendable { case off, fail, failWithBody }

    /// The URL as typed (with the `-G` query already appended); parsed by libcurl's URL parser.
    public var url: String
    /// `-X/--request`: the method string sent on every hop instead of the inferred one.
    public var method: String?
    /// `-I/--head`: a HEAD request whose headers are the output.
    public var head = false
    /// `-H/--header` lines, verbatim.
    public var headers: [String] = []
    /// What the request sends (`-d`, `-F`, `-T`).
    public var payload = RequestPayload.none
    /// `-o/--output` (or `-O`'s name): a file instead of stdout; `-` is stdout.
    public var outputPath: String?
    /// `-J/--remote-header-name`: with `-O`, name the file after the response's `Content-Disposition` filename.
    public var remoteHeaderName = false
    /// `-C/--continue-at`: where the download resumes; the output file is appended to.
    public enum ResumePoint: Sendable, Equatable {
        /// `-C N`.
        case offset(Int64)
        /// `-C -`: at the output file's current size.
        case automatic
    }
    public var resume: ResumePoint?
    /// `--create-dirs`.
    public var createDirectories = false
    /// `-D/--dump-header`: a file (or `-`) that receives every response's headers.
    public var headerDumpPath: String?
    /// `-i/--include`: put response headers before the body.
    public var includeHeaders = false
    /// `--trace`, `--trace-ascii`: a dump of everything libcurl sends and receives.
    public var trace: TraceOutput?
    /// Whether a progress bar is drawn on stderr (a TTY, output to a file, no `-s`).
    public var showsProgress = false
    /// `--compressed`: ask for every encoding libcurl can decode and decode it.
    public var compressed = false
    /// `-f/--fail`, `--fail-with-body`.
    public var fail = FailMode.off
    /// `--http1.0`, `--http1.1`, `--http2`; `nil` is libcurl's default.
    public var httpVersion: HTTPVersion?
    /// `-A/--user-agent`; `nil` sends `ipcurl/VERSION`, empty sends none.
    public var userAgent: String?
    /// `-e/--referer`; `autoReferer` (`;auto`) sets each hop's Referer to the previous URL.
    public var referer: String?, autoReferer = false
    /// `-u/--user` as `user:password`; sent only to the first host unless `--location-trusted`.
    public var credentials: Secret?
    /// `-b/--cookie`: `name=value` pairs (a credential, first host only), or a cookie file for the engine.
    public var cookies: String?, cookieFiles: [String] = []
    /// `-c/--cookie-jar`: where every cookie is written at the end (`-` is stdout).
    public var cookieJar: String?
    /// `-j/--junk-session-cookies`: cookies without an expiry read from files are dropped.
    public var junkSessionCookies = false
    /// `-L`, `--max-redirs`, `--location-trusted`, `--post30x`.
    public var redirects = RedirectRules()
    /// `--limit-rate`, `-r`, `--path-as-is`, `--raw`, `--ignore-content-length`, `--max-filesize`,
    /// `--happy-eyeballs-timeout-ms`.
    public var tuning = TransferTuning()
    /// `--retry` and friends.
    public var retry = RetryRules()
    /// TLS trust and timeouts, shared with the HTTPDNS queries.
    public var transport = TransportOptions()
    /// The target's own TLS (versions, ciphers, client certificate, pinned key, `--cert-status`); never the
    /// HTTPDNS queries'.
    public var tls = TargetTLSOptions()
    /// The client key's passphrase (`-E CERT:PASSWORD`, or ipcurl's `--pass FILE` / `$IPCURL_PASS`). A credential.
    public var keyPassphrase: Secret?
    /// `-x`, `--noproxy`, `--proxy-user`: the target's proxy; never the HTTPDNS queries'.
    public var proxy = ProxySettings()
    /// `-w/--write-out` format, already read from `@file` when given that way.
    public var writeOut: String? {
        didSet {
            let format = writeOut.map(WriteOut.asciiLowercased) ?? ""
            collectsCertificates = ["%{certs}", "%{num_certs}", "%{json}"].contains { format.contains($0) }
        }
    }
    /// Whether the peer's certificate chain is kept for `%{certs}`, `%{num_certs}` and `%{json}`.
    var collectsCertificates = false

    /// A GET of `url` with everything else at curl's defaults.
    public init(url: String) { self.url = url }

    /// The method the first hop sends, as `%{method}` reports it.
    var firstMethod: String { head ? "HEAD" : payload.inferredMethod }
}
