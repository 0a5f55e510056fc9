/// A module's `http:` block (blackbox's `HTTPProbe`), read into an ``HTTPProbeModule``.
extension ExporterConfigDecoder {
    /// The block's settings over blackbox's defaults; `name` is the module's, for warnings.
    mutating func http(_ entries: [YAMLEntry], module name: String) throws(TargetsFileError) -> HTTPProbeModule {
        try allowed(entries, ExporterSchema.httpKeys, in: "in http")
        var probe = HTTPProbeModule()
        var noFollowRedirects: (value: Bool, entry: YAMLEntry)?
        for entry in entries {
            let key = entry.key, value = entry.value
            switch key {
            case "valid_status_codes": probe.validStatusCodes = try statusCodes(value)
            case "valid_http_versions": probe.validHTTPVersions = try strings(value, key: key)
            case "method": probe.method = try method(value) ?? probe.method
            case "headers": probe.headers = try headers(value)
            case "body": probe.body = try optionalString(value, key: key)
            case "fail_if_ssl": probe.failIfSSL = try optionalBool(value, key: key) ?? false
            case "fail_if_not_ssl": probe.failIfNotSSL = try optionalBool(value, key: key) ?? false
            case "fail_if_body_matches_regexp": probe.failIfBodyMatches = try regexps(value, key: key)
            case "fail_if_body_not_matches_regexp": probe.failIfBodyNotMatches = try regexps(value, key: key)
            case "fail_if_header_matches": probe.failIfHeaderMatches = try headerMatches(value, key: key)
            case "fail_if_header_not_matches": probe.failIfHeaderNotMatches = try headerMatches(value, key: key)
            case "follow_redirects": probe.followRedirects = try optionalBool(value, key: key) ?? true
            case "no_follow_redirects": noFollowRedirects = try optionalBool(value, key: key).map { ($0, entry) }
            case "tls_config": probe.tls = try tls(value)
            case "basic_auth": probe.basicAuth = try basicAuth(value)
            case "bearer_token": probe.bearerToken = try optionalString(value, key: key)
            case "preferred_ip_protocol":
                let given = try ipProtocol(value, module: name)
                (probe.preferredIPProtocol, probe.preferredIPProtocolGiven) = (given ?? .ip6, given != nil)
            case "ip_protocol_fallback": probe.ipProtocolFallback = try optionalBool(value, key: key) ?? true
            case "httpdns": probe.httpdns = try httpdns(value)
            default: try ignored(entry, module: name)
            }
        }
        if let noFollowRedirects {
            probe.followRedirects = !noFollowRedirects.value
            warn(noFollowRedirects.entry.keyNode, "module \"\(name)\": \"no_follow_redirects\" is deprecated (blackbox_exporter "
                 + "replaces it with \"follow_redirects\"); read as follow_redirects: \(probe.followRedirects)")
        }
        try checkExclusions(entries)
        return probe
    }

    /// Status codes: unquoted whole numbers a response can carry (blackbox takes any `int`, which outside 100–999
    /// can only fail every probe).
    private func statusCodes(_ node: YAMLNode) throws(TargetsFileError) -> [Int] {
        var codes: [Int] = []
        for item in try list(node, key: "valid_status_codes") {
            let message = "each \"valid_status_codes\" entry must be an unquoted whole number from 100 to 999"
            codes.append(try values.integer(item, in: 100...999, message: message))
        }
        return codes
    }

    /// A list of scalars, each as written (null as empty, as yaml.v3 reads it into a string).
    private func strings(_ node: YAMLNode, key: String) throws(TargetsFileError) -> [String] {
        var texts: [String] = []
        for item in try list(node, key: key) { texts.append(try optionalString(item, key: key) ?? "") }
        return texts
    }

    /// A method name, `nil` for none (GET). blackbox would send any text and fail each probe at its request.
    private func method(_ node: YAMLNode) throws(TargetsFileError) -> String? {
        guard let method = try optionalString(node, key: "method") else { return nil }
        guard TargetsFileDecoder.isToken(method) else {
            throw values.error(node, "\"method\" must be a method name such as GET (token characters only)")
        }
        return method
    }

