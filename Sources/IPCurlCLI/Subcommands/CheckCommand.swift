import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// `ipcurl check [OPTIONS] [URL...] [--targets FILE]`: probe URLs (every HTTPDNS address with `--all-ips`) in
/// parallel, check expectations and write a report; exit 0 when all pass, 1 when any fails, 2 for usage errors.
struct CheckCommand: Subcommand {
    static let name = "check"
    static let usage = "ipcurl check [options...] [<url>...] [--targets <file>]"
    static let summary = "Probe URLs at every HTTPDNS address, check expectations, report as text, JSON, JUnit, TAP, OpenMetrics or HTML."

    var resolver = ResolverOptions()
    /// The resolver options as given on the command line, replayed over a targets file's `resolver:` section.
    var resolverArguments: [(long: String, argument: OptionArgument)] = []
    var targets: String?
    var allIPs = false
    var expectStatus: StatusSet?
    var minCertDays: Int?
    var maxTimeMS: Int?
    var percentileMS: (p50: Int?, p95: Int?, p99: Int?)
    var samples: Int?
    var maxFailedSamples: Int?
    var retries: Int?
    var retryIntervalMS: Int?
    var compareSystem = false
    var parallel = 16
    var format = CheckFormat.text
    var output: String?
    var labels: [(name: String, value: String)] = []
    var headers: [String] = []
    var method: String?
    var verbose = false
    var silent = false
    var urls: [String] = []
    var help: String?
    var version = false

    static let category = OptionCategory("check", "What ipcurl check probes, expects and reports")

    static let rows = commonRows(category, for: ownRows) + ownRows

    private static let ownRows: [OptionRow<CheckCommand>] = [
        OptionRow("targets", nil, .file, "file", category, "Targets file (YAML or JSON): defaults, resolver, labels, targets",
                  important: true) { $0.targets = $1.text },
        OptionRow("all-ips", nil, .boolean, "", category, "One probe per address HTTPDNS returned (both families unless -4/-6)",
                  important: true) { $0.allIPs = $1.isOn },
        OptionRow("expect-status", nil, .string, "list", category,
                  "Accepted status codes: 200,204 or 2xx or 200-299 (default 2xx)") { command, argument in
            guard let set = StatusSet(parsing: argument.text) else {
                throw argument.problem("\(Printable.quoted(argument.text)): expected codes, classes (2xx) or ranges (200-299)")
            }
            command.expectStatus = set
        },
        OptionRow("min-cert-days", nil, .number, "n", category, "Fail when the certificate chain expires sooner") {
            $0.minCertDays = try $1.integer(in: Expectation.certificateDaysRange)
        },
        OptionRow("max-time-ms", nil, .number, "n", category, "Fail a probe that takes longer (connect to last byte)") {
            $0.maxTimeMS = try $1.integer(in: Expectation.millisecondsRange)
        },
        OptionRow("expect-p50-ms", nil, .number, "n", category, "Fail an address whose samples' median total time is longer") {
            $0.percentileMS.p50 = try $1.integer(in: Expectation.millisecondsRange)
        },
        OptionRow("expect-p95-ms", nil, .number, "n", category, "Fail an address whose samples' 95th percentile is longer") {
            $0.percentileMS.p95 = try $1.integer(in: Expectation.millisecondsRange)
        },
        OptionRow("expect-p99-ms", nil, .number, "n", category, "Fail an address whose samples' 99th percentile is longer") {
            $0.percentileMS.p99 = try $1.integer(in: Expectation.millisecondsRange)
        },
        OptionRow("samples", nil, .number, "n", category, "Probe each address N times, each on a fresh connection (1-1000)") {
            $0.samples = try $1.integer(in: CheckTarget.samplesRange)
        },
        OptionRow("max-failed-samples", nil, .number, "n", category, "Samples of an address that may fail (default 0)") {
            $0.maxFailedSamples = try $1.integer(in: CheckTarget.maxFailedSamplesRange)
        },
        OptionRow("retries", nil, .number, "n", category,
                  "Retry a failed probe (any failure) up to N times (0-100), on fresh connections") {
            $0.retries = try $1.integer(in: CheckTarget.retriesRange)
        },
        OptionRow("retry-interval", nil, .seconds, "seconds", category, "Pause before each retry (0-3600, default 1)") {
            $0.retryIntervalMS = Int((try $1.seconds(maximum: 3600) * 1000).rounded())
        },
    ] + curlRetryRows + [
        OptionRow("compare-system", nil, .boolean, "", category,
                  "Also ask the system resolver and report names whose answers differ") { $0.compareSystem = $1.isOn },
        OptionRow("parallel", nil, .number, "n", category, "Probes running at once (default 16)") {
            $0.parallel = try $1.integer(in: 1...1024)
        },
        OptionRow("format", nil, .string, "format", category, "text, json, junit, tap, openmetrics or html", important: true) {
            command, argument in
            guard let format = CheckFormat(rawValue: argument.text) else {
                throw argument.problem("\(Printable.quoted(String(argument.text.prefix(40)))): expected text, json, junit, tap, openmetrics or html")
            }
            command.format = format
        },
        OptionRow("output", "o", .file, "file", category, "Write the report to FILE atomically (temp file + rename)",
                  important: true) { $0.output = $1.text },
        OptionRow("label", nil, .string, "k=v", category, "Add a label to every metric, record and property",
                  repeatable: true) { command, argument in
            do throws(CurlError) { command.labels.append(try CheckLabels.parse(argument.text)) } catch {
                throw OptionError(error.message)
            }
        },
        OptionRow("header", "H", .string, "header", category, "Header for the URLs on the command line", repeatable: true,
                  secret: SecretArguments.header) {
            $0.headers.append($1.text)
        },
        OptionRow("request", "X", .string, "method", category, "Method for the URLs on the command line") { $0.method = $1.text },
        OptionRow("verbose", "v", .boolean, "", category, "Show resolution decisions and retries on stderr") { $0.verbose = $1.isOn },
        OptionRow("silent", "s", .boolean, "", category, "No warnings on stderr") { $0.silent = $1.isOn },
    ] + ResolverOptions.rows.map { row in
        row.lifted({ try $1(&$0.resolver) }) { command, argument in command.resolverArguments.append((row.long, argument)) }
    }

