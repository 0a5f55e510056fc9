import CYAML

/// A YAML syntax error, an unsupported construct or bytes that are not UTF-8, at a 1-based line and column.
struct YAMLError: Error, Sendable, Equatable {
    /// The 1-based line.
    var line: Int
    /// The 1-based column, in characters.
    var column: Int
    /// One line saying what is wrong.
    var message: String
}

/// Reads one YAML or JSON document with libyaml's event parser (YAML 1.1 syntax, which JSON's flow syntax is part of)
/// into a ``YAMLNode`` tree; the decoder types its scalars by the YAML 1.2 core schema.
/// Anchors, aliases, tags, non-scalar keys, duplicate keys and a second document are errors.
enum YAMLDocument {
    /// How deeply lists and mappings may nest.
    static let maximumDepth = 64

    /// The root node of the one document in `bytes`; `nil` when they hold no document (empty or comments only).
    static func parse(_ bytes: [UInt8]) throws(YAMLError) -> YAMLNode? {
        if let offset = firstInvalidUTF8Offset(bytes) {
            let (line, column) = position(ofByteOffset: offset, in: bytes)
            throw YAMLError(line: line, column: column, message: "the file is not valid UTF-8")
        }
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) != 0 else { throw YAMLError(line: 1, column: 1, message: "out of memory") }
        defer { yaml_parser_delete(parser) }
        var input = bytes.isEmpty ? [0] : bytes  // libyaml asserts a non-null input pointer
        return try input.withUnsafeMutableBufferPointer { buffer throws(YAMLError) -> YAMLNode? in
            yaml_parser_set_input_string(parser, buffer.baseAddress, bytes.count)
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
            var builder = YAMLTreeBuilder()
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(parser, &event) != 0 else { throw syntaxError(parser.pointee, bytes) }
                defer { yaml_event_delete(&event) }
                if try builder.add(event) { return builder.root }
            }
        }
    }

    /// libyaml's problem (and the construct it was reading) at its problem mark.
    private static func syntaxError(_ parser: yaml_parser_t, _ bytes: [UInt8]) -> YAMLError {
        let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
        if parser.error == YAML_READER_ERROR {
            let (line, column) = position(ofByteOffset: parser.problem_offset, in: bytes)
            let value = parser.problem_value >= 0 ? " (#x\(String(parser.problem_value, radix: 16, uppercase: true)))" : ""
            return YAMLError(line: line, column: column, message: problem + value)
        }
        var message = problem
        if let context = parser.context {
            let mark = parser.context_mark
            message += " (\(String(cString: context)) that starts at line \(mark.line + 1), column \(mark.column + 1))"
        }
        let mark = parser.problem_mark
        return YAMLError(line: Int(mark.line) + 1, column: Int(mark.column) + 1, message: message)
    }

    /// The byte offset of the first byte that does not belong to a valid UTF-8 sequence, `nil` when all do.
    static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case let .valid(encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// The 1-based line and column (in characters) of the byte at `offset`, counting line breaks as libyaml does
    /// (`\n`, `\r\n` and a lone `\r`) and skipping a byte order mark as it does.
    static func position(ofByteOffset offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, column = 1
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        for index in bytes.indices.prefix(offset).dropFirst(start) {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && bytes[safe: index + 1] != UInt8(ascii: "\n")) {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80, byte != UInt8(ascii: "\r") {
                column += 1
            }
        }
        return (line, column)
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
