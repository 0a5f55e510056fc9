#if canImport(Glibc)
import Glibc
#endif
import CurlKit

extension URLGlob {
    /// curl 7.88.1's glob parser (`glob_parse`, `glob_set`, `glob_range` in `src/tool_urlglob.c`) over a URL's
    /// bytes: its grammar (numbers read by `strtoul`, a letter range of at most 26 letters, an IPv6 literal or `[]`
    /// kept as text), its limits (a URL count that fits 64 bits, at most 100 parts) and its messages, with the
    /// position curl names: 1-based, counted as curl counts it, where a set's closing brace and the bytes of an
    /// IPv6 literal or `[]` add nothing. A count past 64 bits found at a set names no position, as in curl.
    struct Parser {
        private let url: String
        private let bytes: [UInt8]
        private var index = 0
        private var position = 1
        private var count: UInt64 = 1
        private var parts: [Part] = []

        /// The most parts (texts and patterns) a URL may have: curl's `GLOB_PATTERN_NUM`.
        static let maximumParts = 100

        init(_ url: String) {
            self.url = url
            bytes = Array(url.utf8)
        }

        /// The URL's parts and how many URLs they make.
        mutating func parse() throws(CurlError) -> ([Part], UInt64) {
            while index < bytes.count {
                var text: [UInt8] = []
                while index < bytes.count, bytes[index] != UInt8(ascii: "{") {
                    let current = bytes[index]
                    if current == UInt8(ascii: "[") {
                        let skip = literalBracketLength() ?? (byte(at: index + 1) == UInt8(ascii: "]") ? 2 : 0)
                        guard skip > 0 else { break }
                        text += bytes[index..<(index + skip)]
                        index += skip
                        continue
                    }
                    if current == UInt8(ascii: "}") || current == UInt8(ascii: "]") {
                        throw failure("unmatched close brace/bracket", at: position)
                    }
                    if current == UInt8(ascii: "\\"), Self.isSpecial(byte(at: index + 1)) {
                        index += 1
                        position += 1
                    }
                    text.append(bytes[index])
                    index += 1
                    position += 1
                }
                if !text.isEmpty {
                    parts.append(.text(String(decoding: text, as: UTF8.self)))
                } else if index < bytes.count {
                    let isSet = bytes[index] == UInt8(ascii: "{")
                    index += 1
                    position += 1
                    parts.append(.values(isSet ? try set() : try range()))
                }
                if parts.count >= Self.maximumParts { throw failure("too many globs", at: position) }
            }
            return (parts, count)
        }

