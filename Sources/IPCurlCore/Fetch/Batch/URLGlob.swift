import CurlKit

/// A URL with curl's glob patterns: `{a,b,c}` alternatives and `[1-10]`, `[01-10]` (zero-padded),
/// `[1-10:2]`, `[a-z]` ranges, expanded in curl's order (the last pattern varies fastest); `\[`, `\]`, `\{`, `\}`
/// are literal; an IPv6 literal such as `[::1]` is not a pattern. `#1`…`#9` in an output name stand for the
/// values of the first to ninth pattern (``substitute(into:values:)``).
/// - SeeAlso: curl's `src/tool_urlglob.c`, the "URL" section of curl(1), `-g/--globoff`.
public struct URLGlob: Sendable {
    private enum Part: Sendable {
        case text(String)
        case values(Values)
    }

    /// The values of one pattern, made on demand: a range is kept as its bounds, so a URL of `[1-100000]` holds
    /// no hundred thousand strings.
    private enum Values: Sendable {
        /// `{a,b,c}`.
        case alternatives([String])
        /// `[low-high:step]`, zero-padded to `width` digits.
        case numbers(low: Int, step: Int, count: Int, width: Int)
        /// `[a-z:step]`.
        case letters(low: UInt32, step: UInt32, count: Int)

        var count: Int {
            switch self {
            case .alternatives(let values): values.count
            case .numbers(_, _, let count, _), .letters(_, _, let count): count
            }
        }

        subscript(index: Int) -> String {
            switch self {
            case .alternatives(let values):
                return values[index]
            case let .numbers(low, step, _, width):
                let digits = String(low + index * step)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            case let .letters(low, step, _):
                return Unicode.Scalar(low + UInt32(index) * step).map { String(Character($0)) } ?? ""
            }
        }
    }

    private let parts: [Part]
    /// How many URLs the pattern expands to.
    public let count: Int

    /// Most URLs one pattern may expand to: a larger product is a usage error instead of hours of requests.
    public static let maximumCount = 100_000

