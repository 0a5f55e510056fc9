/// `ipcurl exporter --config.file FILE`: blackbox_exporter 0.23's configuration file, read with libyaml as the check
/// targets file is (anchors, aliases, tags and duplicate keys refused; `yes`/`no` are not booleans; at most 16 MiB).
/// The whole blackbox schema is known: keys blackbox knows and ipcurl does not implement load with a warning each,
/// a module of another prober loads with one, and everything blackbox would refuse (an unknown key, a wrong type, a
/// bad regular expression or duration) is refused at its `FILE:LINE:COL`. The file is operator configuration, like
/// blackbox's: it may name CA, certificate and key files and, in `http.httpdns:`, resolver secrets.
///
/// ```yaml
/// modules:
///   http_2xx:
///     prober: http
///     timeout: 5s
///     http:
///       valid_status_codes: [200, 204]
///       preferred_ip_protocol: ip4
///       httpdns: { doh: https://dns.example/dns-query, all_ips: true }
/// ```
public struct ExporterConfig: Sendable {
    /// The modules by name.
    public var modules: [String: ExporterModule]
    /// The module names, in file order.
    public var moduleNames: [String]
    /// One line per setting read but not acted on, `FILE:LINE:COL: module "NAME": …`, escaped for a terminal.
    public var warnings: [String]

    /// The most bytes the file may hold (16 MiB); a larger one is refused, read no further than one byte past it.
    public static let maximumBytes = 16 << 20

    /// Reads and decodes the file at `path`. `resolverOptions` names the resolver keys `httpdns:` may say (dashed,
    /// without `--`) and what each takes: the CLI's, with the operator's trust.
    public static func load(path: String,
                            resolverOptions: [String: ResolverOptionKind]) throws(ExporterConfigError) -> ExporterConfig {
        try decode(text: try TargetsFile.readFile(path, atMost: maximumBytes + 1), path: path, resolverOptions: resolverOptions)
    }

    /// Decodes `text` as the contents of the file named `path` (used only in errors and warnings).
    public static func decode(text: [UInt8], path: String,
                              resolverOptions: [String: ResolverOptionKind]) throws(ExporterConfigError) -> ExporterConfig {
        guard text.count <= maximumBytes else {
            throw ExporterConfigError(path: path, line: 0, column: 0, message:
                "larger than \(TargetsFile.sizeText(maximumBytes)), the most a configuration file may hold")
        }
        let root: YAMLNode?
        do {
            root = try YAMLDocument.parse(text)
        } catch {
            throw ExporterConfigError(path: path, line: error.line, column: error.column, message: error.message)
        }
        guard let root else {
            // blackbox refuses an empty file too ("error parsing config file: EOF").
            throw ExporterConfigError(path: path, line: 1, column: 1,
                                      message: "the file holds no YAML document (it needs a \"modules\" mapping)")
        }
        var decoder = ExporterConfigDecoder(path: path, resolverOptions: resolverOptions)
        return try decoder.config(root)
    }
}

/// A configuration file that cannot be read or decoded, at the offending place: the targets file's error, since both
/// are read by the same code (`FILE:LINE:COL: message`, or `FILE: message` for the whole file).
public typealias ExporterConfigError = TargetsFileError
