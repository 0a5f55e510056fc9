import CurlKit

/// What a finished (or failed) transfer reports to `-w`: curl's getinfo values plus the exit code and message.
///
/// Strings that libcurl reports as `NULL` (no `Content-Type`, no redirect, no referer, no scheme before a
/// connection, output to stdout) are kept as `""` here; `%{json}` prints those as `null`, as curl does.
/// - SeeAlso: `curl_easy_getinfo`, curl's `-w/--write-out` variables.
public struct TransferReport: Sendable {
    /// `%{http_code}` / `%{response_code}`; 0 before any response.
    public var responseCode = 0
    /// `%{remote_ip}`, `%{remote_port}`, `%{local_ip}`, `%{local_port}`.
    public var remoteIP = "", remotePort = 0, localIP = "", localPort = 0
    /// Times in microseconds since the start: `%{time_namelookup}` … `%{time_total}`, and ipcurl's `%{dns_time}`.
    public var times = PhaseTimes()
    /// `%{size_download}`, `%{size_upload}`, `%{size_header}`, `%{size_request}`, `%{speed_download}`,
    /// `%{speed_upload}` (bytes per second).
    public var counts = TransferCounts()
    /// `%{url_effective}`: the URL last requested.
    public var effectiveURL: String
    /// `%{url}`: the URL as given on the command line; `%{urlnum}`: its 0-based index among the URLs given.
    public var url: String, urlNumber = 0
    /// `%{redirect_url}`, `%{content_type}`, `%{scheme}` (libcurl spells it upper-case: `HTTPS`).
    public var redirectURL = "", contentType = "", scheme = ""
    /// `%{method}` (`CURLINFO_EFFECTIVE_METHOD`: the last request's method) and `%{referer}` (`CURLINFO_REFERER`).
    public var method = "GET", referer = ""
    /// `%{filename_effective}`: the `-o` file; empty for stdout.
    public var filenameEffective = ""
    /// `%{num_redirects}`, `%{num_connects}`, `%{ssl_verify_result}`, `%{http_version}` as curl prints it.
    public var numRedirects = 0, numConnects = 0, sslVerifyResult = 0, httpVersion = "0"
    /// `%{http_connect}` (a proxy's CONNECT response code) and `%{proxy_ssl_verify_result}`.
    public var httpConnectCode = 0, proxySSLVerifyResult = 0
    /// `%{exitcode}` and `%{errormsg}`.
    public var exitCode: Int32 = 0, errorMessage = ""
    /// The last final response's headers: `%header{name}`, `%{num_headers}`.
    public var responseHeaders = ResponseHeaders()
    /// The peer's certificates (leaf first) as libcurl lists them, when `-w` asks for `%{certs}`.
    public var certificates: [[String]] = []
    /// Whether `%header{name}` can read ``responseHeaders``: not after `--max-redirs` ran out, where curl has
    /// already begun the next request (whose headers are empty) while `%{num_headers}` still counts the last ones.
    public var headersReadable = true
    /// libcurl's version text (`curl_version()`), the last member of `%{json}`; set by the caller.
    public var curlVersion = ""
    /// ipcurl's `%{dns_source}`: which resolver gave the addresses (`aliyun`, `cache`, `system`, ...); empty for
    /// an IP literal. `%{dns_time}` is in ``times``.
    public var dnsSource = ""

    /// A report for a request that never reached libcurl (bad URL, resolution failure).
    public init(url: String) {
        self.url = url
        effectiveURL = url
    }

    /// Reads every value from `handle` after `curl_easy_perform` returned; `url` is the URL as given.
    /// ``responseHeaders``, ``filenameEffective``, ``curlVersion`` and the ipcurl values are the caller's to set.
    init(handle: EasyHandle, url: String) {
        self.init(url: url)
        effectiveURL = handle.effectiveURL ?? url
        responseCode = handle.responseCode
        remoteIP = handle.primaryIP ?? ""
        remotePort = handle.primaryPort
        localIP = handle.localIP ?? ""
        localPort = handle.localPort
        times = PhaseTimes(handle: handle)
        counts = TransferCounts(handle: handle)
        redirectURL = handle.redirectURL ?? ""
        contentType = handle.contentType ?? ""
        scheme = handle.scheme ?? ""
        method = handle.effectiveMethod ?? method
        referer = handle.referer ?? ""
        numRedirects = handle.redirectCount
        numConnects = handle.connectCount
        sslVerifyResult = handle.tlsVerifyResult
        httpConnectCode = handle.proxyConnectCode
        proxySSLVerifyResult = handle.proxyTLSVerifyResult
        httpVersion = Self.versionText(handle.responseHTTPVersion)
    }

    /// `%{http_version}`: `1`, `1.1`, `2`, `3`, or `0` before any response.
    private static func versionText(_ version: HTTPVersion?) -> String {
        switch version {
        case .http1_0: "1"
        case .http1_1: "1.1"
        case .http2, .http2TLS, .http2PriorKnowledge: "2"
        case .http3: "3"
        case nil: "0"
        }
    }