    /// Parses `url`; a malformed pattern is curl's exit 3 naming the position (1-based, as curl counts).
    public init(_ url: String) throws(CurlError) {
        var parts: [Part] = []
        var text: [UInt8] = []
        let bytes = Array(url.utf8)
        var index = 0
        func fail(_ what: String, at position: Int) -> CurlError {
            CurlError.malformedURL.with(message: "\(what) in URL position \(position + 1): \(url)")
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count,
               [UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}")].contains(bytes[index + 1]) {
                text.append(bytes[index + 1])
                index += 2
            } else if byte == UInt8(ascii: "{") {
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")) else { throw fail("unmatched brace", at: index) }
                if bytes[(index + 1)..<close].contains(UInt8(ascii: "{")) || bytes[(index + 1)..<close].contains(UInt8(ascii: "[")) {
                    throw fail("nested brace", at: index)
                }
                let values = bytes[(index + 1)..<close].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
                    .map { String(decoding: $0, as: UTF8.self) }
                guard close > index + 1 else { throw fail("empty string within braces", at: index) }
                parts.append(.text(String(decoding: text, as: UTF8.self)))
                text = []
                parts.append(.values(.alternatives(values)))
                index = close + 1
            } else if byte == UInt8(ascii: "["), let close = Self.ipv6LiteralEnd(bytes, at: index) {
                text += bytes[index...close]
                index = close + 1
            } else if byte == UInt8(ascii: "[") {
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "]")) else { throw fail("bad range", at: index) }
                guard let values = Self.range(String(decoding: bytes[(index + 1)..<close], as: UTF8.self)) else {
                    throw fail("bad range", at: index)
                }
                parts.append(.text(String(decoding: text, as: UTF8.self)))
                text = []
                parts.append(.values(values))
                index = close + 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                throw fail("unmatched close brace/bracket", at: index)
            } else {
                text.append(byte)
                index += 1
            }
        }
        parts.append(.text(String(decoding: text, as: UTF8.self)))
        var count = 1
        for case .values(let values) in parts {
            let (product, overflow) = count.multipliedReportingOverflow(by: values.count)
            guard !overflow, product <= Self.maximumCount else {
                throw CurlError.malformedURL.with(message: "too many URLs in the pattern (at most \(Self.maximumCount)): \(url)")
            }
            count = product
        }
        self.parts = parts
        self.count = count
    }

    /// The `n`th URL (0-based) and the value each pattern took for it, in pattern order; made when asked, so a
    /// glob of any size costs the memory of one URL.
    public func url(_ n: Int) -> (url: String, values: [String]) {
        var choice: [Int] = []
        var rest = n
        for case .values(let values) in parts.reversed() {
            choice.append(rest % values.count)
            rest /= values.count
        }
        choice.reverse()
        var url = "", values: [String] = [], pattern = 0
        for part in parts {
            switch part {
            case .text(let text): url += text
            case .values(let options):
                let value = options[choice[pattern]]
                url += value
                values.append(value)
                pattern += 1
            }
        }
        return (url, values)
    }

    /// Whether `text` has none of the characters a pattern is made of (`{`, `}`, `[`, `]`, a backslash): it
    /// expands to itself alone.
    public static func isLiteral(_ text: String) -> Bool {
        !text.utf8.contains { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "}")
            || $0 == UInt8(ascii: "]") || $0 == UInt8(ascii: "\\") }
    }

    /// `template` with `#1`…`#9` replaced by the pattern values; a `#N` beyond them stays as written, as in curl.
    public static func substitute(into template: String, values: [String]) -> String {
        var result = ""
        var characters = template.makeIterator()
        var pending: Character? = nil
        while let character = pending ?? characters.next() {
            pending = nil
            guard character == "#" else { result.append(character); continue }
            guard let next = characters.next() else { result.append("#"); break }
            if let digit = next.wholeNumberValue, next.isASCII, digit >= 1, digit <= values.count {
                result += values[digit - 1]
            } else {
                result.append("#")
                pending = next
            }
        }
        return result
    }

    /// `[lo-hi]` or `[lo-hi:step]` over numbers (zero-padded to `lo`'s width when `lo` has a leading zero) or over
    /// single letters of the same case; `nil` when malformed, as curl also calls a step past the range's width
    /// (`[1-3:5]`, `[a-c:3]`, and any step but 1 over a single value).
    private static func range(_ text: String) -> Values? {
        var body = Substring(text), step = 1
        if let colon = body.firstIndex(of: ":") {
            guard let value = Int(body[body.index(after: colon)...]), value > 0 else { return nil }
            step = value
            body = body[..<colon]
        }
        let ends = body.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, !ends[0].isEmpty, !ends[1].isEmpty else { return nil }
        func stepFits(_ width: Int) -> Bool { width == 0 ? step == 1 : step <= width }
        if let low = Int(ends[0]), let high = Int(ends[1]), ends[0].allSatisfy(\.isASCII), low >= 0, high >= low {
            guard (high - low) / step < maximumCount, stepFits(high - low) else { return nil }
            let width = ends[0].hasPrefix("0") ? ends[0].count : 0
            return .numbers(low: low, step: step, count: (high - low) / step + 1, width: width)
        }
        guard ends[0].count == 1, ends[1].count == 1, let low = ends[0].unicodeScalars.first, let high = ends[1].unicodeScalars.first,
              low.properties.isASCIIHexDigit || low.properties.isAlphabetic, low.isASCII, high.isASCII, low.value <= high.value,
              (low.properties.isLowercase && high.properties.isLowercase) || (low.properties.isUppercase && high.properties.isUppercase)
        else { return nil }
        guard stepFits(Int(high.value - low.value)) else { return nil }
        let count = Int(high.value - low.value) / step + 1
        return .letters(low: low.value, step: count > 1 ? UInt32(step) : 0, count: count)
    }

    /// Where the IPv6 literal (hex digits, colons, dots, a `%` zone ID) that `[` at `index` opens ends with `]`;
    /// `nil` when it is not one.
    private static func ipv6LiteralEnd(_ bytes: [UInt8], at index: Int) -> Int? {
        guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "]")), close > index + 2 else { return nil }
        let inside = bytes[(index + 1)..<close]
        guard inside.contains(UInt8(ascii: ":")) else { return nil }
        let isLiteral = inside.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "%")
        }
        return isLiteral ? close : nil
    }
}
