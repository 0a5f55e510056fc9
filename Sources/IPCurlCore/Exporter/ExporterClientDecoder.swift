/// The parts of a module's `http:` block blackbox takes from prometheus/common's `HTTPClientConfig` (TLS,
/// credentials, and the keys ipcurl ignores), and ipcurl's own `httpdns:`.
extension ExporterConfigDecoder {
    /// `tls_config`; versions as prometheus/common spells them (`TLS12`).
    func tls(_ node: YAMLNode) throws(TargetsFileError) -> TLSSettings {
        var tls = TLSSettings()
        guard let entries = try mapping(node, key: "tls_config") else { return tls }
        try allowed(entries, ExporterSchema.tlsKeys, in: "in tls_config")
        var versionNodes: [YAMLNode] = []
        for entry in entries {
            let key = entry.key, value = entry.value
            switch key {
            case "ca_file": tls.caFile = try optionalString(value, key: key)
            case "cert_file": tls.certFile = try optionalString(value, key: key)
            case "key_file": tls.keyFile = try optionalString(value, key: key)
            case "server_name": tls.serverName = try optionalString(value, key: key)
            case "insecure_skip_verify": tls.insecureSkipVerify = try optionalBool(value, key: key) ?? false
            default:
                let version = try tlsVersion(value, key: key)
                if key == "min_version" { tls.minVersion = version } else { tls.maxVersion = version }
                versionNodes.append(value)
            }
        }
        if let low = tls.minVersion, let high = tls.maxVersion, low > high, let last = versionNodes.last {
            // No handshake could succeed; Go would fail each probe with "no supported versions".
            throw values.error(last, "\"min_version\" \(name(of: low)) is above \"max_version\" \(name(of: high))")
        }
        return tls
    }

    private func tlsVersion(_ node: YAMLNode, key: String) throws(TargetsFileError) -> TLSVersion? {
        if case .scalar = node.content, node.text == nil { return nil }
        guard let text = node.text, let version = ExporterSchema.tlsVersions.first(where: { $0.name == text })?.version else {
            let names = ExporterSchema.tlsVersions.map(\.name).joined(separator: ", ")
            throw values.error(node, "\"\(key)\" must be one of \(names)")
        }
        return version
    }

    private func name(of version: TLSVersion) -> String {
        ExporterSchema.tlsVersions.first { $0.version == version }?.name ?? version.label
    }

    /// `basic_auth`; a password and a password file together are refused, as prometheus/common refuses them.
    func basicAuth(_ node: YAMLNode) throws(TargetsFileError) -> BasicAuthSettings? {
        guard let entries = try mapping(node, key: "basic_auth") else { return nil }
        try allowed(entries, ExporterSchema.basicAuthKeys, in: "in basic_auth")
        var auth = BasicAuthSettings(username: "", password: nil, passwordFile: nil)
        for entry in entries {
            let text = try optionalString(entry.value, key: entry.key)
            switch entry.key {
            case "username": auth.username = text ?? ""
            case "password": auth.password = text
            default: auth.passwordFile = text
            }
        }
        if auth.password != nil, auth.passwordFile != nil, let last = entries.last(where: { $0.key != "username" }) {
            throw values.error(last.keyNode, "at most one of basic_auth password & password_file must be configured")
        }
        return auth
    }

    /// ipcurl's `httpdns:`: `all_ips`, `compare_system`, and the resolver keys of a targets file's `resolver:`,
    /// read by the same code with the trust the caller's `resolverOptions` give.
    func httpdns(_ node: YAMLNode) throws(TargetsFileError) -> HTTPDNSBlock? {
        guard let entries = try mapping(node, key: "httpdns") else { return nil }
        var block = HTTPDNSBlock()
        var resolverEntries: [YAMLEntry] = []
        for entry in entries {
            switch entry.key {
            case "all_ips": block.allIPs = try optionalBool(entry.value, key: entry.key) ?? false
            case "compare_system": block.compareSystem = try optionalBool(entry.value, key: entry.key) ?? false
            default: resolverEntries.append(entry)
            }
        }
        let resolver = YAMLNode(content: .mapping(resolverEntries), line: node.line, column: node.column)
        block.resolverArguments = try values.resolverArguments(resolver, section: "httpdns", otherKeys: ExporterSchema.httpdnsKeys)
        return block
    }

    /// A key ipcurl does not implement: its type checked as blackbox checks it, and a warning when it says something.
    mutating func ignored(_ entry: YAMLEntry, module name: String) throws(TargetsFileError) {
        guard let shape = ExporterSchema.ignoredHTTPKeys.first(where: { $0.key == entry.key })?.shape else { return }
        let given: Bool
        switch shape {
        case .bool: given = try optionalBool(entry.value, key: entry.key) != nil
        case .string: given = try optionalString(entry.value, key: entry.key) != nil
        case .mapping: given = try mapping(entry.value, key: entry.key) != nil
        }
        if given { warn(entry.keyNode, "module \"\(name)\": \"\(entry.key)\" is not supported by ipcurl exporter; ignored") }
    }

    /// prometheus/common's `HTTPClientConfig.Validate` on which credentials may go together (its rules and words),
    /// and its rule that `proxy_connect_header` needs `proxy_url`; the error is at the later of the two keys.
    func checkExclusions(_ entries: [YAMLEntry]) throws(TargetsFileError) {
        let given = entries.filter { entry in
            switch entry.value.content {
            case let .mapping(items): entry.key != "proxy_connect_header" || !items.isEmpty
            case .scalar: !(entry.value.text ?? "").isEmpty
            case .sequence: true
            }
        }
        func first(of keys: [String]) -> YAMLEntry? { given.first { keys.contains($0.key) } }
        for rule in ExporterSchema.exclusions {
            guard let one = first(of: rule.first), let other = first(of: rule.second) else { continue }
            let later = (one.keyNode.line, one.keyNode.column) < (other.keyNode.line, other.keyNode.column) ? other : one
            throw values.error(later.keyNode, rule.message)
        }
        if let header = first(of: ["proxy_connect_header"]), first(of: ["proxy_url"]) == nil {
            throw values.error(header.keyNode, "if proxy_connect_header is configured proxy_url must also be configured")
        }
    }
}
