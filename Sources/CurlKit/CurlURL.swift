#if canImport(Glibc)
import Glibc
#endif
internal import CCurl

/// A URL parsed by libcurl's own URL parser, so ipcurl accepts exactly what curl accepts.
/// - SeeAlso: `curl_url`, `curl_url_set`, `curl_url_get`, `CURLU_GUESS_SCHEME`, `CURLU_DEFAULT_PORT`.
public struct CurlURL: Sendable, Equatable {
    /// The normalized URL as libcurl will request it.
    public let text: String
    /// Lowercase scheme, e.g. `https`.
    public let scheme: String
    /// The host as libcurl connects to it and looks it up, without brackets for IPv6 literals: an
    /// internationalized name is in its ASCII (punycode A-label) form, a trailing dot is kept.
    public let host: String
    /// The host as written (an IDN in Unicode), when it differs from ``host``; for messages only.
    public let unicodeHost: String?
    /// The explicit port or the scheme's default.
    public let port: Int
    /// The path, `/` at least (read from ``text`` when asked for: most URLs never need it apart).
    public var path: String { Self.part(CURLUPART_PATH, of: text) ?? "/" }
    /// Whether the URL holds a user name or password.
    public let hasCredentials: Bool
    /// The query without `?`, if any (may hold secrets: never print it; read from ``text`` when asked for).
    public var query: String? { text.utf8.contains(UInt8(ascii: "?")) ? Self.part(CURLUPART_QUERY, of: text) : nil }
    /// `user[:password]`, if any (a secret: never print it).
    public let userInfo: String?
    /// `scheme://host:port/path`, with user info, query and fragment removed: safe for logs and `-v`.
    public var redacted: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(hostPart):\(port)\(path)"
    }

    /// The URL without user info and fragment, as libcurl sends it as an automatic `Referer`.
    /// - SeeAlso: `CURLOPT_AUTOREFERER`.
    public var referer: String {
        // `text` is the normalized URL: parsed again as it is, with its path kept as it is.
        Self.rebuilt(text, flags: UInt32(CURLU_NON_SUPPORT_SCHEME) | UInt32(CURLU_PATH_AS_IS)) { handle in
            for which in [CURLUPART_USER, CURLUPART_PASSWORD, CURLUPART_FRAGMENT] { curl_url_set(handle, which, nil, 0) }
        } ?? text
    }

    /// Parses `text`; a missing scheme is guessed as curl does (`example.com` → `http://example.com/`).
    /// `pathAsIs` keeps `/../` and `/./` in the path (`--path-as-is`). Throws exit 3 for a malformed URL.
    /// - SeeAlso: `CURLU_PATH_AS_IS`.
    public init(_ input: String, guessScheme: Bool = true, pathAsIs: Bool = false) throws(CurlError) {
        guard let handle = curl_url() else { throw CurlError.outOfMemory }
        defer { curl_url_cleanup(handle) }
        let flags = UInt32(guessScheme ? CURLU_GUESS_SCHEME : 0) | UInt32(CURLU_NON_SUPPORT_SCHEME)
            | UInt32(pathAsIs ? CURLU_PATH_AS_IS : 0)
        let result = curl_url_set(handle, CURLUPART_URL, input, flags)
        guard result == CURLUE_OK else {
            let why = String(cString: curl_url_strerror(result))
            throw CurlError.malformedURL.with(message: "URL rejected: \(why)")
        }
        try self.init(parsed: handle, length: input.utf8.count)
    }

    /// A redirect's `location` resolved against `base`, as libcurl resolves it when it follows one (`curl -L`:
    /// URL-encoding what needs it, spaces allowed): what libcurl cannot resolve is curl's error,
    /// `The redirect target URL could not be parsed: REASON`, exit 3 (1 for a scheme libcurl does not speak).
    /// - SeeAlso: libcurl's `Curl_follow`, `CURLU_URLENCODE`, `CURLU_ALLOW_SPACE`.
    public init(redirect location: String, from base: CurlURL, pathAsIs: Bool = false) throws(CurlError) {
        guard let handle = curl_url() else { throw CurlError.outOfMemory }
        defer { curl_url_cleanup(handle) }
        let asIs = UInt32(pathAsIs ? CURLU_PATH_AS_IS : 0)
        guard curl_url_set(handle, CURLUPART_URL, base.text, UInt32(CURLU_NON_SUPPORT_SCHEME) | asIs) == CURLUE_OK else {
            throw CurlError.malformedURL.with(message: "URL rejected: \(base.redacted)")
        }
        let result = curl_url_set(handle, CURLUPART_URL, location, UInt32(CURLU_URLENCODE) | UInt32(CURLU_ALLOW_SPACE) | asIs)
        guard result == CURLUE_OK else {
            let error: CurlError = switch result {
            case CURLUE_UNSUPPORTED_SCHEME: .unsupportedProtocol
            case CURLUE_OUT_OF_MEMORY: .outOfMemory
            case CURLUE_USER_NOT_ALLOWED: .loginDenied
            default: .malformedURL
            }
            throw error.with(message: "The redirect target URL could not be parsed: \(String(cString: curl_url_strerror(result)))")
        }
        try self.init(parsed: handle, length: location.utf8.count)
    }

    /// The parts of the URL `handle` holds; `length` is the input's, for a message.
    private init(parsed handle: OpaquePointer, length: Int) throws(CurlError) {
        func part(_ which: CURLUPart, _ flags: Int32 = 0) -> String? { Self.part(which, of: handle, flags: UInt32(flags)) }
        // The normalized URL always starts with its scheme and `://`: the scheme is read from it, not asked for.
        guard let url = part(CURLUPART_URL), let written = part(CURLUPART_HOST),
              let schemeEnd = url.utf8.firstIndex(of: UInt8(ascii: ":")) else {
            throw CurlError.malformedURL.with(message: "URL rejected: no host in \(length) bytes")
        }
        let scheme = url[..<schemeEnd]
        let isASCII = written.utf8.allSatisfy { $0 < 0x80 }
        if !isASCII { Self.useUTF8Locale() }
        guard let host = isASCII ? written : part(CURLUPART_HOST, CURLU_PUNYCODE) else {
            throw CurlError.malformedURL.with(message: "URL rejected: the host name cannot be converted to an IDN A-label")
        }
        text = url
        self.scheme = scheme.lowercased()
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        unicodeHost = host == written ? nil : written
        port = part(CURLUPART_PORT, CURLU_DEFAULT_PORT).flatMap { Int($0) } ?? 0
        // A part whose delimiter the normalized URL lacks is not there: user info is asked for only after an `@`.
        let hasAt = url.utf8.contains(UInt8(ascii: "@"))
        let user = hasAt ? part(CURLUPART_USER) : nil, password = hasAt ? part(CURLUPART_PASSWORD) : nil
        hasCredentials = user != nil || password != nil
        userInfo = hasCredentials ? (user ?? "") + (password.map { ":" + $0 } ?? "") : nil
    }

    /// ``text`` with `userInfo` (`user[:password]`, percent-encoded as in a URL; `nil` for none) instead of its
    /// own: what a redirect hop requests when it may carry other credentials than its URL names, or none.
    public func text(withUserInfo userInfo: String?) -> String {
        guard userInfo != self.userInfo else { return text }
        let parts = userInfo.map { $0.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init) } ?? []
        return Self.rebuilt(text, flags: UInt32(CURLU_NON_SUPPORT_SCHEME)) { handle in
            curl_url_set(handle, CURLUPART_USER, parts.first, 0)
            curl_url_set(handle, CURLUPART_PASSWORD, parts.count > 1 ? parts[1] : nil, 0)
        } ?? text
    }

    /// ``text`` with `host` (a name, or an IPv6 address without brackets) instead of its own; `nil` when libcurl
    /// refuses the host.
    public func text(withHost host: String) -> String? {
        var accepted = true
        let written = host.contains(":") ? "[\(host)]" : host
        let result = Self.rebuilt(text, flags: UInt32(CURLU_NON_SUPPORT_SCHEME)) { handle in
            accepted = curl_url_set(handle, CURLUPART_HOST, written, 0) == CURLUE_OK
        }
        return accepted ? result : nil
    }

    /// Part `which` of the parsed URL `handle`, or `nil` when it has none.
    static func part(_ which: CURLUPart, of handle: OpaquePointer, flags: UInt32 = 0) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, which, &value, flags) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
    }

    /// Part `which` of `url` (a normalized URL, parsed again as it is), or `nil` when it has none.
    private static func part(_ which: CURLUPart, of url: String) -> String? {
        parsed(url, flags: UInt32(CURLU_NON_SUPPORT_SCHEME) | UInt32(CURLU_PATH_AS_IS)) { part(which, of: $0) }
    }

    /// `url` parsed with `flags`, changed by `edit`, and put together again as libcurl spells it; `nil` when it
    /// does not parse.
    private static func rebuilt(_ url: String, flags: UInt32, _ edit: (OpaquePointer) -> Void) -> String? {
        parsed(url, flags: flags) { handle in
            edit(handle)
            return part(CURLUPART_URL, of: handle)
        }
    }

    /// What `read` finds in `url` parsed with `flags` by a handle of its own; `nil` when it does not parse.
    private static func parsed<T>(_ url: String, flags: UInt32, _ read: (OpaquePointer) -> T?) -> T? {
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, url, flags) == CURLUE_OK else { return nil }
        return read(handle)
    }

    /// libcurl converts IDNs with libidn2's locale-dependent `idn2_lookup_ul`, so a program that never called
    /// `setlocale` (the C locale) cannot convert `bücher.example`. Swift strings are UTF-8, so the character type
    /// becomes the user's locale when it is UTF-8, else `C.UTF-8`. Done only for a non-ASCII host: it costs
    /// start-up time no other request needs.
    private static func useUTF8Locale() {
        if let name = setlocale(LC_CTYPE, ""), String(cString: name).lowercased().hasUTF8CodeSet() { return }
        _ = setlocale(LC_CTYPE, "C.UTF-8")
    }
}

private extension String {
    /// Whether a locale name ends in a UTF-8 code set (`en_US.UTF-8`, `C.utf8`).
    func hasUTF8CodeSet() -> Bool { hasSuffix(".utf-8") || hasSuffix(".utf8") }
}