        /// `{a,b,...}` after its `{`: elements up to the closing brace, a backslash escaping any byte.
        private mutating func set() throws(CurlError) -> Values {
            let opening = position - 1, start = index
            var elements: [String] = [], element: [UInt8] = []
            while true {
                guard index < bytes.count else { throw failure("unmatched brace", at: opening) }
                switch bytes[index] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    throw failure("nested brace", at: position)
                case UInt8(ascii: "}"):
                    guard index > start else { throw failure("empty string within braces", at: position) }
                    try multiply(by: UInt64(elements.count + 1), at: 0)
                    elements.append(String(decoding: element, as: UTF8.self))
                    index += 1
                    return .alternatives(elements)
                case UInt8(ascii: ","):
                    elements.append(String(decoding: element, as: UTF8.self))
                    element = []
                    index += 1
                    position += 1
                case UInt8(ascii: "]"):
                    throw failure("unexpected close bracket", at: position)
                default:
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                        index += 1
                        position += 1
                    }
                    element.append(bytes[index])
                    index += 1
                    position += 1
                }
            }
        }

        /// `[lo-hi]` or `[lo-hi:step]` after its `[`: numbers (zero-padded when `lo` starts with `0`) or letters.
        private mutating func range() throws(CurlError) -> Values {
            let start = index
            let first = byte(at: start)
            if Self.isLetter(first) {
                let (low, high, end) = (first, byte(at: start + 2), byte(at: start + 3))
                var matched = byte(at: start + 1) == UInt8(ascii: "-") && high != 0 && end != 0
                var step: UInt64 = 1
                if matched, end == UInt8(ascii: ":") {
                    let number = Self.strtoul(bytes, from: start + 4)
                    if number.overflowed || number.end == start + 4 || byte(at: number.end) != UInt8(ascii: "]") {
                        step = 0
                    } else {
                        step = number.value
                        index = number.end + 1
                    }
                } else if matched, end == UInt8(ascii: "]") {
                    index = start + 4
                } else {
                    matched = false
                }
                position += index - start
                // curl compares `char`s: a byte past 0x7F is below every letter.
                let (lowest, highest) = (Int(Int8(bitPattern: low)), Int(Int8(bitPattern: high)))
                guard matched, step != 0, step <= UInt64(Int32.max),
                      lowest == highest ? step == 1 : lowest < highest && step <= UInt64(highest - lowest) && highest - lowest <= 25
                else { throw failure("bad range", at: position) }
                let letters = UInt64(highest - lowest) / step + 1
                try multiply(by: letters, at: position)
                return .letters(low: low, step: UInt8(step), count: letters)
            }
            guard Self.isDigit(first) else { throw failure("bad range specification", at: position) }
            let width = first == UInt8(ascii: "0") ? bytes[start...].prefix(while: Self.isDigit).count : 0
            var (low, high, step): (UInt64, UInt64, UInt64) = (0, 0, 0)
            var wellFormed = false
            var cursor = start
            let lowest = Self.strtoul(bytes, from: cursor)
            if !lowest.overflowed, lowest.end != cursor, byte(at: lowest.end) == UInt8(ascii: "-") {
                low = lowest.value
                cursor = lowest.end + 1
                while byte(at: cursor) == UInt8(ascii: " ") || byte(at: cursor) == UInt8(ascii: "\t") { cursor += 1 }
                if Self.isDigit(byte(at: cursor)) {
                    let highest = Self.strtoul(bytes, from: cursor)
                    if !highest.overflowed {
                        high = highest.value
                        var end = highest.end, overflowed = false
                        if byte(at: end) == UInt8(ascii: ":") {
                            cursor = end + 1
                            let given = Self.strtoul(bytes, from: cursor)
                            (step, end, overflowed) = (given.value, given.end, given.overflowed)
                        } else {
                            step = 1
                        }
                        if !overflowed, byte(at: end) == UInt8(ascii: "]") {
                            cursor = end + 1
                            wellFormed = true
                        }
                    }
                }
            }
            index = cursor
            position += cursor - start
            guard wellFormed, step != 0, low == high ? step == 1 : low < high && step <= high - low else {
                throw failure("bad range", at: position)
            }
            // (high - low) / step + 1 wraps to 0 only for all 2^64 numbers, which no count can hold.
            let numbers = (high - low) / step &+ 1
            guard numbers != 0 else { throw failure("range overflow", at: position) }
            try multiply(by: numbers, at: position)
            return .numbers(low: low, step: step, count: numbers, width: width)
        }

        /// The URL count times `factor`; past 64 bits it is curl's "range overflow" (`at` 0: no position).
        private mutating func multiply(by factor: UInt64, at position: Int) throws(CurlError) {
            let (product, overflowed) = count.multipliedReportingOverflow(by: factor)
            guard !overflowed else { throw failure("range overflow", at: position) }
            count = product
        }

        /// How long the IPv6 literal (up to its `]`) that the `[` at ``index`` opens is, as curl tells one: libcurl's
        /// URL parser takes it as a host; `nil` when it is none.
        private func literalBracketLength() -> Int? {
            guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "]")), close - index + 1 < 128 else { return nil }
            let candidate = String(decoding: bytes[index...close], as: UTF8.self)
            guard (try? CurlURL(candidate)) != nil else { return nil }
            return close - index + 1
        }

        private func byte(at offset: Int) -> UInt8 { offset < bytes.count ? bytes[offset] : 0 }

        private func failure(_ what: String, at position: Int) -> CurlError {
            CurlError.malformedURL.with(message: position > 0 ? "\(what) in URL position \(position): \(url)" : "\(what): \(url)")
        }

        private static func isSpecial(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
        }

        private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }

        /// libc's `strtoul` (base 10) at `offset`, as curl reads a range's numbers: blanks and a sign first, the
        /// value, where it stopped (`offset` when nothing was read) and whether it overflowed (`ERANGE`).
        static func strtoul(_ bytes: [UInt8], from offset: Int) -> (value: UInt64, end: Int, overflowed: Bool) {
            guard offset < bytes.count else { return (0, offset, false) }
            // strtoul stops at a `]` at the latest; copying up to it keeps each call within its own pattern.
            let stop = bytes[offset...].firstIndex(of: UInt8(ascii: "]")) ?? bytes.count
            var text = Array(bytes[offset..<stop]).map { CChar(bitPattern: $0) } + [0]
            return text.withUnsafeMutableBufferPointer { buffer in
                let start = buffer.baseAddress!
                var end: UnsafeMutablePointer<CChar>? = start
                errno = 0
                let value = Glibc.strtoul(start, &end, 10)
                let overflowed = errno == ERANGE
                return (UInt64(value), offset + ((end ?? start) - start), overflowed)
            }
        }
    }
}
