internal import CCurl

/// Named setters for what one HTTP request is: where it goes, how names are pinned, what it sends and which
/// credentials it carries, so that the layers above never spell a `CURLOPT_` constant for them.
extension EasyHandle {
    /// The address families a connection may use.
    /// - SeeAlso: `CURLOPT_IPRESOLVE`, curl's `-4/--ipv4` and `-6/--ipv6`.
    public enum IPFamilies: Sendable {
        case any, v4, v6
    }

    /// The URL to request and the protocols it (and any redirect libcurl follows) may use.
    /// - SeeAlso: `CURLOPT_URL`, `CURLOPT_PROTOCOLS_STR`.
    public func set(url: String, protocols: String = "http,https") throws(CurlError) {
        try set(CURLOPT_URL, url)
        try set(CURLOPT_PROTOCOLS_STR, protocols)
    }

    /// Which address families a connection may use.
    /// - SeeAlso: `CURLOPT_IPRESOLVE`.
    public func set(ipFamilies: IPFamilies) throws(CurlError) {
        switch ipFamilies {
        case .any: try set(CURLOPT_IPRESOLVE, Int(CURL_IPRESOLVE_WHATEVER))
        case .v4: try set(CURLOPT_IPRESOLVE, Int(CURL_IPRESOLVE_V4))
        case .v6: try set(CURLOPT_IPRESOLVE, Int(CURL_IPRESOLVE_V6))
        }
    }

    /// `HOST:PORT:ADDR[,ADDR]` entries libcurl uses instead of resolving; the list lives as long as the handle.
    /// - SeeAlso: `CURLOPT_RESOLVE`.
    public func set(resolveEntries: [String]) throws(CurlError) { try set(CURLOPT_RESOLVE, list: resolveEntries) }

    /// `HOST:PORT:CONNECT-HOST:CONNECT-PORT` entries: a request for `HOST:PORT` connects to the other host and port,
    /// keeping the URL's name for SNI, `Host` and verification. Unlike a resolve entry, the connection is kept apart
    /// from connections to the same name at another address, so two handles pinning one name to two addresses never
    /// share one. The list lives as long as the handle.
    /// - SeeAlso: `CURLOPT_CONNECT_TO`.
    public func set(connectTo entries: [String]) throws(CurlError) { try set(CURLOPT_CONNECT_TO, list: entries) }

    /// Request header lines, verbatim (`Name: value`, `Name:` to drop one, `Name;` for an empty one).
    /// - SeeAlso: `CURLOPT_HTTPHEADER`.
    public func set(headers: [String]) throws(CurlError) { try set(CURLOPT_HTTPHEADER, list: headers) }

    /// The `User-Agent`; empty sends none.
    /// - SeeAlso: `CURLOPT_USERAGENT`.
    public func set(userAgent: String) throws(CurlError) { try set(CURLOPT_USERAGENT, userAgent) }

    /// A HEAD request: headers only.
    /// - SeeAlso: `CURLOPT_NOBODY`.
    public func set(headOnly: Bool) throws(CurlError) { try set(CURLOPT_NOBODY, headOnly ? 1 : 0) }

    /// Back to a plain GET after a body-carrying request on the same handle.
    /// - SeeAlso: `CURLOPT_HTTPGET`.
    public func setPlainGet() throws(CurlError) { try set(CURLOPT_HTTPGET, 1) }

    /// The method string sent instead of the one the request implies.
    /// - SeeAlso: `CURLOPT_CUSTOMREQUEST`.
    public func set(customMethod: String) throws(CurlError) { try set(CURLOPT_CUSTOMREQUEST, customMethod) }

    /// The `Referer` header.
    /// - SeeAlso: `CURLOPT_REFERER`.
    public func set(referer: String) throws(CurlError) { try set(CURLOPT_REFERER, referer) }

    /// Ask for every encoding libcurl can decode, and decode it.
    /// - SeeAlso: `CURLOPT_ACCEPT_ENCODING`.
    public func acceptEveryEncoding() throws(CurlError) { try set(CURLOPT_ACCEPT_ENCODING, "") }

    /// An HTTP status of 400 or more ends the transfer with exit 22.
    /// - SeeAlso: `CURLOPT_FAILONERROR`.
    public func set(failsOnHTTPError: Bool) throws(CurlError) { try set(CURLOPT_FAILONERROR, failsOnHTTPError ? 1 : 0) }

    /// The HTTP version to ask for.
    /// - SeeAlso: `CURLOPT_HTTP_VERSION`.
    public func set(httpVersion: HTTPVersion) throws(CurlError) { try set(CURLOPT_HTTP_VERSION, httpVersion.curlValue) }

    /// A POST of `size` bytes, read from ``requestBody``.
    /// - SeeAlso: `CURLOPT_POST`, `CURLOPT_POSTFIELDSIZE_LARGE`.
    public func setPost(size: Int64) throws(CurlError) {
        try set(CURLOPT_POST, 1)
        try set(CURLOPT_POSTFIELDSIZE_LARGE, offset: size)
    }

    /// An upload (PUT) read from ``requestBody``: `size` bytes, or chunked when `nil`.
    /// - SeeAlso: `CURLOPT_UPLOAD`, `CURLOPT_INFILESIZE_LARGE`.
    public func setUpload(size: Int64?) throws(CurlError) {
        try set(CURLOPT_UPLOAD, 1)
        if let size { try set(CURLOPT_INFILESIZE_LARGE, offset: size) }
    }

    /// Wait for a connection a sibling transfer on the same multi handle is opening, to share it (HTTP/2).
    /// - SeeAlso: `CURLOPT_PIPEWAIT`.
    public func set(waitsToMultiplex: Bool) throws(CurlError) { try set(CURLOPT_PIPEWAIT, waitsToMultiplex ? 1 : 0) }

    /// `user:password` for server authentication.
    /// - SeeAlso: `CURLOPT_USERPWD`.
    public func set(userPassword: String) throws(CurlError) { try set(CURLOPT_USERPWD, userPassword) }

    /// `name=value; name=value` cookies sent as they are.
    /// - SeeAlso: `CURLOPT_COOKIE`.
    public func set(cookies: String) throws(CurlError) { try set(CURLOPT_COOKIE, cookies) }

    /// The file every cookie the engine holds is written to when the handle is cleaned up (`-` is stdout); it
    /// turns the cookie engine on.
    /// - SeeAlso: `CURLOPT_COOKIEJAR`.
    public func set(cookieJar: String) throws(CurlError) { try set(CURLOPT_COOKIEJAR, cookieJar) }

    /// Start a new cookie session: session cookies (no expiry) read from files are dropped.
    /// - SeeAlso: `CURLOPT_COOKIESESSION`.
    public func startNewCookieSession() throws(CurlError) { try set(CURLOPT_COOKIESESSION, 1) }

    /// A cookie file read into the cookie engine; each call adds one.
    /// - SeeAlso: `CURLOPT_COOKIEFILE`.
    public func set(cookieFile: String) throws(CurlError) { try set(CURLOPT_COOKIEFILE, cookieFile) }

    /// Opens a new connection for this transfer instead of reusing one from the pool; the new connection stays
    /// in the pool for later transfers.
    /// - SeeAlso: `CURLOPT_FRESH_CONNECT`.
    public func opensNewConnection() throws(CurlError) { try set(CURLOPT_FRESH_CONNECT, 1) }
}
