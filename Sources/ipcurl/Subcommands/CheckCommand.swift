import ArgumentParser
import CurlKit
import HTTPDNS
import IPCurlCore

extension CheckFormat: ExpressibleByArgument {}

/// `ipcurl check [OPTIONS] [URL...] [--targets FILE]`: probe URLs (every HTTPDNS address with `--all-ips`) in
/// parallel, check expectations and write a report; exit 0 when all pass, 1 when any fails, 2 for usage errors.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Probe URLs at every HTTPDNS address, check expectations, report as text, JSON, JUnit, TAP or OpenMetrics.",
        discussion: """
            Each probe is a fresh connection pinned to one address with SNI, Host and verification on the name. \
            Exit 0 when every probe passes, 1 when any fails, 2 for usage and targets-file errors. \
            Stdout holds only the report.
            """
    )

    @OptionGroup var resolver: ResolverOptions

    @Option(help: ArgumentHelp("Targets file (YAML or JSON): defaults, resolver, labels, targets.", valueName: "FILE"))
    var targets: String?

    @Flag(name: .customLong("all-ips"), help: "One probe per address HTTPDNS returned (both families unless -4/-6).")
    var allIPs = false

    @Option(name: .customLong("expect-status"),
            help: ArgumentHelp("Accepted status codes: 200,204 or 2xx or 200-299 (default 2xx).", valueName: "LIST"))
    var expectStatus: String?

    @Option(name: .customLong("min-cert-days"), help: ArgumentHelp("Fail when the certificate chain expires sooner.", valueName: "N"))
    var minCertDays: Int?

    @Option(name: .customLong("max-time-ms"), help: ArgumentHelp("Fail a probe that takes longer (connect to last byte).", valueName: "N"))
    var maxTimeMS: Int?

    @Flag(name: .customLong("compare-system"), help: "Also ask the system resolver and report names whose answers differ.")
    var compareSystem = false

    @Option(help: ArgumentHelp("Probes running at once (default 16).", valueName: "N"))
    var parallel = 16

    @Option(help: ArgumentHelp("text, json, junit, tap or openmetrics.", valueName: "FORMAT"))
    var format = CheckFormat.text

    @Option(name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Write the report to FILE atomically (temp file + rename).", valueName: "FILE"))
    var output: String?

    @Option(name: .customLong("label"), help: ArgumentHelp("Add a label to every metric, record and property (repeatable).", valueName: "K=V"))
    var labels: [String] = []

    @Option(name: [.customShort("H"), .customLong("header")], help: ArgumentHelp("Header for the URLs on the command line.", valueName: "LINE"))
    var headers: [String] = []

    @Option(name: [.customShort("X"), .customLong("request")], help: ArgumentHelp("Method for the URLs on the command line.", valueName: "METHOD"))
    var method: String?

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "Show resolution decisions on stderr.")
    var verbose = false

    @Flag(name: [.customShort("s"), .customLong("silent")], help: "No warnings on stderr.")
    var silent = false

    @Argument(help: "URLs to probe (with or instead of --targets).")
    var urls: [String] = []

    func validate() throws {
        guard !urls.isEmpty || targets != nil else { throw ValidationError("no URL to check: give URLs or --targets FILE") }
        guard (1...1024).contains(parallel) else { throw ValidationError("--parallel \(parallel): expected 1-1024") }
        if let expectStatus, StatusSet(parsing: expectStatus) == nil {
            throw ValidationError("--expect-status \(ResolveEntry.quoted(expectStatus)): expected codes, classes (2xx) or ranges (200-299)")
        }
        if let minCertDays, minCertDays < 0 { throw ValidationError("--min-cert-days: expected 0 or more") }
        if let maxTimeMS, maxTimeMS <= 0 { throw ValidationError("--max-time-ms: expected a positive number") }
        for label in labels {
            do throws(CurlError) { _ = try CheckLabels.parse(label) } catch { throw ValidationError(error.message) }
        }
    }

    func run() throws {
        let plan: CheckPlan
        do throws(CurlError) { plan = try makePlan() } catch {
            // Usage, targets-file, resolver and trust errors (a malformed --resolve entry, an unreadable --cacert) are
            // all exit 2, so 1 always means a probe failed; they read like curl's option errors: no "(N)" before the text.
            DescriptorWriter.standardError.write("ipcurl: \(error.message)\n")
            throw ExitCode(2)
        }
        let path = output ?? "-"
        if path != "-" { SignalCleanup.install() }  // a signal mid-run removes the report's temporary file
        let report = Check.run(plan)
        let colour = path == "-" && CheckReport.wantsColour(fileDescriptor: 1)
        do throws(CurlError) { try ReportFile.write(report.rendered(as: format, colour: colour), to: path) } catch {
            DescriptorWriter.standardError.write("ipcurl: \(error)\n")
            throw ExitCode(error.exitCode)
        }
        throw ExitCode(report.passed ? 0 : 1)
    }

    private func makePlan() throws(CurlError) -> CheckPlan {
        let file = try targets.map { path throws(CurlError) in try CheckTargetsFile.load(path) }
        let options = try file.map { file throws(CurlError) in try CheckTargetsFile.resolverOptions(file, path: targets ?? "") } ?? resolver
        var expect = Expectation()
        expect.status = expectStatus.flatMap(StatusSet.init(parsing:))
        expect.minCertDays = minCertDays
        expect.maxTimeMS = maxTimeMS
        let fileDefaults = file?.defaults.expect ?? Expectation()
        var all = (file?.targets ?? []).map { target in
            var target = target
            target.expect = fileDefaults.overridden(by: expect).overridden(by: target.expect)
            target.allIPs = target.allIPs || allIPs
            return target
        }
        for typed in urls {
            // curl's grammar: a URL without a scheme is http://; check probes http and https only (else exit 2).
            guard let parsed = try? CurlURL(typed), parsed.scheme == "http" || parsed.scheme == "https" else {
                throw CurlError.usage("\(ResolveEntry.quoted(ServerURL.redacted(typed))): not an http:// or https:// URL")
            }
            var target = CheckTarget(url: parsed.text)
            target.expect = fileDefaults.overridden(by: expect)
            target.allIPs = allIPs || file?.defaults.allIPs == true
            target.headers = headers.isEmpty ? file?.defaults.headers ?? [] : headers
            if let method = method ?? file?.defaults.method { target.method = method }
            all.append(target)
        }
        var plan = CheckPlan(targets: all)
        plan.transport = try options.transport()
        plan.resolver = try options.settings()
        plan.parallel = parallel
        plan.compareSystem = compareSystem
        plan.labels = CheckLabels.merged((file?.labels ?? []) + (try labels.map { text throws(CurlError) in try CheckLabels.parse(text) }))
        plan.verbose = verbose
        plan.showsWarnings = !silent
        return plan
    }
}
