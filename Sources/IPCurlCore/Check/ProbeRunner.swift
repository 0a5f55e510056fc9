import CurlKit
import HTTPDNS

/// Runs planned probes on one multi loop, at most ``CheckPlan/parallel`` at a time, and turns each finished
/// transfer into its ``ProbeResult``.
struct ProbeRunner {
    let plan: CheckPlan
    let startedAt: Int64
    /// Probes that never ran keep the results the planner gave them.
    func run(_ probes: [PlannedProbe], finished: (Int, ProbeResult) -> Void) {
        let multi: MultiHandle
        do { multi = try MultiHandle() } catch {
            for (index, probe) in probes.enumerated() where probe.runs { finished(index, failed(probe.result, error)) }
            return
        }
        var pending = probes.indices.filter { probes[$0].runs }.makeIterator()
        var inFlight: [ObjectIdentifier: (index: Int, transfer: ProbeTransfer)] = [:]
        do throws(CurlError) {
            try multi.drive(concurrency: plan.parallel, next: {
                while let index = pending.next() {
                    do throws(CurlError) {
                        let transfer = try ProbeTransfer(probes[index], plan: plan)
                        inFlight[ObjectIdentifier(transfer.handle)] = (index, transfer)
                        return transfer.handle
                    } catch {
                        finished(index, failed(probes[index].result, error))
                    }
                }
                return nil
            }, finished: { handle, error in
                guard let (index, transfer) = inFlight.removeValue(forKey: ObjectIdentifier(handle)) else { return }
                finished(index, transfer.result(error: error, now: startedAt))
            })
        } catch {
            for (index, transfer) in inFlight.values { finished(index, failed(transfer.planned.result, error)) }
            while let index = pending.next() { finished(index, failed(probes[index].result, error)) }
        }
    }

    private func failed(_ result: ProbeResult, _ error: CurlError) -> ProbeResult {
        var result = result
        result.error = ProbeError(error)
        return result
    }
}