    /// One report for a redirect chain that ipcurl followed hop by hop (one easy handle each), with the values
    /// `curl -L` reports for the same chain. Checked against curl 7.88.1 on a local server (302 hops, a hop
    /// whose body trickles for 0.1 s, a cross-host hop, POST with and without `--post302`, `-e ';auto'`):
    /// - summed over the hops: `time_namelookup`, `time_connect`, `time_appconnect`, `time_pretransfer`,
    ///   `time_starttransfer` (libcurl adds each hop's phase time, measured from that hop's start), `time_total`,
    ///   `size_header`, `size_request`, `num_connects`, and ipcurl's `dns_time`;
    /// - `time_redirect`: the total time of every hop before the last; `num_redirects`: hops − 1;
    /// - `speed_download` / `speed_upload`: the last hop's size over the whole chain's `time_total`;
    /// - `url` and `urlnum` from the first hop; everything else (code, headers, sizes downloaded and uploaded,
    ///   `url_effective`, `redirect_url`, addresses, method, referer, scheme, exit code, `dns_source`, ...)
    ///   from the last.
    /// A single hop is returned as it is; an empty list gives an empty report.
    /// - SeeAlso: curl's `-L/--location`, `CURLINFO_REDIRECT_TIME_T`, `CURLINFO_REDIRECT_COUNT`.
    public static func chain(_ hops: [TransferReport]) -> TransferReport {
        var chain = RedirectChain()
        for hop in hops { chain.append(hop) }
        return chain.report
    }
}

/// One response header line: the name as the server spelt it and the value without surrounding blanks.
/// - SeeAlso: `curl_easy_header`, `struct curl_header`.
public struct HeaderField: Equatable, Sendable {
    /// The field name, e.g. `Content-Type`.
    public var name: String
    /// The value, leading and trailing blanks removed.
    public var value: String

    /// A field `name: value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The headers of the last final (non-1xx) response, built from header lines as libcurl's header callback
/// delivers them: a status line starts a new list (so a `100 Continue` block never survives), `Name: value`
/// lines are appended, an indented line continues the previous value, the blank line ends the block and
/// trailers after it are not kept (curl's `CURLH_HEADER` origin).
/// - SeeAlso: `CURLOPT_HEADERFUNCTION`, `curl_easy_header`, curl's `%header{name}` and `%{num_headers}`.
public struct ResponseHeaders: Equatable, Sendable {
    /// The fields in arrival order; their count is `%{num_headers}`.
    public private(set) var fields: [HeaderField] = []
    private var complete = false
    private var interim = false

    /// An empty list.
    public init() {}

    /// Feeds one raw header line (with or without its CRLF).
    public mutating func receive(_ line: UnsafeRawBufferPointer) {
        var end = line.count
        while end > 0, line[end - 1] == 0x0D || line[end - 1] == 0x0A { end -= 1 }
        let bytes = UnsafeRawBufferPointer(rebasing: line[0..<end])
        if Self.isStatusLine(bytes) {
            fields.removeAll(keepingCapacity: true)
            complete = false
            interim = Self.isInterim(bytes)
        } else if bytes.isEmpty {
            if !interim { complete = true }
        } else if complete {
            return
        } else if bytes[0] == 0x20 || bytes[0] == 0x09 {
            guard var last = fields.popLast() else { return }
            let more = Self.trimmed(bytes[...])
            last.value += last.value.isEmpty || more.isEmpty ? more : " " + more
            fields.append(last)
        } else if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            fields.append(HeaderField(name: String(decoding: bytes[..<colon], as: UTF8.self),
                                      value: Self.trimmed(bytes[(colon + 1)...])))
        }
    }

    /// Feeds one raw header line given as bytes.
    public mutating func receive(_ line: some Collection<UInt8>) {
        Array(line).withUnsafeBytes { receive($0) }
    }

    /// Whether `bytes` starts with `HTTP/`.
    private static func isStatusLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 5 && bytes[0] == 0x48 && bytes[1] == 0x54 && bytes[2] == 0x54 && bytes[3] == 0x50 && bytes[4] == 0x2F
    }

    /// Whether the status line's code (the second blank-separated word) is a three-digit 1xx.
    private static func isInterim(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var start = bytes.firstIndex(of: 0x20) else { return false }
        while start < bytes.count, bytes[start] == 0x20 { start += 1 }
        var end = start
        while end < bytes.count, bytes[end] != 0x20 { end += 1 }
        return end - start == 3 && bytes[start] == UInt8(ascii: "1")
    }

    /// Feeds one header line given as text.
    public mutating func receive(_ line: String) { receive(Array(line.utf8)) }

    /// The first value of the header `name` (ASCII case-insensitive), or `nil` when there is none.
    public func first(named name: String) -> String? {
        let wanted = Self.lowercased(name)
        return fields.first { Self.lowercased($0.name) == wanted }?.value
    }

    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let start = bytes.firstIndex(where: { !blank($0) }), let end = bytes.lastIndex(where: { !blank($0) })
        else { return "" }
        return String(decoding: bytes[start...end], as: UTF8.self)
    }

    private static func lowercased(_ text: String) -> [UInt8] {
        text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }
}
