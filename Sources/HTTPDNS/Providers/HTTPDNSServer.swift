import CurlKit

/// One HTTPDNS API server (`--httpdns-server URL`) and how ipcurl reaches it.
///
/// A vendor server given by IP over `https` is verified against the vendor's documented service name when
/// there is one: requests go to `https://NAME:PORT/…` with `NAME:PORT:IP` pinned through `CURLOPT_RESOLVE`,
/// as Alibaba's own C SDK does. Without a service name the certificate must cover the IP itself.
/// - SeeAlso: `CURLOPT_RESOLVE`, `CURLOPT_URL`.
public struct HTTPDNSServer: Sendable, Equatable {
    /// Where request paths are appended: scheme, host, port and any path prefix, no trailing slash.
    public let base: String
    /// `scheme://host:port/path`, plus the verified name when pinned: what `-v` and errors show. Never a query.
    public let label: String
    /// The pin that lets the certificate be checked against the vendor's service name, if any.
    public let pin: ResolveEntry?

    /// Parses a server URL (`http://` or `https://`, no user info, query or fragment); throws a usage error.
    /// `serviceName` is the vendor's documented TLS name for its servers, used when the host is an IP.
    public init(_ text: String, serviceName: String? = nil) throws(CurlError) {
        let url: CurlURL
        do { url = try CurlURL(text, guessScheme: false) } catch {
            throw CurlError.usage("--httpdns-server \(ResolveEntry.quoted(text)): \(error.message)")
        }
        guard url.scheme == "http" || url.scheme == "https", !url.hasCredentials, !url.hasQueryOrFragment else {
            throw CurlError.usage("--httpdns-server \(ResolveEntry.quoted(text)): expected http:// or https://HOST[:PORT][/PATH]")
        }
        let prefix = url.path.hasSuffix("/") ? String(url.path.dropLast()) : url.path
        let hostPart = url.host.contains(":") ? "[\(url.host)]" : url.host
        let address = IPAddress(url.host)
        if url.scheme == "https", let address, let serviceName,
           let pin = ResolveEntry(host: serviceName, port: url.port, addresses: [address]) {
            base = "https://\(pin.host):\(url.port)\(prefix)"
            label = "https://\(hostPart):\(url.port)\(prefix) as \(pin.host)"
            self.pin = pin
        } else {
            base = "\(url.scheme)://\(hostPart):\(url.port)\(prefix)"
            label = "\(url.scheme)://\(hostPart):\(url.port)\(prefix)"
            pin = nil
        }
    }

    /// Parses every URL in `texts`.
    public static func list(_ texts: [String], serviceName: String? = nil) throws(CurlError) -> [HTTPDNSServer] {
        var servers: [HTTPDNSServer] = []
        for text in texts { servers.append(try HTTPDNSServer(text, serviceName: serviceName)) }
        return servers
    }
}
