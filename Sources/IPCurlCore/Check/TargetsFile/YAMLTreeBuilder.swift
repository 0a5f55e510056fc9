import CYAML

/// Turns libyaml's parse events into a ``YAMLNode`` tree, rejecting what the targets file does not use.
struct YAMLTreeBuilder {
    /// The document's root, once its last event has arrived.
    private(set) var root: YAMLNode?

    /// A list or mapping whose end event has not arrived yet.
    private struct OpenCollection {
        var line: Int, column: Int
        var isMapping: Bool
        var items: [YAMLNode] = []
        var entries: [YAMLEntry] = []
        var pendingKey: (text: String, node: YAMLNode)?
        var keysSeen: [String: YAMLNode] = [:]
    }

    private var open: [OpenCollection] = []
    private var documentsSeen = 0

    /// Takes one event; `true` once the stream has ended.
    mutating func add(_ event: yaml_event_t) throws(YAMLError) -> Bool {
        let line = Int(event.start_mark.line) + 1, column = Int(event.start_mark.column) + 1
        func fail(_ message: String) -> YAMLError { YAMLError(line: line, column: column, message: message) }
        switch event.type {
        case YAML_STREAM_END_EVENT:
            return true
        case YAML_DOCUMENT_START_EVENT:
            documentsSeen += 1
            if documentsSeen > 1 { throw fail("the file holds more than one YAML document (only one is read)") }
        case YAML_ALIAS_EVENT:
            throw fail("aliases (*\(Self.text(event.data.alias.anchor))) are not supported")
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            try Self.rejectAnchorAndTag(anchor: scalar.anchor, tag: scalar.tag, fail: fail)
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            let plain = scalar.style == YAML_PLAIN_SCALAR_STYLE
            try attach(YAMLNode(content: .scalar(text, plain: plain), line: line, column: column))
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            let isMapping = event.type == YAML_MAPPING_START_EVENT
            let (anchor, tag) = isMapping ? (event.data.mapping_start.anchor, event.data.mapping_start.tag)
                : (event.data.sequence_start.anchor, event.data.sequence_start.tag)
            try Self.rejectAnchorAndTag(anchor: anchor, tag: tag, fail: fail)
            if let pending = open.last, pending.isMapping, pending.pendingKey == nil {
                throw fail("mapping keys must be scalars, not \(isMapping ? "mappings" : "lists")")
            }
            guard open.count < YAMLDocument.maximumDepth else {
                throw fail("lists and mappings nest deeper than \(YAMLDocument.maximumDepth) levels")
            }
            open.append(OpenCollection(line: line, column: column, isMapping: isMapping))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            let closed = open.removeLast()
            let content: YAMLNode.Content = closed.isMapping ? .mapping(closed.entries) : .sequence(closed.items)
            try attach(YAMLNode(content: content, line: closed.line, column: closed.column))
        default:
            break  // stream start, document end
        }
        return false
    }

    /// Adds a finished node to the innermost open collection (as a key or a value in a mapping), or makes it the root.
    private mutating func attach(_ node: YAMLNode) throws(YAMLError) {
        guard var parent = open.popLast() else {
            root = node
            return
        }
        defer { open.append(parent) }
        guard parent.isMapping else {
            parent.items.append(node)
            return
        }
        guard let key = parent.pendingKey else {
            guard case let .scalar(text, _) = node.content else { return }  // collections were refused at their start
            if let first = parent.keysSeen[text] {
                throw YAMLError(line: node.line, column: node.column,
                                message: "duplicate key \"\(text)\" (first at line \(first.line), column \(first.column))")
            }
            parent.keysSeen[text] = node
            parent.pendingKey = (text, node)
            return
        }
        parent.entries.append(YAMLEntry(key: key.text, keyNode: key.node, value: node))
        parent.pendingKey = nil
    }

    private static func rejectAnchorAndTag(anchor: UnsafeMutablePointer<yaml_char_t>?, tag: UnsafeMutablePointer<yaml_char_t>?,
                                           fail: (String) -> YAMLError) throws(YAMLError) {
        if let anchor { throw fail("anchors (&\(text(anchor))) are not supported") }
        if let tag { throw fail("tags (\(text(tag))) are not supported") }
    }

    private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }
}
