#if canImport(Glibc)
import Glibc
#endif

/// libcurl's alt-svc cache file read as libcurl 7.88 reads it (`altsvc.c`), to know which alternative a
/// connection will take before libcurl takes it: one entry a line, `SRC-ALPN SRC-HOST SRC-PORT DST-ALPN DST-HOST
/// DST-PORT "YYYYMMDD HH:MM:SS" PERSIST PRIORITY`, `#` lines ignored, an expired entry never used.
/// - SeeAlso: `CURLOPT_ALTSVC`, curl's `--alt-svc`, https://curl.se/docs/alt-svc.html.
enum AltSvcFile {
    /// An alternative for a host and port.
    struct Alternative: Equatable {
        let alpn: String
        let host: String
        let port: Int
    }

    /// The alternative libcurl takes for an https request to `host`:`port`: the first unexpired entry for it
    /// whose source protocol is h2, else the first whose source is h1, whose destination is h1 or h2 (libcurl 7.88
    /// as built here has no HTTP/3, so an h3 alternative is never taken); `nil` when there is none or the file
    /// cannot be read (libcurl then starts with an empty cache).
    static func alternative(in path: String, host: String, port: Int, now: Int = Int(time(nil))) -> Alternative? {
        guard let entries = CacheFiles.lines(of: path)?.compactMap({ entry($0, now: now) }) else { return nil }
        for source in ["h2", "h1"] {
            if let found = entries.first(where: { $0.source == source && sameHost($0.sourceHost, host) && $0.sourcePort == port
                && ["h1", "h2"].contains($0.alternative.alpn) }) {
                return found.alternative
            }
        }
        return nil
    }

    private struct Entry {
        let source: String
        let sourceHost: String
        let sourcePort: Int
        let alternative: Alternative
    }

    /// One line's entry, or `nil` for a comment, a line libcurl would not read, or an expired entry.
    private static func entry(_ line: Substring, now: Int) -> Entry? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 8, !line.hasPrefix("#"), let sourcePort = Int(fields[2]), let port = Int(fields[5]),
              let expires = CacheFiles.seconds(fields[6], fields[7]), expires >= now,
              let source = alpn(fields[0]), let destination = alpn(fields[3]) else { return nil }
        var host = String(fields[4])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return Entry(source: source, sourceHost: String(fields[1]), sourcePort: sourcePort,
                     alternative: Alternative(alpn: destination, host: host, port: port))
    }

    /// `h1`, `h2` or `h3` for a protocol name libcurl knows (`http/1.1` is h1).
    private static func alpn(_ name: Substring) -> String? {
        switch name.lowercased() {
        case "h1", "http/1.1": "h1"
        case "h2": "h2"
        case "h3": "h3"
        default: nil
        }
    }

    /// libcurl's comparison of alt-svc host names: without case, a trailing dot on either ignored.
    private static func sameHost(_ first: String, _ second: String) -> Bool {
        CacheFiles.plain(first) == CacheFiles.plain(second)
    }
}
