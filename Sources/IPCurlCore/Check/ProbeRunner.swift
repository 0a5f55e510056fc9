import CurlKit
import HTTPDNS

/// Runs planned probes on one multi loop, at most ``CheckPlan/parallel`` at a time, and turns each finished
/// transfer into its ``ProbeResult``. A probe that fails is tried again on a fresh connection up to its target's
/// ``CheckTarget/retries`` times, ``CheckTarget/retryIntervalMS`` after the failed attempt ended; other probes
/// keep the loop busy meanwhile. `finished` gets each probe's last attempt, with every attempt counted.
struct ProbeRunner {
    let plan: CheckPlan
    let startedAt: Int64
    /// Where `-v` says each retry (`* check: … attempt 1 failed (…); attempt 2 in 1.0 s`).
    var diagnostics: Diagnostics?
    /// The longest wait on the loop between two calls of `tick`.
    static let tickMS = 250

    /// A probe waiting for its next attempt.
    private struct Attempt {
        let index: Int
        var number = 1
        var retried: [FailedAttempt] = []
        var due = ContinuousClock.now
    }

    /// Probes that never ran keep the results the planner gave them. `tick` is called at least four times a second
    /// while transfers run.
    func run(_ probes: [PlannedProbe], tick: () -> Void = {}, finished: (Int, ProbeResult) -> Void) {
        let multi: MultiHandle
        do { multi = try MultiHandle() } catch {
            for (index, probe) in probes.enumerated() where probe.runs { finished(index, failed(probe.result, error)) }
            return
        }
        var ready = probes.indices.filter { probes[$0].runs }.map { Attempt(index: $0) }[...]
        var waiting: [Attempt] = []
        var inFlight: [ObjectIdentifier: (attempt: Attempt, transfer: ProbeTransfer)] = [:]
        let clock = ContinuousClock()
        func done(_ attempt: Attempt, _ result: ProbeResult) {
            var result = result
            result.attempts = attempt.number
            result.retriedFailures = attempt.retried
            finished(attempt.index, result)
        }
        do throws(CurlError) {
            try multi.drive(concurrency: plan.parallel, next: {
                if ready.isEmpty, waiting.contains(where: { $0.due <= clock.now }) {
                    let now = clock.now
                    ready = waiting.filter { $0.due <= now }[...]
                    waiting.removeAll { $0.due <= now }
                }
                while let attempt = ready.popFirst() {
                    do throws(CurlError) {
                        let transfer = try ProbeTransfer(probes[attempt.index], plan: plan)
                        inFlight[ObjectIdentifier(transfer.handle)] = (attempt, transfer)
                        return transfer.handle
                    } catch {
                        done(attempt, failed(probes[attempt.index].result, error))
                    }
                }
                return nil
            }, wait: {
                tick()
                guard let due = waiting.map(\.due).min() else { return multi.count > 0 ? Self.tickMS : nil }
                return min(Self.tickMS, max(0, (due - clock.now).wholeMilliseconds))
            }, finished: { handle, error in
                guard let (attempt, transfer) = inFlight.removeValue(forKey: ObjectIdentifier(handle)) else { return }
                let result = transfer.result(error: error, now: startedAt)
                let target = result.target
                guard !result.passed, attempt.number <= target.retries else { return done(attempt, result) }
                var again = attempt
                again.retried.append(FailedAttempt(sample: 1, attempt: attempt.number, reason: result.reason))
                again.number += 1
                again.due = clock.now + .milliseconds(target.retryIntervalMS)
                diagnostics?.trace("* check: \(result.title) attempt \(attempt.number) failed (\(result.reason)); attempt "
                                   + "\(again.number) in \(ReportFormat.fixed(Int64(target.retryIntervalMS), unit: 1000, digits: 2)) s\n")
                waiting.append(again)
            })
        } catch {
            for (attempt, transfer) in inFlight.values { done(attempt, failed(transfer.planned.result, error)) }
            for attempt in ready + waiting { done(attempt, failed(probes[attempt.index].result, error)) }
        }
    }

    private func failed(_ result: ProbeResult, _ error: CurlError) -> ProbeResult {
        var result = result
        result.error = ProbeError(error)
        return result
    }
}
