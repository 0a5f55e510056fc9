#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS

/// Runs `ipcurl check`: resolves every target's name once through the resolution policy, plans one probe per
/// target (or one per address with ``CheckTarget/allIPs``), runs the probes on one multi loop with at most
/// ``CheckPlan/parallel`` at a time, each on a fresh connection pinned to its address, and checks every
/// expectation. A name whose probes all failed on every address of its answer has its cached answer dropped, by
/// the rule a fetch drops one (``NameTable/distrustFailedAnswers(_:_:)``).
/// - SeeAlso: `CURLOPT_RESOLVE`, `CURLOPT_FRESH_CONNECT`, `CURLOPT_FORBID_REUSE`, `CURLINFO_PRIMARY_IP`,
///   `CURLOPT_CERTINFO`, `curl_multi_perform`.
public enum Check {
    /// Runs `plan` to the end and reports every probe; never throws: failures are in the report.
    /// Decisions (`-v`) and fallback warnings go to `diagnostics`.
    public static func run(_ plan: CheckPlan, diagnostics: Diagnostics) -> CheckReport {
        let clock = ContinuousClock(), began = clock.now
        let startedAt = Int64(time(nil))
        let parsed = plan.targets.map(ProbePlanner.parse)
        let session = ResolverSession(settings: plan.resolver, transport: plan.transport, diagnostics: diagnostics)
        session.announce()
        let names = NameTable(urls: parsed.compactMap(\.url), session: session, timeLimitMS: plan.timeLimitMS)
        let probes = parsed.flatMap { ProbePlanner.probes(for: $0, names: names) }
        var results = probes.map(\.result)
        let runner = ProbeRunner(plan: plan, startedAt: startedAt)
        runner.run(probes) { index, result in results[index] = result }
        names.distrustFailedAnswers(probes, results)
        let comparisons = plan.compareSystem ? names.compareWithSystem(dnsTimeoutMS: plan.resolver.dnsTimeoutMS,
                                                                                   families: plan.resolver.families) : []
        return CheckReport(probes: results, labels: plan.labels, comparisons: comparisons, startedAt: startedAt,
                           durationMicroseconds: (clock.now - began).wholeMicroseconds)
    }
}
