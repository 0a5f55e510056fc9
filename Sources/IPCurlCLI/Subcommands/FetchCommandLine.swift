import CurlKit
import IPCurlCore
import OptionTable

/// One part of a fetch command line (curl's operation): the options before a `--next` and the URLs they apply to.
struct FetchOperation: Sendable {
    var resolver = ResolverOptions()
    var transfer = TransferOptions()
    var output = OutputOptions()
    var follow = FollowOptions()
    var tls = TLSOptions()
    var proxy = ProxyOptions()
    var auth = AuthOptions()
    var protocols = ProtocolOptions()
    var routing = RoutingOptions()
    var urls = URLList()
    var tuning = TransferTuning()
    var conditions = ConditionOptions()
    /// The curl options given that have no effect here, each with why (``IgnoredOptions``).
    var ignored = IgnoredOptions()
    /// `-g/--globoff`: `[]{}` in this operation's URLs are literal.
    var globoff = false
}

/// `ipcurl [OPTIONS] URL...` (also `ipcurl fetch`): everything a fetch command line says, its operations (split by
/// `--next`) and what `--help`/`--version` ask for; ``FetchCommand`` runs it.
struct FetchCommandLine: Subcommand {
    static let name = "fetch"
    static let usage = "ipcurl [options...] <url>..."
    static let summary = "Fetch URLs IP-direct (the default: 'ipcurl URL' is 'ipcurl fetch URL'), with curl's options."
    static var category: OptionCategory { general }

    var operations = [FetchOperation()]
    /// `-s`, `-S`, `--no-progress-meter`, `-v`: global in curl, whichever operation they are given in.
    var globalOutput = OutputOptions()
    /// A config file's warnings are shown unless `-s` stands anywhere on the command line or in a config file.
    var showsWarnings: Bool { !globalOutput.silent }
    /// `--help WORD`: the word (empty for plain `--help`).
    var help: String?
    var version = false
    /// `-Z/--parallel`, `--parallel-max`, `--fail-early`: how the transfers of every operation run.
    var parallel = false, parallelMax = FetchBatch.defaultParallelMax, failEarly = false
    /// `--rate`: the least milliseconds between two transfer starts.
    var startIntervalMS: Int?
    /// `-M/--manual`.
    var manual = false
    /// `--trace`/`--trace-ascii FILE` (the last one wins, as in curl), `--trace-time`, `--stderr FILE`.
    var trace: (path: String, asciiOnly: Bool)?, traceTime = false, stderrPath: String?

    /// The operation the options being read apply to, changed in place (a get and a set would copy the whole
    /// operation, and its arrays, for every option and URL).
    var current: FetchOperation {
        get { operations[operations.count - 1] }
        _modify { yield &operations[operations.count - 1] }
    }

    static let general = OptionCategory("important", "The options most requests use")
    static let several = OptionCategory("transfers", "Several URLs per run: globbing, parallel transfers")
    static let debug = OptionCategory("debug", "Tracing what is sent and received")

    /// The options most command lines name, which the parser starts with: what is sent, where the output goes,
    /// redirects, the resolver, TLS, the command line's own rows, help and version. ``laterRows`` holds the rest.
    static let rows: [OptionRow<FetchCommandLine>] = {
        // One array grown in place: a chain of `+` would copy every row once per group after it.
        var rows: [OptionRow<FetchCommandLine>] = []
        rows.reserveCapacity(160)
        lift(TransferOptions.rows, into: &rows) { try $1(&$0.current.transfer) }
        lift(URLList.rows, into: &rows) { try $1(&$0.current.urls) }
        for row in OutputOptions.rows {
            rows.append(OutputOptions.globalNames.contains(row.long) ? row.lifted({ try $1(&$0.globalOutput) })
                                                                     : row.lifted({ try $1(&$0.current.output) }))
        }
        lift(FollowOptions.rows, into: &rows) { try $1(&$0.current.follow) }
        lift(ResolverOptions.rows, into: &rows) { try $1(&$0.current.resolver) }
        lift(TLSOptions.rows, into: &rows) { try $1(&$0.current.tls) }
        rows += ownRows
        rows += commonRows(general, for: rows, laterCategories: laterCategories)
        return rows
    }()

    /// Proxies, authentication, protocols, routing, tuning, connections, conditions and the options without
    /// effect: built only for a command line that names one of them (or for help and the documents), so a
    /// request that names none pays nothing for them at start-up.
    static var laterRows: [OptionRow<FetchCommandLine>] {
        var rows: [OptionRow<FetchCommandLine>] = []
        rows.reserveCapacity(180)
        lift(ProxyOptions.rows, into: &rows) { try $1(&$0.current.proxy) }
        lift(AuthOptions.rows, into: &rows) { try $1(&$0.current.auth) }
        lift(ProtocolOptions.rows, into: &rows) { try $1(&$0.current.protocols) }
        lift(RoutingOptions.rows, into: &rows) { try $1(&$0.current.routing) }
        lift(TuningOptions.rows, into: &rows) { try $1(&$0.current.tuning) }
        lift(ConnectionOptions.rows, into: &rows) { try $1(&$0.current.tuning) }
        lift(ConditionOptions.rows, into: &rows) { try $1(&$0.current.conditions) }
        lift(IgnoredOptions.rows, into: &rows) { try $1(&$0.current.ignored) }
        return rows
    }

