import CurlKit

/// curl's `-L/--location` rules, applied by ipcurl itself so that every hop's host is resolved through
/// HTTPDNS and pinned with its own resolve entry (libcurl's own following would only know the first one).
/// - SeeAlso: `CURLOPT_FOLLOWLOCATION`, `CURLOPT_MAXREDIRS`, `CURLOPT_POSTREDIR`, `CURLOPT_UNRESTRICTED_AUTH`.
public struct RedirectRules: Sendable, Equatable {
    /// `-L/--location`.
    public var follow = false
    /// `--max-redirs`: 50 by default as in curl, -1 for no limit.
    public var maxRedirects = 50
    /// `--location-trusted`: send credentials (`-u`, `Authorization`, `Cookie`) to other hosts too.
    public var trusted = false
    /// `--post301`, `--post302`, `--post303`: keep a POST a POST after that status.
    public var keepPost301 = false, keepPost302 = false, keepPost303 = false

    public init() {}

    /// The method semantics after a `status` redirect: whether the request becomes a body-less GET.
    /// 301/302 turn a POST into a GET, 303 turns everything but HEAD into a GET; 307/308 keep both.
    public func switchesToGet(status: Int, method: String) -> Bool {
        switch status {
        case 301: method == "POST" && !keepPost301
        case 302: method == "POST" && !keepPost302
        case 303: method != "HEAD" && !(method == "POST" && keepPost303)
        default: false
        }
    }

    /// Whether a hop to `url` may carry the credentials given for `origin`: same scheme, host and port, or
    /// `--location-trusted`.
    public func sendsCredentials(to url: CurlURL, origin: CurlURL) -> Bool {
        trusted || Self.sameServer(url, origin)
    }

    /// The `user[:password]` a hop to `url` requests with (percent-encoded, as in a URL), as curl 7.88 does it:
    /// none when the hop may not carry credentials (``sendsCredentials(to:origin:)``), else the URL's own, else
    /// the last one a URL of the chain named (`remembered`). curl sends a remembered one wherever credentials may
    /// go; here it goes only to the server it was named for, unless `--location-trusted`.
    public func userInfo(for url: CurlURL, origin: CurlURL, remembered: CurlURL?) -> String? {
        guard sendsCredentials(to: url, origin: origin) else { return nil }
        if let own = url.userInfo { return own }
        guard let remembered, trusted || Self.sameServer(url, remembered) else { return nil }
        return remembered.userInfo
    }

    /// Same scheme, host (case-insensitively) and port.
    static func sameServer(_ url: CurlURL, _ other: CurlURL) -> Bool {
        url.scheme == other.scheme && url.host.lowercased() == other.host.lowercased() && url.port == other.port
    }

    /// The scheme `location` starts with, lowercased: RFC 3986's `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`
    /// before a colon; `nil` when it has none (a relative reference, or text that only holds a colon).
    public static func scheme(of location: String) -> String? {
        let isLetter = { (byte: UInt8) in (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        let isSchemeByte = { (byte: UInt8) in
            isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || "+-.".utf8.contains(byte)
        }
        let bytes = location.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), let first = bytes.first, colon != bytes.startIndex,
              isLetter(first), bytes[..<colon].allSatisfy(isSchemeByte)
        else { return nil }
        return String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
    }

    /// Whether `status` with a Location is followed (curl 7.88 follows any 3xx with a Location, even 304).
    public static func isFollowed(status: Int) -> Bool { (300...399).contains(status) }

    /// The response header bytes one attempt may receive over its whole chain. libcurl 7.88 counts them for the
    /// transfer, redirects it follows included, and stops past 300 KiB (`MAX_HTTP_RESP_HEADER_SIZE`), so `curl -L`
    /// ends an endless redirect loop with exit 56 even under `--max-redirs -1`.
    public static let maxChainHeaderBytes = 300 * 1024

    /// curl's error for a chain whose response headers reached `total` bytes, past ``maxChainHeaderBytes``.
    static func headersTooLarge(_ total: Int) -> CurlError {
        CurlError.receiveError.with(message: "Too large response headers: \(total) > \(maxChainHeaderBytes)")
    }
}
