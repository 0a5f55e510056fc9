#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPDNS

/// `ipcurl check --targets FILE`: the targets to probe plus the settings shared by all of them, read from YAML or
/// JSON (JSON is YAML's flow syntax, so libyaml reads both). Pretty-printed JSON reads as it is, indented with
/// spaces or tabs; only a tab before the opening `{` is a syntax error (YAML forbids tabs outside flow collections).
///
/// ```yaml
/// defaults: { all_ips: true, method: GET, headers: {X-Probe: ci}, expect: { status: 200, min_cert_days: 14 } }
/// resolver: { doh: https://dns.example/dns-query }
/// labels: { vantage: ci-shanghai }
/// targets:
///   - name: api
///     url: https://api.example.com/health
///     expect: { status: [200, 204], body_contains: ok, max_time_ms: 800 }
/// ```
public struct TargetsFile: Sendable {
    /// What `defaults:` sets for every target.
    public var defaults: TargetDefaults
    /// `resolver:` as command-line options, in file order (the CLI parses them like its own arguments).
    public var resolverArguments: [ResolverArgument]
    /// `labels:`, in file order.
    public var labels: [(name: String, value: String)]
    /// The targets, in file order. Each ``CheckTarget/expect`` is the target's own `expect:` only (merge it over
    /// ``TargetDefaults/expect`` with ``Expectation/overridden(by:)``); `all_ips`, `method` and `headers` already
    /// fall back to the defaults.
    public var targets: [CheckTarget]

    /// The most bytes a targets file may hold (16 MiB); a larger one is refused, read no further than one byte
    /// past it.
    public static let maximumBytes = 16 << 20

    /// Reads and decodes the file at `path`. `resolverOptions` names the `resolver:` keys the CLI accepts
    /// (dashed, without `--`) and what each takes.
    public static func load(path: String,
                            resolverOptions: [String: ResolverOptionKind]) throws(TargetsFileError) -> TargetsFile {
        try decode(readFile(path, atMost: maximumBytes + 1), path: path, resolverOptions: resolverOptions)
    }

    /// Decodes `text` as the contents of a file named `path` (used only in errors).
    public static func parse(_ text: String, path: String,
                             resolverOptions: [String: ResolverOptionKind]) throws(TargetsFileError) -> TargetsFile {
        try decode(Array(text.utf8), path: path, resolverOptions: resolverOptions)
    }

    /// Decodes `bytes` as the contents of a file named `path`, as ``load(path:resolverOptions:)`` does after reading
    /// it; more than `maximumBytes` (``maximumBytes`` unless a fuzzer asks for less) is an error.
    @_spi(Fuzzing) public static func decode(_ bytes: [UInt8], path: String, resolverOptions: [String: ResolverOptionKind],
                                             maximumBytes: Int = maximumBytes) throws(TargetsFileError) -> TargetsFile {
        guard bytes.count <= maximumBytes else {
            throw TargetsFileError(path: path, line: 0, column: 0,
                                   message: "larger than \(sizeText(maximumBytes)), the most a targets file may hold")
        }
        let root: YAMLNode?
        do {
            root = try YAMLDocument.parse(bytes)
        } catch {
            throw TargetsFileError(path: path, line: error.line, column: error.column, message: error.message)
        }
        guard let root else {
            throw TargetsFileError(path: path, line: 1, column: 1,
                                   message: "the file holds no YAML or JSON document (it needs a \"targets\" list)")
        }
        return try TargetsFileDecoder(path: path, resolverOptions: resolverOptions).file(root)
    }

