/// curl's config-file syntax (`-K FILE`): one option per line, `name = value`, `name: value`, `name value` or
/// `--name value`; a leading `#` makes a comment; a value in double quotes may hold spaces and the escapes
/// `\\ \" \t \n \r \v`; an unquoted value ends at the first blank.
/// - SeeAlso: curl's `src/tool_parsecfg.c`, the `-K, --config` entry of curl(1).
public enum ConfigFile {
    /// One option line: its name as written (without `--` added), its value, its line number.
    public struct Entry: Sendable, Equatable {
        public let name: String
        public let value: String?
        public let line: Int
    }

    /// The option lines of `text`; a quoted value without its closing quote is an error naming the line.
    public static func entries(in text: String, path: String) throws(OptionError) -> [Entry] {
        var entries: [Entry] = []
        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var line = rawLine.utf8[...]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            line = line.drop(while: isBlank)
            guard let first = line.first, first != UInt8(ascii: "#") else { continue }
            let nameEnd = line.firstIndex { isBlank($0) || $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ":") } ?? line.endIndex
            let name = String(decoding: line[..<nameEnd], as: UTF8.self)
            var rest = line[nameEnd...].drop(while: isBlank)
            if let separator = rest.first, separator == UInt8(ascii: "=") || separator == UInt8(ascii: ":") {
                rest = rest.dropFirst().drop(while: isBlank)
            }
            var value: String?
            if rest.first == UInt8(ascii: "\"") {
                value = try quoted(rest.dropFirst(), path: path, line: number)
            } else if !rest.isEmpty {
                let end = rest.firstIndex(where: isBlank) ?? rest.endIndex
                value = String(decoding: rest[..<end], as: UTF8.self)
            }
            entries.append(Entry(name: name, value: value, line: number))
        }
        return entries
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// The text up to the closing quote, escapes resolved.
    private static func quoted(_ bytes: Substring.UTF8View.SubSequence, path: String, line: Int) throws(OptionError) -> String {
        var result: [UInt8] = []
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: result, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = iterator.next() else { break }
                switch escaped {
                case UInt8(ascii: "t"): result.append(0x09)
                case UInt8(ascii: "n"): result.append(0x0A)
                case UInt8(ascii: "r"): result.append(0x0D)
                case UInt8(ascii: "v"): result.append(0x0B)
                default: result.append(escaped)
                }
            default:
                result.append(byte)
            }
        }
        throw OptionError("\(path == "-" ? "<stdin>" : path):\(line): unterminated quoted value")
    }
}
