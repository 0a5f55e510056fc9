internal import CCurl

/// Named setters for where a connection goes and leaves from, besides the URL: a unix socket instead of TCP, the
/// local interface and port, and the alt-svc and HSTS caches that can send it elsewhere.
extension EasyHandle {
    /// Connects through the unix socket at `path` (`abstract`: a name in Linux's abstract namespace) instead of
    /// TCP; libcurl resolves no name then, and uses no proxy.
    /// - SeeAlso: `CURLOPT_UNIX_SOCKET_PATH`, `CURLOPT_ABSTRACT_UNIX_SOCKET`, curl's `--unix-socket`,
    ///   `--abstract-unix-socket`.
    public func set(unixSocket path: String, abstract: Bool) throws(CurlError) {
        try set(abstract ? CURLOPT_ABSTRACT_UNIX_SOCKET : CURLOPT_UNIX_SOCKET_PATH, path)
    }

    /// The local interface or address connections leave from, in libcurl's syntax (`if!NAME`, `host!ADDRESS`,
    /// `ADDRESS`, `NAME`).
    /// - SeeAlso: `CURLOPT_INTERFACE`, curl's `--interface`.
    public func set(interface: String) throws(CurlError) { try set(CURLOPT_INTERFACE, interface) }

    /// The local port connections leave from: `first`, or the first free one of `count` ports from it.
    /// - SeeAlso: `CURLOPT_LOCALPORT`, `CURLOPT_LOCALPORTRANGE`, curl's `--local-port`.
    public func set(localPort first: Int, count: Int) throws(CurlError) {
        try set(CURLOPT_LOCALPORT, first)
        try set(CURLOPT_LOCALPORTRANGE, count)
    }

    /// The alt-svc cache file, read when the handle is configured and written when it is cleaned up; libcurl
    /// connects to an alternative it lists for the URL's host and port.
    /// - SeeAlso: `CURLOPT_ALTSVC`, curl's `--alt-svc`.
    public func set(altSvcFile path: String) throws(CurlError) { try set(CURLOPT_ALTSVC, path) }

    /// The HSTS cache file, read when the handle is configured and written when it is cleaned up; libcurl
    /// requests an `http://` URL of a host it lists with `https://`.
    /// - SeeAlso: `CURLOPT_HSTS`, curl's `--hsts`.
    public func set(hstsFile path: String) throws(CurlError) { try set(CURLOPT_HSTS, path) }
}