    /// Every row but ``curlRetryRows``: help, the man page and completions do not offer options that only refuse.
    static var documentedRows: [OptionRow<CheckCommand>] {
        allRows.filter { row in !curlRetryRows.contains { $0.long == row.long } }
    }

    /// curl's retry options, refused: check's ``retries`` retry any failure, a failed assertion included, so they
    /// have check's own names. A row each, so `--retry` is not taken for an abbreviation of `--retry-interval`.
    private static let curlRetryRows: [OptionRow<CheckCommand>] = [
        ("retry", ArgumentKind.number), ("retry-delay", .number), ("retry-max-time", .seconds),
        ("retry-all-errors", .boolean), ("retry-connrefused", .boolean),
    ].map { long, kind in
        OptionRow(long, nil, kind, kind.takesValue ? "value" : "", category, "curl's; check retries with --retries and --retry-interval") {
            _, argument in
            throw argument.problem("check retries with --retries N and --retry-interval SECONDS (any failure, "
                                   + "a failed assertion included, is tried again)")
        }
    }

    /// A URL to probe.
    mutating func take(_ url: String) { urls.append(url) }

    func run(_ base: Diagnostics) -> Completion {
        let plan: CheckPlan
        do throws(CurlError) { plan = try makePlan() } catch {
            // Usage, targets-file, resolver and trust errors (a malformed --resolve entry, an unreadable --cacert) are
            // all usage errors, so a probe failure is the only other ending; they read like curl's option errors.
            return .refused(.usage(error.message))
        }
        var diagnostics = base
        (diagnostics.verbose, diagnostics.showsWarnings) = (verbose, !silent)
        let path = output ?? "-"
        let line = CheckProgressLine.shouldShow(silent: silent, verbose: verbose) ? CheckProgressLine() : nil
        // A signal mid-run removes the report's temporary file and ends a progress line on screen.
        if path != "-" || line != nil { SignalCleanup.install() }
        let report = Check.run(plan, diagnostics: diagnostics, progress: { line?.update($0) })
        line?.finish()
        let colour = path == "-" && CheckReport.wantsColour(fileDescriptor: 1)
        do throws(CurlError) { try ReportFile.write(report.rendered(as: format, colour: colour), to: path) } catch {
            return .failed(error)
        }
        return report.passed ? .success : .probesFailed
    }

    /// What the command line says for every target, over the targets file's.
    private func applyCommandLine(to target: inout CheckTarget) {
        target.allIPs = target.allIPs || allIPs
        target.samples = samples ?? target.samples
        target.maxFailedSamples = maxFailedSamples ?? target.maxFailedSamples
        target.retries = retries ?? target.retries
        target.retryIntervalMS = retryIntervalMS ?? target.retryIntervalMS
    }

    private func makePlan() throws(CurlError) -> CheckPlan {
        guard !urls.isEmpty || targets != nil else { throw CurlError.usage("no URL to check: give URLs or --targets FILE") }
        // A targets file often comes from a repository or a pull request: it is not the operator's own.
        let trust = ConfigurationTrust.shared
        let file = try targets.map { path throws(CurlError) in try CheckTargetsFile.load(path, trust: trust) }
        let options = try file.map { file throws(CurlError) in
            try CheckTargetsFile.resolverOptions(file, path: targets ?? "", trust: trust, then: resolverArguments)
        } ?? resolver
        var expect = Expectation()
        expect.status = expectStatus
        expect.minCertDays = minCertDays
        expect.maxTimeMS = maxTimeMS
        (expect.p50MS, expect.p95MS, expect.p99MS) = percentileMS
        let fileDefaults = file?.defaults.expect ?? Expectation()
        var all = (file?.targets ?? []).map { target in
            var target = target
            target.expect = fileDefaults.overridden(by: expect).overridden(by: target.expect)
            applyCommandLine(to: &target)
            return target
        }
        for typed in urls {
            // curl's grammar: a URL without a scheme is http://; check probes http and https only (else exit 2).
            guard let parsed = try? CurlURL(typed), parsed.scheme == "http" || parsed.scheme == "https" else {
                throw CurlError.usage("\(Printable.quoted(CurlURL.redacted(text: typed))): not an http:// or https:// URL")
            }
            var target = CheckTarget(url: parsed.text)
            file?.defaults.apply(to: &target)
            target.expect = fileDefaults.overridden(by: expect)
            if !headers.isEmpty { target.headers = headers }
            if let method { target.method = method }
            applyCommandLine(to: &target)
            all.append(target)
        }
        var plan = CheckPlan(targets: all)
        plan.transport = try options.transport()
        plan.resolver = try options.settings()
        try plan.resolver.checkProvider(transport: plan.transport)
        plan.parallel = parallel
        plan.compareSystem = compareSystem
        plan.labels = CheckLabels.merged((file?.labels ?? []) + labels)
        return plan
    }
}
