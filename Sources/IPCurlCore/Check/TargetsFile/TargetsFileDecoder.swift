/// Decodes a targets file's node tree into a ``TargetsFile``; every error names the offending node's position.
struct TargetsFileDecoder {
    /// The file as named, for errors.
    let path: String
    /// The `resolver:` keys the CLI accepts (dashed) and what each takes.
    let resolverOptions: [String: ResolverOptionKind]

    /// The top-level keys, in the order error messages list them.
    static let fileKeys = ["defaults", "resolver", "labels", "targets"]
    /// A target's keys.
    static let targetKeys = ["name", "url", "method", "headers", "body", "all_ips", "samples", "max_failed_samples", "retries",
                             "retry_interval", "expect"]
    /// The keys of `defaults:`.
    static let defaultsKeys = ["all_ips", "method", "headers", "samples", "max_failed_samples", "retries",
                             "retry_interval", "expect"]

    /// The whole file.
    func file(_ root: YAMLNode) throws(TargetsFileError) -> TargetsFile {
        guard case .mapping = root.content else {
            throw error(root, "the file must be a mapping with a \"targets\" list, not \(root.kindDescription)")
        }
        var file = TargetsFile(defaults: TargetDefaults(), resolverArguments: [], labels: [], targets: [])
        var targetsNode: YAMLNode?
        for entry in try entries(root, key: "", context: "at the top level", allowed: Self.fileKeys) {
            switch entry.key {
            case "defaults": file.defaults = try defaults(entry.value)
            case "resolver": file.resolverArguments = try resolverArguments(entry.value)
            case "labels": file.labels = try labels(entry.value)
            default: targetsNode = entry.value
            }
        }
        guard let targetsNode else { throw error(root, "missing key \"targets\" (the list of targets to probe)") }
        file.targets = try targets(targetsNode, defaults: file.defaults)
        return file
    }

    private func defaults(_ node: YAMLNode) throws(TargetsFileError) -> TargetDefaults {
        var defaults = TargetDefaults()
        for entry in try entries(node, key: "defaults", context: "in defaults", allowed: Self.defaultsKeys) {
            switch entry.key {
            case "all_ips": defaults.allIPs = try bool(entry.value, key: entry.key)
            case "samples": defaults.samples = try samples(entry.value)
            case "max_failed_samples": defaults.maxFailedSamples = try maxFailedSamples(entry.value)
            case "retries": defaults.retries = try retries(entry.value)
            case "retry_interval": defaults.retryIntervalMS = try retryInterval(entry.value)
            case "method": defaults.method = try method(entry.value)
            case "headers": defaults.headers = try headers(entry.value, key: entry.key).map { "\($0.name): \($0.value)" }
            default: defaults.expect = try expectation(entry.value)
            }
        }
        return defaults
    }

    private func targets(_ node: YAMLNode, defaults: TargetDefaults) throws(TargetsFileError) -> [CheckTarget] {
        guard case let .sequence(items) = node.content, !items.isEmpty else {
            throw error(node, "\"targets\" must be a non-empty list")
        }
        var targets: [CheckTarget] = []
        var names: [String: YAMLNode] = [:]
        for item in items {
            let (target, nameNode) = try self.target(item, defaults: defaults)
            if let first = names[target.name] {
                throw error(nameNode,
                            "duplicate target name \"\(target.name)\" (first at line \(first.line), column \(first.column))")
            }
            names[target.name] = nameNode
            targets.append(target)
        }
        return targets
    }

    /// One target, and the node its name comes from (`name:`, else `url:`).
    private func target(_ node: YAMLNode, defaults: TargetDefaults) throws(TargetsFileError) -> (CheckTarget, YAMLNode) {
        guard case .mapping = node.content else {
            throw error(node, "each target must be a mapping with at least \"url\", not \(node.kindDescription)")
        }
        var url: (text: String, node: YAMLNode)?, name: (text: String, node: YAMLNode)?
        // The defaults first, then the target's own keys over them; its expectation is merged later.
        var target = CheckTarget(url: "")
        defaults.apply(to: &target)
        for entry in try entries(node, key: "", context: "in target", allowed: Self.targetKeys) {
            let value = entry.value
            switch entry.key {
            case "name": name = (try nonEmptyString(value, key: entry.key), value)
            case "url": url = (try self.url(value), value)
            case "method": target.method = try method(value)
            case "headers": target.headers = try headers(value, key: entry.key).map { "\($0.name): \($0.value)" }
            case "body": target.body = try string(value, key: entry.key)
            case "all_ips": target.allIPs = try bool(value, key: entry.key)
            case "samples": target.samples = try samples(value)
            case "max_failed_samples": target.maxFailedSamples = try maxFailedSamples(value)
            case "retries": target.retries = try retries(value)
            case "retry_interval": target.retryIntervalMS = try retryInterval(value)
            default: target.expect = try expectation(value)
            }
        }
        guard let url else { throw error(node, "missing key \"url\" in target") }
        (target.url, target.name) = (url.text, name?.text ?? url.text)
        return (target, name?.node ?? url.node)
    }