    /// `16 MiB`, or `1000 bytes` for a size that is not a whole number of MiB.
    static func sizeText(_ bytes: Int) -> String { bytes > 0 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes" }

    /// The bytes of the file at `path`, no more than `limit` of them; an error without a position when it cannot be
    /// read. The exporter's configuration file is read the same way.
    static func readFile(_ path: String, atMost limit: Int) throws(TargetsFileError) -> [UInt8] {
        func failure() -> TargetsFileError {
            TargetsFileError(path: path, line: 0, column: 0, message: "cannot read: " + String(cString: strerror(errno)))
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure() }
        defer { close(descriptor) }
        guard let bytes = LocalFiles.readAll(descriptor, atMost: limit) else { throw failure() }
        return bytes
    }
}

/// `defaults:` in a targets file: what every target gets unless it says otherwise.
public struct TargetDefaults: Sendable, Equatable {
    /// `all_ips`, when given.
    public var allIPs: Bool?
    /// The expectation every target's own `expect:` is merged over.
    public var expect: Expectation
    /// The method of targets without one.
    public var method: String?
    /// The header lines (`Name: value`) of targets without `headers:`.
    public var headers: [String]
    /// `samples`, when given: how many times each address of a target without its own is probed.
    public var samples: Int?
    /// `max_failed_samples`, when given.
    public var maxFailedSamples: Int?
    /// `retries`, when given.
    public var retries: Int?
    /// `retry_interval` in milliseconds, when given.
    public var retryIntervalMS: Int?

    /// `target` with every default given here; what is not given stays `target`'s. Not the expectation, which is
    /// merged key by key (``Expectation/overridden(by:)``).
    public func apply(to target: inout CheckTarget) {
        if let allIPs { target.allIPs = allIPs }
        if let method { target.method = method }
        target.headers = headers
        if let samples { target.samples = samples }
        if let maxFailedSamples { target.maxFailedSamples = maxFailedSamples }
        if let retries { target.retries = retries }
        if let retryIntervalMS { target.retryIntervalMS = retryIntervalMS }
    }

    /// Defaults that set nothing, or the given ones.
    public init(allIPs: Bool? = nil, expect: Expectation = Expectation(), method: String? = nil, headers: [String] = []) {
        self.allIPs = allIPs
        self.expect = expect
        self.method = method
        self.headers = headers
    }
}

/// What a `resolver:` key takes, as the matching command-line option does.
public enum ResolverOptionKind: Sendable {
    /// `true` or `false` (`--no-fallback`).
    case flag
    /// One scalar (`--doh URL`, `--dns-timeout 2`).
    case value
    /// A scalar or a list of scalars, one option each (`--resolve`, repeatable).
    case values
    /// A key the file may not say, and what the option does (`runs a program`): an error at the key. Options that
    /// run programs, read secrets or change trust are the operator's to give, on the command line.
    case refused(String)
}

/// One `resolver:` setting turned into a command-line option.
public struct ResolverArgument: Sendable, Equatable {
    /// The option, `--` and the key with dashes: `--doh-json`.
    public var option: String
    /// The value as written (numbers as their text); `nil` for a flag.
    public var value: String?
    /// Where the value is, for the CLI's own errors about it (1-based).
    public var line: Int
    /// The value's column (1-based).
    public var column: Int

    /// `option value` found at `line`:`column`.
    public init(option: String, value: String?, line: Int, column: Int) {
        self.option = option
        self.value = value
        self.line = line
        self.column = column
    }
}

/// A targets file (or the exporter's configuration file, or its web configuration) that cannot be read or decoded,
/// at the offending place.
public struct TargetsFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as named.
    public var path: String
    /// The 1-based line; 0 when the error concerns the whole file (it cannot be read).
    public var line: Int
    /// The 1-based column (in characters); 0 with line 0.
    public var column: Int
    /// One line saying what is wrong.
    public var message: String

    /// An error in `path` at `line`:`column`.
    public init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `FILE:LINE:COL: message`, or `FILE: message` without a position; one line whatever the file holds, since
    /// messages quote keys and names from it (control characters are escaped with ``Printable``).
    public var description: String {
        Printable.escaped(line == 0 ? "\(path): \(message)" : "\(path):\(line):\(column): \(message)")
    }
}
