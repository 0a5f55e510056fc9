import HTTPDNS

/// Decodes the exporter's configuration tree into an ``ExporterConfig``. It reads scalars, headers and resolver keys
/// with the targets file's readers (``TargetsFileDecoder``), so their errors read the same; a module's errors start
/// with `module "NAME": `. A key given as null (`key:` alone) leaves blackbox's default, as yaml.v3 does.
struct ExporterConfigDecoder {
    /// The file as named, for errors and warnings.
    let path: String
    /// The targets file's readers.
    let values: TargetsFileDecoder
    /// The warnings so far, in file order.
    private(set) var warnings: [String] = []

    init(path: String, resolverOptions: [String: ResolverOptionKind]) {
        self.path = path
        values = TargetsFileDecoder(path: path, resolverOptions: resolverOptions)
    }

    /// The whole file.
    mutating func config(_ root: YAMLNode) throws(TargetsFileError) -> ExporterConfig {
        guard case let .mapping(entries) = root.content else {
            throw values.error(root, "the file must be a mapping with \"modules\", not \(root.kindDescription)")
        }
        try allowed(entries, ExporterSchema.fileKeys, in: "at the top level")
        var config = ExporterConfig(modules: [:], moduleNames: [], warnings: [])
        let modulesEntry = entries.first
        guard let modules = try mapping(modulesEntry?.value, key: "modules", shape: "a mapping of module names to modules"),
              !modules.isEmpty else {
            warn(modulesEntry?.keyNode ?? root, "no modules: every probe answers 400 (Unknown module)")
            config.warnings = warnings
            return config
        }
        for entry in modules {
            do {
                config.modules[entry.key] = try module(entry.value, name: entry.key)
            } catch {
                throw TargetsFileError(path: error.path, line: error.line, column: error.column,
                                       message: "module \"\(entry.key)\": " + error.message)
            }
            config.moduleNames.append(entry.key)
        }
        config.warnings = warnings
        return config
    }

    /// One module; `name` is for warnings.
    private mutating func module(_ node: YAMLNode, name: String) throws(TargetsFileError) -> ExporterModule {
        guard case let .mapping(entries) = node.content else {
            throw values.error(node, "a module must be a mapping with \"prober\", not \(node.kindDescription)")
        }
        try allowed(entries, ExporterSchema.moduleKeys, in: "in module")
        let probers = ExporterSchema.probers.joined(separator: ", ")
        guard let proberNode = entries.first(where: { $0.key == "prober" })?.value else {
            throw values.error(node, "missing key \"prober\" (one of: \(probers))")
        }
        let prober = try values.string(proberNode, key: "prober")
        guard ExporterSchema.probers.contains(prober) else {
            throw values.error(proberNode, "unknown prober \"\(prober)\" (expected one of: \(probers))")
        }
        var module = ExporterModule(prober: prober)
        if prober != "http" {
            warn(proberNode, "module \"\(name)\" uses prober \(prober), which ipcurl exporter does not run; its probes answer 400")
        }
        for entry in entries where entry.key != "prober" {
            if entry.key == "timeout" {
                module.timeoutSeconds = try timeout(entry.value)
                continue
            }
            // A prober's block must be a mapping, as for blackbox; only the http prober's own is read further.
            let block = try mapping(entry.value, key: entry.key)
            if prober == "http", entry.key == "http" {
                module.http = try http(block ?? [], module: name)
            } else if prober == "http", block != nil {
                warn(entry.keyNode, "module \"\(name)\": \"\(entry.key)\" is read only by prober \(entry.key); ignored")
            }
        }
        if prober == "http", module.http == nil { module.http = HTTPProbeModule() }
        return module
    }

    /// A module's `timeout`: a Go duration, as blackbox's `time.Duration` field reads it, never negative; `nil` for
    /// none or zero (blackbox then takes the scrape's timeout).
    private func timeout(_ node: YAMLNode) throws(TargetsFileError) -> Double? {
        if case .scalar = node.content, node.text == nil { return nil }
        let expected = "\"timeout\" must be a Go duration such as 5s, 1m30s or 500ms (units ns, us, ms, s, m, h)"
        guard let text = node.text else { throw values.error(node, "\(expected), not \(node.kindDescription)") }
        // An unquoted 0 is a YAML integer, which yaml.v3 does not put in a time.Duration; "0" is a duration.
        let isInteger = node.plainText != nil && ["0", "+0", "-0"].contains(text)
        guard !isInteger, let seconds = GoDuration.seconds(text) else { throw values.error(node, "\(expected), not \"\(text)\"") }
        guard seconds >= 0 else { throw values.error(node, "\"timeout\" must not be negative") }
        return seconds > 0 ? seconds : nil
    }

    // MARK: readers shared by the module and its blocks

    /// An error naming the first key of `entries` not in `keys`, and the keys allowed.
    func allowed(_ entries: [YAMLEntry], _ keys: [String], in context: String) throws(TargetsFileError) {
        guard let unknown = entries.first(where: { !keys.contains($0.key) }) else { return }
        throw values.error(unknown.keyNode,
                           "unknown key \"\(unknown.key)\" \(context) (expected one of: \(keys.joined(separator: ", ")))")
    }

    /// The entries of a mapping; `nil` for null or no node; anything else is an error saying it must be `shape`.
    func mapping(_ node: YAMLNode?, key: String, shape: String = "a mapping") throws(TargetsFileError) -> [YAMLEntry]? {
        guard let node else { return nil }
        switch node.content {
        case let .mapping(entries): return entries
        case .scalar where node.text == nil: return nil
        default: throw values.error(node, "\"\(key)\" must be \(shape), not \(node.kindDescription)")
        }
    }

    /// The items of a list; none for null; anything else is an error.
    func list(_ node: YAMLNode, key: String) throws(TargetsFileError) -> [YAMLNode] {
        switch node.content {
        case let .sequence(items): return items
        case .scalar where node.text == nil: return []
        default: throw values.error(node, "\"\(key)\" must be a list, not \(node.kindDescription)")
        }
    }

    /// A scalar's text, `nil` for null or an empty string; lists and mappings are errors.
    func optionalString(_ node: YAMLNode, key: String) throws(TargetsFileError) -> String? {
        if case .scalar = node.content, node.text == nil { return nil }
        let text = try values.string(node, key: key)
        return text.isEmpty ? nil : text
    }

    /// `true` or `false`, `nil` for null (the default stays).
    func optionalBool(_ node: YAMLNode, key: String) throws(TargetsFileError) -> Bool? {
        if case .scalar = node.content, node.text == nil { return nil }
        return try values.bool(node, key: key)
    }

    /// Adds `message` at `node`'s place.
    mutating func warn(_ node: YAMLNode, _ message: String) {
        warnings.append(Printable.escaped("\(path):\(node.line):\(node.column): \(message)"))
    }
}
