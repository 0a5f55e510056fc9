import CurlKit

/// Everything the command line says about one request, already validated: the shared parts every hop sends
/// (``template``), what the first hop sends, how to follow and retry, and where the output goes.
public struct FetchRequest: Sendable {
    /// Headers, identity, cookies, HTTP version, fail mode, trust, TLS, proxy, tuning: the same on every hop.
    public var template = RequestTemplate()

    /// The URL as typed (with the `-G` query already appended); parsed by libcurl's URL parser.
    public var url: String
    /// `-I/--head`: a HEAD request whose headers are the output.
    public var head = false
    /// What the request sends (`-d`, `-F`, `-T`).
    public var payload = RequestPayload.none
    /// The `-T` file that could not be opened, as curl's exit 26: the transfer fails before it starts (nothing sent,
    /// `%{method}` GET), its `-w` line is printed all the same, and the run ends with it, as curl's does.
    public var unopenedUpload: CurlError?
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
    /// `-R/--remote-time`: the output file gets the document's time (`Last-Modified`).
    public var remoteTime = false
    /// `--no-clobber` (`false`): an existing output file is kept and the body goes to `NAME.1` ... `NAME.99`.
    public var replacesFiles = true
    /// `--xattr`: the output file's `user.xdg.origin.url`, `user.xdg.referrer.url` and `user.mime_type`.
    public var extendedAttributes = false
    /// `--remove-on-error`: a failed transfer leaves no output file, not even one it wrote in place (`-C`), nor the
    /// body of a `--fail-with-body` error.
    public var removesOnError = false
    /// `--etag-save`: where each response's ETag is written, one per line (`-` is stdout).
    public var etagSavePath: String?
    /// `-D/--dump-header`: a file (or `-`) that receives every response's headers.
    public var headerDumpPath: String?
    /// `-i/--include`: put response headers before the body.
    public var includeHeaders = false
    /// `--trace`, `--trace-ascii`: a dump of everything libcurl sends and receives.
    public var trace: TraceOutput?
    /// Whether a progress bar is drawn on stderr (a TTY, output to a file, no `-s`).
    public var showsProgress = false
    /// `-e/--referer`; `autoReferer` (`;auto`) sets each hop's Referer to the previous URL.
    public var referer: String?, autoReferer = false
    /// `-u/--user` as `user:password`; sent only to the first host unless `--location-trusted`.
    public var credentials: Secret?
    /// `-b/--cookie` `name=value` pairs: a credential, first host only (cookie files are the template's).
    public var cookies: String?
    /// `-L`, `--max-redirs`, `--location-trusted`, `--post30x`.
    public var redirects = RedirectRules()
    /// `--proto`, `--proto-redir`, `--proto-default`.
    public var protocols = ProtocolRules()
    /// `--retry` and friends.
    public var retry = RetryRules()
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
