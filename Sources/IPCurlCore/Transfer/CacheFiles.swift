#if canImport(Glibc)
import Glibc
#endif

/// What libcurl's alt-svc and HSTS cache files share: their lines, their expiry dates (`"YYYYMMDD HH:MM:SS"` in UTC,
/// or `"unlimited"`) and how they compare host names.
enum CacheFiles {
    /// The largest file read: libcurl's own cache files hold a line per origin.
    static let maximumBytes = 1 << 20

    /// The lines of the file at `path` (`-` is a file of that name, as libcurl opens it, not stdin); `nil` when it
    /// cannot be read (libcurl then starts with an empty cache).
    static func lines(of path: String) -> [Substring]? {
        guard let bytes = try? LocalFiles.read(path == "-" ? "./-" : path, atMost: maximumBytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    }

    /// `"YYYYMMDD` and `HH:MM:SS"` (the two words of a line, quotes included) as seconds since the epoch; `"unlimited"`
    /// as the largest; `nil` for anything else.
    static func seconds(_ day: Substring, _ time: Substring? = nil) -> Int? {
        if day == "\"unlimited\"" { return Int.max }
        guard let time else { return nil }
        let digits = day.filter(\.isNumber), clock = time.filter { $0.isNumber || $0 == ":" }.split(separator: ":")
        guard digits.count == 8, clock.count == 3, let date = Int(digits), let hour = Int(clock[0]), let minute = Int(clock[1]),
              let second = Int(clock[2]) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(date / 10000 - 1900)
        parts.tm_mon = Int32(date / 100 % 100 - 1)
        parts.tm_mday = Int32(date % 100)
        (parts.tm_hour, parts.tm_min, parts.tm_sec) = (Int32(hour), Int32(minute), Int32(second))
        return Int(timegm(&parts))
    }

    /// A host name as the cache files compare them: lowercased, without a trailing dot.
    static func plain(_ name: some StringProtocol) -> String {
        (name.hasSuffix(".") ? String(name.dropLast()) : String(name)).lowercased()
    }
}
