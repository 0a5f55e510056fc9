#if canImport(Glibc)
import Glibc
#endif

/// libcurl's HSTS cache file read as libcurl 7.88 reads it (`hsts.c`), to know whether libcurl will request an
/// `http://` URL with `https://`: one host a line, `HOST "YYYYMMDD HH:MM:SS"` (or `"unlimited"`), a leading dot for
/// a host whose subdomains are included, `#` lines ignored, an expired entry never used.
/// - SeeAlso: `CURLOPT_HSTS`, curl's `--hsts`, https://curl.se/docs/hsts.html.
enum HSTSFile {
    /// Whether the file at `path` makes libcurl upgrade a request to `host`; `false` when it cannot be read
    /// (libcurl then starts with an empty cache).
    static func upgrades(_ host: String, in path: String, now: Int = Int(time(nil))) -> Bool {
        guard let lines = CacheFiles.lines(of: path) else { return false }
        let name = CacheFiles.plain(host)
        return lines.contains { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, !line.hasPrefix("#"),
                  let expires = CacheFiles.seconds(fields[1], fields.count > 2 ? fields[2] : nil), expires >= now else { return false }
            let listed = CacheFiles.plain(fields[0])
            if listed.hasPrefix(".") { return name == listed.dropFirst() || name.hasSuffix(listed) }
            return name == listed
        }
    }
}