    private func samples(_ node: YAMLNode) throws(TargetsFileError) -> Int {
        try count(node, key: "samples", in: CheckTarget.samplesRange)
    }

    private func maxFailedSamples(_ node: YAMLNode) throws(TargetsFileError) -> Int {
        try count(node, key: "max_failed_samples", in: CheckTarget.maxFailedSamplesRange)
    }

    private func retries(_ node: YAMLNode) throws(TargetsFileError) -> Int {
        try count(node, key: "retries", in: CheckTarget.retriesRange)
    }

    /// A whole number within `range`: `"KEY" must be a whole number from LOW to HIGH` otherwise.
    private func count(_ node: YAMLNode, key: String, in range: ClosedRange<Int>) throws(TargetsFileError) -> Int {
        try integer(node, in: range, message: "\"\(key)\" must be a whole number from \(range.lowerBound) to \(range.upperBound)")
    }

    /// Seconds as a plain number (`0.5`, `2.5e-1`, as YAML and JSON write one) or a Go duration as Prometheus
    /// configurations write one (`500ms`, `2s`, quoted or not: JSON has no other way to say it), at most an hour;
    /// milliseconds.
    private func retryInterval(_ node: YAMLNode) throws(TargetsFileError) -> Int {
        let message = "\"retry_interval\" must be seconds (0.5) or a duration (500ms, 2s) of at most 1h"
        guard let text = node.text else { throw error(node, message) }
        // A plain number is seconds; a quoted one is refused, as every number in the file; anything else is a duration.
        let seconds: Double?
        if let number = Self.unsignedNumber(text) { seconds = node.plainText == nil ? nil : number } else { seconds = GoDuration.seconds(text) }
        guard let seconds, seconds >= 0, seconds <= 3600 else { throw error(node, message) }
        return Int((seconds * 1000).rounded())
    }

    /// The value of `text` when it is an unsigned decimal number as YAML 1.2's core schema and JSON write one
    /// (`5`, `.5`, `5.`, `2.5e-1`, `1E3`), else `nil`.
    static func unsignedNumber(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        let exponent = bytes.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") } ?? bytes.endIndex
        let mantissa = bytes[..<exponent]
        let digits = mantissa.filter(ASCII.isDigit).count
        guard digits > 0, digits + mantissa.count { $0 == UInt8(ascii: ".") } == mantissa.count,
              mantissa.count - digits <= 1 else { return nil }
        if exponent < bytes.endIndex {
            var power = bytes[(exponent + 1)...]
            if let sign = power.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { power = power.dropFirst() }
            guard !power.isEmpty, power.allSatisfy(ASCII.isDigit) else { return nil }
        }
        return Double(text)
    }

    private func url(_ node: YAMLNode) throws(TargetsFileError) -> String {
        let url = try string(node, key: "url")
        let scheme = url.prefix(8).lowercased()
        guard scheme.hasPrefix("http://") || scheme.hasPrefix("https://") else {
            throw error(node, "\"url\" must start with http:// or https://")
        }
        guard !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw error(node, "\"url\" must not contain spaces or control characters")
        }
        return url
    }

    private func method(_ node: YAMLNode) throws(TargetsFileError) -> String {
        guard let method = node.text, Self.isToken(method) else {
            throw error(node, "\"method\" must be a method name such as GET (token characters only)")
        }
        return method
    }

    private func labels(_ node: YAMLNode) throws(TargetsFileError) -> [(name: String, value: String)] {
        var labels: [(name: String, value: String)] = []
        for entry in try entries(node, key: "labels", context: "", allowed: nil) {
            if let problem = ReportLabel.problem(with: entry.key) {
                throw error(entry.keyNode, "label name \"\(entry.key)\": \(problem)")
            }
            labels.append((entry.key, try string(entry.value, key: entry.key)))
        }
        return labels
    }
}