    /// Header names and values in file order: names are tokens, values one line (null is an empty value).
    private func headers(_ node: YAMLNode) throws(TargetsFileError) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        for entry in try mapping(node, key: "headers") ?? [] {
            guard TargetsFileDecoder.isToken(entry.key) else {
                throw values.error(entry.keyNode, "header name \"\(entry.key)\" must be token characters only (no spaces or colons)")
            }
            if case .scalar = entry.value.content {} else {
                throw values.error(entry.value,
                                   "the value of header \"\(entry.key)\" must be a string, not \(entry.value.kindDescription)")
            }
            let value = entry.value.text ?? ""
            guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw values.error(entry.value, "the value of header \"\(entry.key)\" must not contain line breaks")
            }
            headers.append((entry.key, value))
        }
        return headers
    }

    /// A list of regular expressions, each compiled as the probe will run it.
    private func regexps(_ node: YAMLNode, key: String) throws(TargetsFileError) -> [String] {
        var patterns: [String] = []
        for item in try list(node, key: key) {
            guard let pattern = item.text else {
                throw values.error(item, "each \"\(key)\" entry must be a regular expression, not \(item.kindDescription)")
            }
            try compile(pattern, at: item, key: key)
            patterns.append(pattern)
        }
        return patterns
    }

    /// `fail_if_header_matches` or `fail_if_header_not_matches`.
    private func headerMatches(_ node: YAMLNode, key: String) throws(TargetsFileError) -> [HeaderMatch] {
        var matches: [HeaderMatch] = []
        for item in try list(node, key: key) {
            guard case let .mapping(entries) = item.content else {
                throw values.error(item, "each \"\(key)\" entry must be a mapping with \"header\" and \"regexp\", not \(item.kindDescription)")
            }
            try allowed(entries, ExporterSchema.headerMatchKeys, in: "in \(key)")
            var match = HeaderMatch(header: "", regexp: "", allowMissing: false)
            var regexpNode = item
            for entry in entries {
                switch entry.key {
                case "header": match.header = try optionalString(entry.value, key: entry.key) ?? ""
                case "regexp": (match.regexp, regexpNode) = (try optionalString(entry.value, key: entry.key) ?? "", entry.value)
                default: match.allowMissing = try optionalBool(entry.value, key: entry.key) ?? false
                }
            }
            // blackbox's HeaderMatch.UnmarshalYAML, in its order and words.
            guard !match.header.isEmpty else { throw values.error(item, "\"header\" must be set for HTTP header matchers") }
            guard !match.regexp.isEmpty else { throw values.error(item, "\"regexp\" must be set for HTTP header matchers") }
            try compile(match.regexp, at: regexpNode, key: "regexp")
            matches.append(match)
        }
        return matches
    }

    private func compile(_ pattern: String, at node: YAMLNode, key: String) throws(TargetsFileError) {
        do {
            _ = try ExporterRegex.compile(pattern)
        } catch {
            let reason = String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
            throw values.error(node, "\"\(key)\" is not a valid regular expression: \(reason)")
        }
    }

    /// `ip4` or `ip6`; like blackbox, anything but `ip6` or nothing is ip4, with a warning. `nil` for nothing (null or
    /// empty), which blackbox reads as its default, ip6.
    private mutating func ipProtocol(_ node: YAMLNode, module name: String) throws(TargetsFileError) -> ProbeIPProtocol? {
        guard let text = try optionalString(node, key: "preferred_ip_protocol") else { return nil }
        guard text != "ip6" else { return .ip6 }
        if text != "ip4" {
            warn(node, "module \"\(name)\": \"preferred_ip_protocol\" is \"\(text)\", neither ip4 nor ip6: read as ip4, "
                 + "as blackbox_exporter reads it")
        }
        return .ip4
    }
}
