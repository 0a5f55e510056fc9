/// One node of a YAML (or JSON) document as the targets file reader keeps it: no anchors, aliases or tags,
/// mapping keys are scalars and unique, and every node remembers where it starts.
struct YAMLNode: Sendable, Equatable {
    /// What the node holds.
    enum Content: Sendable, Equatable {
        /// A scalar's text; `plain` is false for quoted and block (`|`, `>`) scalars, which are always strings.
        case scalar(String, plain: Bool)
        /// A list, in order.
        case sequence([YAMLNode])
        /// A mapping, in file order.
        case mapping([YAMLEntry])
    }

    /// What the node holds.
    var content: Content
    /// The 1-based line the node starts on.
    var line: Int
    /// The 1-based column (in characters) the node starts at.
    var column: Int

    /// The text of a scalar that is not null; `nil` for null, lists and mappings.
    var text: String? {
        guard case let .scalar(text, plain) = content, !(plain && Self.nullWords.contains(text)) else { return nil }
        return text
    }

    /// The text of a plain scalar (one that may be a number or a boolean), `nil` otherwise.
    var plainText: String? {
        guard case let .scalar(text, true) = content else { return nil }
        return text
    }

    /// The YAML 1.2 core schema's spellings of null (an empty plain scalar is one: `key:` with no value).
    static let nullWords: Set<String> = ["", "~", "null", "Null", "NULL"]

    /// What a message calls this kind of node: `a list`, `null`.
    var kindDescription: String {
        switch content {
        case .sequence: "a list"
        case .mapping: "a mapping"
        case .scalar: text == nil ? "null" : "a scalar"
        }
    }
}

/// One `key: value` pair of a mapping.
struct YAMLEntry: Sendable, Equatable {
    /// The key's text.
    var key: String
    /// The key node (for its position).
    var keyNode: YAMLNode
    /// The value.
    var value: YAMLNode
}
