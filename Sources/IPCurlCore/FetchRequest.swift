import CurlKit

/// Everything the command line says about one request, already validated: what to fetch, how to resolve it,
/// and where the output goes.
public struct FetchRequest: Sendable {
    /// The URL as typed; parsed by libcurl's URL parser when the fetch runs.
    public var url: String
    /// `-X/--request`: the method to send instead of GET/POST.
    public var method: String?
    /// `-H/--header` lines, verbatim.
    public var headers: [String] = []
    /// The `-d/--data` body, already joined with `&` and stripped of newlines where curl strips them.
    public var body: [UInt8]?
    /// `-o/--output`: a file instead of stdout.
    public var outputPath: String?
    /// `-i/--include`: put response headers before the body.
    public var includeHeaders = false
    /// `-v/--verbose`: ipcurl's resolution decisions, then libcurl's verbose trace, on stderr.
    public var verbose = false
    /// Whether warnings (a TLS failure moving the request to the next IP) go to stderr; off with `-s`.
    public var showsWarnings = true
    /// TLS and timeouts, shared with the HTTPDNS queries.
    public var transport = TransportOptions()
    /// How host names become addresses.
    public var resolver = ResolverSettings()
    /// `-w/--write-out` format, already read from `@file` when given that way.
    public var writeOut: String?

    /// A GET of `url` with everything else at curl's defaults.
    public init(url: String) { self.url = url }
}
