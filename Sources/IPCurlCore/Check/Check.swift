#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS

/// Runs `ipcurl check`: resolves every target's name once through the resolution policy, plans one probe per
/// target (or one per address with ``CheckTarget/allIPs``), runs each probe ``CheckTarget/samples`` times on one multi loop with at most
/// ``CheckPlan/parallel`` at a time, each on a fresh connection pinned to its address, and checks every
/// expectation. A name whose probes all failed on every address of its answer has its cached answer dropped, by
/// the rule a fetch drops one (``NameTable/distrustFailedAnswers(_:_:)``).
/// - SeeAlso: `CURLOPT_RESOLVE`, `CURLOPT_FRESH_CONNECT`, `CURLOPT_FORBID_REUSE`, `CURLINFO_PRIMARY_IP`,
///   `CURLOPT_CERTINFO`, `curl_multi_perform`.
public enum Check {
    /// Runs `plan` to the end and reports every probe; never throws: failures are in the report.
    /// Decisions (`-v`) and fallback warnings go to `diagnostics`; `progress` hears how far the probes are as each
    /// run finishes and at least four times a second (``CheckProgressLine`` draws it).
    public static func run(_ plan: CheckPlan, diagnostics: Diagnostics,
                           progress: (CheckProgress) -> Void = { _ in }) -> CheckReport {
        let clock = ContinuousClock(), began = clock.now
        let startedAt = Int64(time(nil))
        let parsed = plan.targets.map(ProbePlanner.parse)
        let session = ResolverSession(settings: plan.resolver, transport: plan.transport, diagnostics: diagnostics)
        session.announce()
        let names = NameTable(urls: parsed.compactMap(\.url), session: session, timeLimitMS: plan.timeLimitMS)
        let probes = parsed.flatMap { ProbePlanner.probes(for: $0, names: names) }
        let runner = ProbeRunner(plan: plan, startedAt: startedAt, diagnostics: diagnostics)
        let results = sample(probes, runner: runner, progress: progress)
        names.distrustFailedAnswers(probes, results)
        let comparisons = plan.compareSystem ? names.compareWithSystem(dnsTimeoutMS: plan.resolver.dnsTimeoutMS,
                                                                                   families: plan.resolver.families) : []
        return CheckReport(probes: results, labels: plan.labels, comparisons: comparisons, startedAt: startedAt,
                           durationMicroseconds: (clock.now - began).wholeMicroseconds)
    }

    /// Runs each probe its target's ``CheckTarget/samples`` times in rounds: sample k of every address before
    /// sample k+1 of any, so one address's samples never overlap; each round waits for its slowest probe.
    private static func sample(_ probes: [PlannedProbe], runner: ProbeRunner,
                               progress: (CheckProgress) -> Void) -> [ProbeResult] {
        var samples = probes.map { _ in SampleAggregate() }
        let rounds = probes.map(\.result.target.samples).max() ?? 1
        let unrun = probes.count { !$0.runs }
        var counts = CheckProgress(finished: unrun, total: probes.reduce(0) { $0 + ($1.runs ? $1.result.target.samples : 1) },
                                   failed: unrun)
        for round in 0..<rounds {
            let due = probes.indices.filter { probes[$0].runs && round < probes[$0].result.target.samples }
            if due.isEmpty { break }
            runner.run(due.map { probes[$0] }, tick: { progress(counts) }) { index, result in
                samples[due[index]].add(result)
                counts.finished += 1
                if !result.passed { counts.failed += 1 }
                progress(counts)
            }
        }
        return probes.indices.map { samples[$0].result(planned: probes[$0].result) }
    }
}
