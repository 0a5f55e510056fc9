/// The typed readings of scalars, lists and mappings every part of a targets file shares.
extension TargetsFileDecoder {
    /// An error at `node`.
    func error(_ node: YAMLNode, _ message: String) -> TargetsFileError {
        TargetsFileError(path: path, line: node.line, column: node.column, message: message)
    }

    /// The entries of the mapping `node` (the value of `key`); with `allowed`, any other key is an error
    /// that lists the allowed ones and says where it was found (`context`: `in target`).
    func entries(_ node: YAMLNode, key: String, context: String,
                 allowed: [String]?) throws(TargetsFileError) -> [YAMLEntry] {
        guard case let .mapping(entries) = node.content else { throw error(node, "\"\(key)\" must be a mapping") }
        if let allowed, let unknown = entries.first(where: { !allowed.contains($0.key) }) {
            let expected = allowed.joined(separator: ", ")
            throw error(unknown.keyNode, "unknown key \"\(unknown.key)\" \(context) (expected one of: \(expected))")
        }
        return entries
    }

    /// A scalar's text (numbers and booleans as written); null, lists and mappings are errors.
    func string(_ node: YAMLNode, key: String) throws(TargetsFileError) -> String {
        guard let text = node.text else { throw error(node, "\"\(key)\" must be a string, not \(node.kindDescription)") }
        return text
    }

    /// A scalar's text that is not empty.
    func nonEmptyString(_ node: YAMLNode, key: String) throws(TargetsFileError) -> String {
        let text = try string(node, key: key)
        guard !text.isEmpty else { throw error(node, "\"\(key)\" must not be empty") }
        return text
    }

    /// A scalar, or a non-empty list of scalars.
    func strings(_ node: YAMLNode, key: String) throws(TargetsFileError) -> [String] {
        guard case let .sequence(items) = node.content else { return [try string(node, key: key)] }
        guard !items.isEmpty else { throw error(node, "\"\(key)\" must be a string or a non-empty list of strings") }
        var texts: [String] = []
        for item in items { texts.append(try string(item, key: key)) }
        return texts
    }

    /// `true` or `false` (YAML 1.2 core: also `True`, `TRUE`, `False`, `FALSE`), unquoted.
    func bool(_ node: YAMLNode, key: String) throws(TargetsFileError) -> Bool {
        switch node.plainText {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        case let text? where ["yes", "no", "on", "off", "y", "n"].contains(text.lowercased()):
            throw error(node, "\"\(key)\" must be true or false (\"\(text)\" is ambiguous in YAML)")
        default:
            throw error(node, "\"\(key)\" must be true or false")
        }
    }

    /// An unquoted decimal integer within `range`; anything else is an error saying `message`.
    func integer(_ node: YAMLNode, in range: ClosedRange<Int>, message: String) throws(TargetsFileError) -> Int {
        guard let text = node.plainText, let first = text.utf8.first,
              text.utf8.dropFirst(first == UInt8(ascii: "-") || first == UInt8(ascii: "+") ? 1 : 0).allSatisfy(ASCII.isDigit),
              let value = Int(text), range.contains(value) else { throw error(node, message) }
        return value
    }

    /// A mapping of header names to scalar values, checked as header lines: names are tokens, values one line.
    func headers(_ node: YAMLNode, key: String) throws(TargetsFileError) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        for entry in try entries(node, key: key, context: "", allowed: nil) {
            guard Self.isToken(entry.key) else {
                throw error(entry.keyNode, "header name \"\(entry.key)\" must be token characters only (no spaces or colons)")
            }
            guard let value = entry.value.text else {
                throw error(entry.value,
                            "the value of header \"\(entry.key)\" must be a string, not \(entry.value.kindDescription)")
            }
            guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw error(entry.value, "the value of header \"\(entry.key)\" must not contain line breaks")
            }
            headers.append((entry.key, value))
        }
        return headers
    }

    /// Whether `text` is an HTTP token (RFC 9110 `tchar`s, at least one).
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { ASCII.isAlphanumeric($0) || "!#$%&'*+-.^_`|~".utf8.contains($0) }
    }
}
