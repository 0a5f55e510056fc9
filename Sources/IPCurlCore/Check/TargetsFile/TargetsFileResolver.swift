/// `resolver:` in a targets file: keys named like the CLI's resolver options, written with `-` or `_`.
extension TargetsFileDecoder {
    /// The settings as `--option value` arguments, in file order: a true flag gives one argument without a value,
    /// a false one none; a repeatable option gives one argument per list element. `section` names the mapping in
    /// errors (the exporter's `httpdns:` is read here too), and `otherKeys` are the ones its caller read from it
    /// before, which an unknown key's error lists first.
    func resolverArguments(_ node: YAMLNode, section: String = "resolver",
                           otherKeys: [String] = []) throws(TargetsFileError) -> [ResolverArgument] {
        var arguments: [ResolverArgument] = []
        var seen: [String: YAMLEntry] = [:]
        for entry in try entries(node, key: section, context: "", allowed: nil) {
            let option = String(entry.key.map { $0 == "_" ? "-" : $0 })
            guard let kind = resolverOptions[option] else {
                let known = otherKeys + resolverOptions.filter { if case .refused = $0.value { false } else { true } }.keys.sorted()
                throw error(entry.keyNode, "unknown key \"\(entry.key)\" in \(section) (expected one of: \(known.joined(separator: ", ")))")
            }
            if case let .refused(what) = kind {
                throw error(entry.keyNode,
                            "\"\(entry.key)\" \(what): a targets file may not set it (give --\(option) on the command line)")
            }
            if let first = seen[option] {
                let firstAt = "line \(first.keyNode.line), column \(first.keyNode.column)"
                throw error(entry.keyNode, "duplicate key \"\(entry.key)\" (the same as \"\(first.key)\" at \(firstAt))")
            }
            seen[option] = entry
            func argument(_ value: String?, _ at: YAMLNode) -> ResolverArgument {
                ResolverArgument(option: "--" + option, value: value, line: at.line, column: at.column)
            }
            switch (kind, entry.value.content) {
            case (.flag, _):
                if try bool(entry.value, key: entry.key) { arguments.append(argument(nil, entry.value)) }
            case let (.values, .sequence(items)):
                for item in items { arguments.append(argument(try resolverValue(item, key: entry.key), item)) }
            case (.value, _), (.values, _):
                arguments.append(argument(try resolverValue(entry.value, key: entry.key), entry.value))
            case (.refused, _):
                break  // refused above
            }
        }
        return arguments
    }

    private func resolverValue(_ node: YAMLNode, key: String) throws(TargetsFileError) -> String {
        guard let text = node.text else { throw error(node, "\"\(key)\" must be a single value, not \(node.kindDescription)") }
        return text
    }
}
