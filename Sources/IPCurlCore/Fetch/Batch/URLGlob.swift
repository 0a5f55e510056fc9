import CurlKit

/// A URL with curl's glob patterns: `{a,b,c}` alternatives and `[1-10]`, `[01-10]` (zero-padded),
/// `[1-10:2]`, `[a-z]` ranges, expanded in curl's order (the last pattern varies fastest); `\[`, `\]`, `\{`, `\}`
/// are literal; an IPv6 literal such as `[::1]` is not a pattern. `#1`…`#9` in an output name stand for the
/// values of the first to ninth pattern (``substitute(into:values:)``). A glob has curl 7.88's limits and no other:
/// its URLs number at most 2^64 - 1, made one at a time, and a pattern curl refuses is refused with curl's words.
/// - SeeAlso: curl's `src/tool_urlglob.c`, the "URL" section of curl(1), `-g/--globoff`.
public struct URLGlob: Sendable {
    enum Part: Sendable {
        case text(String)
        case values(Values)
    }

    /// The values of one pattern, made on demand: a range is kept as its bounds, so a URL of `[1-100000]` holds
    /// no hundred thousand strings.
    enum Values: Sendable {
        /// `{a,b,c}`.
        case alternatives([String])
        /// `[low-high:step]`, zero-padded to `width` digits.
        case numbers(low: UInt64, step: UInt64, count: UInt64, width: Int)
        /// `[a-z:step]`: single bytes.
        case letters(low: UInt8, step: UInt8, count: UInt64)

        var count: UInt64 {
            switch self {
            case .alternatives(let values): UInt64(values.count)
            case .numbers(_, _, let count, _), .letters(_, _, let count): count
            }
        }

        subscript(index: UInt64) -> String {
            switch self {
            case .alternatives(let values):
                return values[Int(index)]
            case let .numbers(low, step, _, width):
                let digits = String(low + index * step)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            case let .letters(low, step, _):
                return String(decoding: [low + UInt8(index) * step], as: UTF8.self)
            }
        }
    }

    private let parts: [Part]
    /// How many URLs the pattern expands to.
    public let count: UInt64

    /// Parses `url` as curl 7.88 does; a pattern curl refuses is its exit 3 with its words and the position it
    /// names (``Parser``).
    public init(_ url: String) throws(CurlError) {
        var parser = Parser(url)
        (parts, count) = try parser.parse()
    }

    /// The `n`th URL (0-based) and the value each pattern took for it, in pattern order; made when asked, so a
    /// glob of any size costs the memory of one URL.
    public func url(_ n: UInt64) -> (url: String, values: [String]) {
        var choice: [UInt64] = []
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
}
