/// curl's config-file syntax (`-K FILE`), read as curl 7.88 reads it: lines end at LF, so a CRLF file reads as its
/// LF twin; one option per line, `name = value`, `name: value`, `name value`, `--name value` or `--name=value`; a
/// line whose first non-blank character is `#`, `/` or `*` is a comment; a value in double quotes may hold spaces
/// and the escapes `\\ \" \t \n \r \v`; an unquoted value ends at the first white space (a CR included).
/// - SeeAlso: curl's `src/tool_parsecfg.c`, the `-K, --config` entry of curl(1).
public enum ConfigFile {
    /// One option line: its name as written (without `--` added), its value, its line number, and whether text
    /// after an unquoted value and its white space was left out (curl warns about it too).
    public struct Entry: Sendable, Equatable {
        public let name: String
        public let value: String?
        public let line: Int
        public let ignoresRest: Bool

        public init(name: String, value: String?, line: Int, ignoresRest: Bool = false) {
            (self.name, self.value, self.line, self.ignoresRest) = (name, value, line, ignoresRest)
        }
    }

    /// The most a config file and each of its lines may hold, in bytes, and the most the config files one command
    /// line reads may hold together; a file, a line or a sum beyond them is an error, and a reader need read no
    /// more than one byte past what is left.
    public struct Limits: Sendable, Equatable {
        /// The most bytes of a file.
        public let bytes: Int
        /// The most bytes of a line, its line end (LF) not counted.
        public let lineBytes: Int
        /// The most bytes of every file one parse reads, each inclusion counted (``CommandLineParser``): files that
        /// name each other many times over would otherwise multiply a few KiB into millions of lines.
        public let totalBytes: Int
        /// The most files one parse reads, each inclusion counted: reading a file costs as much as parsing thousands
        /// of bytes, so an empty file named millions of times is bounded too.
        public let totalFiles: Int

        /// 16 MiB a file and all files together, 1 MiB a line, 4,096 files: far beyond any config a person writes,
        /// far below what would strain memory or time.
        public static let standard = Limits(bytes: 16 << 20, lineBytes: 1 << 20)

        /// `totalBytes` is `bytes` unless given.
        public init(bytes: Int, lineBytes: Int, totalBytes: Int? = nil, totalFiles: Int = 4096) {
            (self.bytes, self.lineBytes, self.totalBytes, self.totalFiles) = (bytes, lineBytes, totalBytes ?? bytes, totalFiles)
        }
    }

    /// The option lines of `text`; a quoted value without its closing quote, a text larger than `limits.bytes` and
    /// a line longer than `limits.lineBytes` are errors naming the file (and the line).
    public static func entries(in text: String, path: String, limits: Limits = .standard) throws(OptionError) -> [Entry] {
        let shown = path == "-" ? "<stdin>" : path
        guard text.utf8.count <= limits.bytes else {
            throw OptionError("\(shown): larger than \(sizeText(limits.bytes)), the most a config file may hold")
        }
        var entries: [Entry] = []
        var number = 0
        var rest = text.utf8[...]
        while !rest.isEmpty {
            number += 1
            let end = rest.firstIndex(of: 0x0A) ?? rest.endIndex
            guard rest.distance(from: rest.startIndex, to: end) <= limits.lineBytes else {
                throw OptionError("\(shown):\(number): a line longer than \(sizeText(limits.lineBytes)), the most a config line may hold")
            }
            if let entry = try entry(rest[..<end], path: path, line: number) { entries.append(entry) }
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
        }
        return entries
    }

    /// `16 MiB`, or `1000 bytes` for a size that is not a whole number of MiB.
    static func sizeText(_ bytes: Int) -> String { bytes > 0 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes" }

    private typealias Bytes = Substring.UTF8View.SubSequence

    /// One line's option, `nil` for a blank or comment line.
    private static func entry(_ bytes: Bytes, path: String, line number: Int) throws(OptionError) -> Entry? {
        let line = bytes.drop(while: isSpace)
        guard let first = line.first, first != UInt8(ascii: "#"), first != UInt8(ascii: "/"), first != UInt8(ascii: "*")
        else { return nil }
        // A separator ends a bare name; after a dashed one only `--name=value` has one, as on the command line.
        let dashed = first == UInt8(ascii: "-")
        let long = dashed && line.dropFirst().first == UInt8(ascii: "-")
        let nameEnd = line.firstIndex { isSpace($0) || (!dashed && isSeparator($0)) || (long && $0 == UInt8(ascii: "=")) } ?? line.endIndex
        let name = String(decoding: line[..<nameEnd], as: UTF8.self)
        var rest = line[nameEnd...]
        if dashed {
            if long, rest.first == UInt8(ascii: "=") { rest = rest.dropFirst() }
            rest = rest.drop(while: isSpace)
        } else {
            rest = rest.drop { isSpace($0) || isSeparator($0) }
        }
        if rest.first == UInt8(ascii: "\"") {
            return Entry(name: name, value: try quoted(rest.dropFirst(), path: path, line: number), line: number)
        }
        let valueEnd = rest.firstIndex(where: isSpace) ?? rest.endIndex
        let after = rest[valueEnd...].drop(while: isSpace)
        return Entry(name: name, value: valueEnd == rest.startIndex ? nil : String(decoding: rest[..<valueEnd], as: UTF8.self),
                     line: number, ignoresRest: !(after.isEmpty || after.first == UInt8(ascii: "#")))
    }

    /// C's `isspace`: blank, tab, LF, VT, FF, CR.
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    private static func isSeparator(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "=") || byte == UInt8(ascii: ":") }

    /// The text up to the closing quote, escapes resolved.
    private static func quoted(_ bytes: Bytes, path: String, line: Int) throws(OptionError) -> String {
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