    /// The categories of ``laterRows``, for `--help`'s words, without building the rows.
    private static var laterCategories: [OptionCategory] {
        [ProxyOptions.category, AuthOptions.category, ProtocolOptions.category, RoutingOptions.category,
         TuningOptions.category, ConnectionOptions.category, IgnoredOptions.category]
    }

    /// Appends `part`'s rows to `rows`, each applied to the part `path` reaches.
    private static func lift<Part>(_ part: [OptionRow<Part>], into rows: inout [OptionRow<FetchCommandLine>],
                                   _ path: @escaping @Sendable (inout FetchCommandLine, (inout Part) throws -> Void) throws -> Void) {
        for row in part { rows.append(row.lifted(path)) }
    }

    /// The rows of the command line itself (operations, several URLs, traces, config files).
    private static var ownRows: [OptionRow<FetchCommandLine>] {
        [
            OptionRow("next", ":", .none, "", general,
                      "Start a new operation: the options after it apply to the URLs after it") { line, _ in
                line.operations.append(FetchOperation())
            },
            OptionRow("globoff", "g", .boolean, "", several, "Take [] and {} in URLs literally (no globbing)") {
                $0.current.globoff = $1.isOn
            },
            OptionRow("parallel", "Z", .boolean, "", several, "Run the transfers at the same time (up to --parallel-max)") {
                $0.parallel = $1.isOn
            },
            OptionRow("parallel-max", nil, .number, "num", several,
                      "Most transfers running at once with -Z (default 50; above 300 means 300, 0 the default)") {
                // As curl: out of range is clamped, not refused; a negative number is a usage error.
                let asked = try $1.integer()
                guard asked >= 0 else { throw $1.problem("expected a positive numerical parameter") }
                $0.parallelMax = asked == 0 ? FetchBatch.defaultParallelMax : min(asked, FetchBatch.largestParallelMax)
            },
            OptionRow("fail-early", nil, .boolean, "", several, "Start no transfer after one has failed; exit with its code") {
                $0.failEarly = $1.isOn
            },
            OptionRow("parallel-immediate", nil, .boolean, "", several,
                      "With -Z, connect at once rather than wait to share a connection: ipcurl's -Z always does") { _, _ in },
            OptionRow("rate", nil, .string, "N/unit", several,
                      "Start at most N transfers per s, m, h (the default) or d, one after another (not with -Z)") {
                $0.startIntervalMS = try rateInterval($1)
            },
            OptionRow("progress-bar", "#", .boolean, "", OutputOptions.output,
                      "Show progress as a bar: ipcurl's meter is always one, so this is accepted for curl scripts") { _, _ in },
            OptionRow("manual", "M", .boolean, "", general, "Show the manual") { $0.manual = $1.isOn },
            OptionRow("trace", nil, .file, "file", debug,
                      "Dump everything sent and received, in hex and text, to FILE (- for stdout); credentials redacted") {
                $0.trace = ($1.text, false)
            },
            OptionRow("trace-ascii", nil, .file, "file", debug, "Like --trace, text only") { $0.trace = ($1.text, true) },
            OptionRow("trace-time", nil, .boolean, "", debug, "Start every trace dump with the local time") { $0.traceTime = $1.isOn },
            OptionRow("stderr", nil, .file, "file", debug, "Write what goes to stderr (errors, -v) to FILE instead; - is stdout") {
                $0.stderrPath = $1.text
            },
            OptionRow("config", "K", .file, "file", general,
                      "Read options from FILE in curl's config syntax (- reads stdin)", repeatable: true) { _, _ in },
            OptionRow("disable", "q", .none, "", general,
                      "As the first option: don't read the default config file") { _, _ in },
        ]
    }

    /// `--rate N[/unit]` as curl reads it: N at least 1, unit `s`, `m`, `h` (the default) or `d`; the interval
    /// between starts in milliseconds.
    static func rateInterval(_ argument: OptionArgument) throws(OptionError) -> Int {
        let parts = argument.text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let count = try OptionArgument(text: String(parts[0]), spelling: argument.spelling).integer()
        guard count >= 1 else { throw argument.problem("is badly used here") }
        let unit: Int
        switch parts.count > 1 ? parts[1].first : "h" {
        case "s": unit = 1000
        case "m": unit = 60_000
        case "h": unit = 3_600_000
        case "d": unit = 86_400_000
        default: throw argument.problem("unsupported --rate unit")
        }
        return unit / count
    }

    /// A URL of the current operation.
    mutating func take(_ url: String) { current.urls.add(url: url) }

    /// The default config file, read before the command line unless the first argument is `--disable` or starts
    /// with `-q` (`-q`, `-qs`), as in curl.
    static func prefix(for arguments: [String]) -> [String] {
        if let first = arguments.first, first.hasPrefix("-q") || first == "--disable" { return [] }
        guard let path = DefaultConfig.path() else { return [] }
        return ["--config", path]
    }

    func run(_ diagnostics: Diagnostics) -> Completion { FetchCommand.run(self, diagnostics) }
}
