/// A parsed JSON document (RFC 8259), strict: one value, no trailing garbage, no comments, at most 32 levels deep.
///
/// HTTPDNS answers are small and their types matter (a string where an array belongs is a rejected answer),
/// so this parser keeps integers apart from other numbers and reports the first problem in one line.
/// It exists so the resolver layer does not pull Foundation into a CLI whose startup time is a feature.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses `bytes` (UTF-8) or throws a ``JSONError`` naming the offset of the first problem.
    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        var parser = JSONParser(bytes)
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.atEnd else { throw parser.error("trailing data") }
        return value
    }

    /// The member `key` of an object, or `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] } else { return nil }
    }

    /// A short name of the value's type for error messages: `string`, `array`, ...
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer, .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// Why a body is not JSON.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong and at which byte offset.
    public let description: String
}

private struct JSONParser {
    static let maximumDepth = 32
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }

    func error(_ what: String) -> JSONError { JSONError(description: "not JSON: \(what) at byte \(index)") }

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws(JSONError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("nested too deeply") }
        skipSpace()
        guard !atEnd else { throw error("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number()
        }
    }

    mutating func literal(_ word: String) throws(JSONError) {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("unexpected character")
        }
        index += expected.count
    }

    mutating func object(depth: Int) throws(JSONError) -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if !atEnd, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard !atEnd, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try string()
            skipSpace()
            guard !atEnd, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            guard members.updateValue(try value(depth: depth + 1), forKey: key) == nil else {
                throw error("duplicate member \(Printable.quotedExcerpt(key, limit: 64))")
            }
            skipSpace()
            guard !atEnd else { throw error("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
            index += 1
            return .object(members)
        }
    }

    mutating func array(depth: Int) throws(JSONError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if !atEnd, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            elements.append(try value(depth: depth + 1))
            skipSpace()
            guard !atEnd else { throw error("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
            index += 1
            return .array(elements)
        }
    }

    mutating func string() throws(JSONError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() { scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars); run.removeAll() }
        while true {
            guard !atEnd else { throw error("unterminated string") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                scalars.append(try escape())
            case 0..<0x20:
                index -= 1
                throw error("control character in string")
            default:
                run.append(byte)
            }
        }
    }

    mutating func escape() throws(JSONError) -> Unicode.Scalar {
        guard !atEnd else { throw error("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4()
            if (0xD800..<0xDC00).contains(high) {
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("unpaired surrogate") }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate") }
            return scalar
        default:
            index -= 1
            throw error("invalid escape")
        }
    }

    mutating func hex4() throws(JSONError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexDigit(bytes[index]) else { throw error("invalid \\u escape") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// RFC 8259 number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func number() throws(JSONError) -> JSONValue {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if !atEnd, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard !atEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
            throw error("unexpected character")
        }
        if bytes[index] == UInt8(ascii: "0") { index += 1 } else { _ = digits() }
        var integral = true
        if !atEnd, bytes[index] == UInt8(ascii: ".") {
            index += 1
            integral = false
            guard digits() > 0 else { throw error("digit expected") }
        }
        if !atEnd, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            integral = false
            if !atEnd, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("digit expected") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text) else { throw error("invalid number") }
        return .number(value)
    }
}
