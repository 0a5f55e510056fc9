#if canImport(Glibc)
import Glibc
#endif

/// HTTP dates (`Last-Modified`) as Go's `http.ParseTime` reads them: RFC 1123 (`Sun, 06 Nov 1994 08:49:37 GMT`),
/// RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`).
/// - SeeAlso: RFC 9110 §5.6.7.
enum HTTPDate {
    /// The English month abbreviations HTTP, asctime and OpenSSL write, January first.
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Unix seconds of `text`, or `nil` when it is none of the three forms.
    static func seconds(_ text: String) -> Int64? {
        let fields = text.split(separator: " ")
        var day: Int32?, month: Int?, year: Int32?, clock: Substring?
        if fields.count == 6, fields[0].hasSuffix(","), fields[5] == "GMT" {  // RFC 1123
            (day, month, year, clock) = (Int32(fields[1]), months.firstIndex(of: String(fields[2])), Int32(fields[3]), fields[4])
        } else if fields.count == 4, fields[0].hasSuffix(","), fields[3] == "GMT" {  // RFC 850
            let date = fields[1].split(separator: "-")
            guard date.count == 3, let short = Int32(date[2]) else { return nil }
            (day, month, year, clock) = (Int32(date[0]), months.firstIndex(of: String(date[1])), short < 70 ? 2000 + short : 1900 + short, fields[2])
        } else if fields.count == 5 {  // asctime
            (day, month, year, clock) = (Int32(fields[2]), months.firstIndex(of: String(fields[1])), Int32(fields[4]), fields[3])
        }
        guard let day, let month, let year, let clock, (1...31).contains(day) else { return nil }
        return utcSeconds(year: year, month: month, day: day, clock: clock)
    }

    /// Seconds since 1970 of a UTC date (`month` 0 for January) at `clock` (`HH:MM:SS`); `nil` for another clock.
    static func utcSeconds(year: Int32, month: Int, day: Int32, clock: Substring) -> Int64? {
        let time = clock.split(separator: ":").compactMap { Int32($0) }
        guard time.count == 3 else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = Int32(month)
        parts.tm_mday = day
        (parts.tm_hour, parts.tm_min, parts.tm_sec) = (time[0], time[1], time[2])
        return Int64(timegm(&parts))
    }
}
