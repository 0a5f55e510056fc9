import CurlKit
import HTTPDNS

/// One probe's transfer: a fresh connection pinned to the probe's address with SNI and verification on the
/// name, keeping what the expectations need (headers, the TLS version while the connection is open, the body
/// up to ``bodyLimit`` when an assertion reads it).
final class ProbeTransfer {
    /// The most body bytes kept for `body_contains` / `body_matches`; the rest is read and dropped.
    static let bodyLimit = 1 << 20

    let planned: PlannedProbe
    let handle: EasyHandle
    private var headers = ResponseHeaders()
    private var body: [UInt8] = []
    private var tlsName: String?
    /// The probe's time limit (``CheckPlan/timeLimitMS``), which also bounds `body_matches`.
    private let timeLimitMS: Int

    init(_ planned: PlannedProbe, plan: CheckPlan) throws(CurlError) {
        self.planned = planned
        let target = planned.result.target
        guard let url = planned.url else { throw CurlError.malformedURL }
        var spec = TransferSpec(url: url.text)
        spec.template.transport = plan.transport
        timeLimitMS = plan.timeLimitMS
        // The name's resolution counted against the probe's limit; the transfer gets what is left.
        spec.template.transport.timeoutMS = max(1, timeLimitMS - Int(planned.result.timings.resolve / 1000))
        spec.template.families = plan.resolver.families
        let method = target.method.uppercased()
        spec.method = method == "HEAD" ? "HEAD" : "GET"
        // A body makes libcurl send POST: name the method, so what is sent is what the report says (GET by default).
        if method != spec.method || target.body != nil { spec.template.customMethod = target.method }
        spec.template.headers = target.headers
        if let body = target.body { spec.payload = .data([.bytes(Array(body.utf8))]) }
        if let entry = ResolveEntry(host: url.host, port: url.port, addresses: planned.pinned), IPAddress(url.host) == nil {
            spec.resolveEntries = [entry]
        }
        spec.freshConnection = true
        spec.collectsCertificates = url.scheme == "https"
        handle = try spec.makeHandle()
        try ShareHandle(sharing: [.dns]).attach(to: handle)  // this probe's pin only, whatever the others pin
        let keepsBody = target.expect.needsBody
        handle.onHeader = { [unowned self] bytes in
            if tlsName == nil { tlsName = handle.liveTLSVersion() ?? "" }
            headers.receive(bytes)
            return true
        }
        handle.onBody = { [unowned self] bytes in
            if keepsBody, body.count < Self.bodyLimit { body += bytes.prefix(Self.bodyLimit - body.count) }
            return true
        }
    }

    /// The probe's result once the transfer finished with `error` (`nil`: completed); `now` dates certificate days.
    func result(error: CurlError?, now: Int64) -> ProbeResult {
        let transfer = TransferResult(handle: handle, url: planned.result.target.url, error: error, headers: headers,
                                      tlsName: tlsName, collectedCertificates: true)
        var result = planned.result
        result.error = error.map(ProbeError.init)
        result.status = transfer.report.responseCode
        result.httpVersion = transfer.report.httpVersion
        result.connectedIP = transfer.report.remoteIP
        if let error {  // a probe connects directly, never through a proxy
            result.failedAddresses = AddressFailover.failedAddresses(after: error, at: result.connectedIP, requestBytesSent: handle.requestSize,
                                                                     pinned: planned.pinned, throughProxy: false)
        }
        // One probe over the whole answer (no --all-ips): libcurl chose among the pinned addresses; report that one.
        if planned.pinned.count > 1, let connected = IPAddress(result.connectedIP), planned.pinned.contains(connected) {
            result.address = connected
        }
        result.timings.fill(from: transfer.report.times)
        result.tlsVersion = transfer.tlsVersion
        result.certificate = CertificateSummary(chain: transfer.certificates)
        if error == nil {
            var check = ExpectationCheck(expect: result.target.expect, now: now)
            check.matchBudgetMS = timeLimitMS
            result.failures = check.failures(of: result, headers: headers, body: body, pinned: planned.pinned)
        }
        return result
    }
}

extension ProbeTimings {
    /// Phase times from libcurl's cumulative ones (the lookup time is the caller's).
    mutating func fill(from times: PhaseTimes) {
        let handshake = max(times.appConnect, times.connect)
        connect = max(0, times.connect - times.nameLookup)
        tls = max(0, handshake - times.connect)
        processing = times.startTransfer > 0 ? max(0, times.startTransfer - max(times.preTransfer, handshake)) : 0
        total = times.total
        transfer = times.startTransfer > 0 ? max(0, total - times.startTransfer) : 0
    }
}
