import CCurl
import CurlKit
import HTTPDNS

/// The result of one fetch: the error (if any) and the values `-w` prints.
public struct FetchOutcome: Sendable {
    /// `nil` on success.
    public let error: CurlError?
    /// The transfer's getinfo values, exit code and error message.
    public let report: TransferReport
}

/// Runs one request IP-direct: resolve the URL's host through the resolution policy, pin the answer with
/// `CURLOPT_RESOLVE`, and let libcurl connect to that IP while SNI, `Host:` and certificate verification all
/// use the URL's own host name. A TLS failure at one IP repeats the request on the answer's next IP
/// (``AddressFailover``).
/// - SeeAlso: `CURLOPT_RESOLVE`, `CURLOPT_URL`, `CURLOPT_IPRESOLVE`.
public enum Fetch {
    /// Performs `request`, streaming the body to its output; never throws, the outcome carries the error.
    public static func run(_ request: FetchRequest, log: DescriptorWriter = .standardError) -> FetchOutcome {
        var run = FetchRun(request: request, log: log)
        let failure = run.perform()
        var report = run.handle.map { TransferReport(handle: $0, url: request.url) } ?? TransferReport(url: request.url)
        report.exitCode = failure?.exitCode ?? 0
        report.errorMessage = failure?.message ?? ""
        report.dnsSource = run.resolution?.sourceName ?? ""
        report.microseconds["dns_time"] = run.dnsMicroseconds
        return FetchOutcome(error: failure, report: report)
    }
}

/// The state of one ``Fetch``: the clock, the policy, the resolution and the last handle.
private struct FetchRun {
    let request: FetchRequest
    let log: DescriptorWriter
    let clock = ContinuousClock()
    let start: ContinuousClock.Instant
    var handle: EasyHandle?
    var resolution: Resolution?
    var dnsMicroseconds: Int64 = 0

    init(request: FetchRequest, log: DescriptorWriter) {
        self.request = request
        self.log = log
        start = clock.now
    }

    var elapsedMS: Int { (clock.now - start).wholeMilliseconds }

    private func verbose(_ text: @autoclosure () -> String) { if request.verbose { log.write(text()) } }

    mutating func perform() -> CurlError? {
        let policy = request.resolver.policy(transport: request.transport)
        policy.deadline = request.transport.timeoutMS.map { start + .milliseconds($0) }
        if request.verbose { policy.note = { [log] in log.write(DecisionLog.notes([$0])) } }
        defer { verbose(DecisionLog.notes(policy.finishRefresh())) }
        do throws(CurlError) {
            let url = try CurlURL(request.url)
            guard url.scheme == "https" || url.scheme == "http" else {
                throw CurlError.unsupportedProtocol.with(message: "Protocol \"\(url.scheme)\" not supported by ipcurl")
            }
            let resolution = try resolve(url, policy: policy)
            verbose(DecisionLog.answer(resolution, host: url.host))
            var addresses = resolution.entry?.addresses ?? []
            while true {
                let output = OutputTarget(path: request.outputPath)
                let attempt = try makeHandle(url, output: output, entry: resolution.entry.flatMap {
                    ResolveEntry(host: $0.host, port: $0.port, addresses: addresses)
                })
                handle = attempt
                do throws(CurlError) {
                    do throws(CurlError) { try attempt.perform() } catch { throw output.failure ?? error }
                    try output.finish()
                    break
                } catch {
                    let failedIP = attempt.info(string: CURLINFO_PRIMARY_IP) ?? ""
                    guard let next = AddressFailover.remaining(after: error, at: failedIP,
                                                               requestBytesSent: attempt.info(long: CURLINFO_REQUEST_SIZE),
                                                               addresses: addresses) else { throw error }
                    let line = "\(url.host): TLS failed at \(failedIP) (exit \(error.exitCode): \(error.message)); trying \(next[0])"
                    if request.showsWarnings {
                        log.write("ipcurl: warning: \(line)\n")
                    } else {
                        verbose("* HTTPDNS failover: \(line)\n")
                    }
                    addresses = next
                }
            }
        } catch {
            return error
        }
        return nil
    }

    /// Resolves the URL's host within `--max-time`, timing the step for `%{dns_time}`.
    private mutating func resolve(_ url: CurlURL, policy: ResolutionPolicy) throws(CurlError) -> Resolution {
        let began = clock.now
        defer { dnsMicroseconds = (clock.now - began).wholeMicroseconds }
        do {
            let resolution = try policy.resolve(host: url.host, port: url.port)
            self.resolution = resolution
            return resolution
        } catch {
            if let limit = request.transport.timeoutMS, elapsedMS >= limit {
                throw CurlError.operationTimedOut.with(message: "Operation timed out after \(elapsedMS) milliseconds while resolving \(url.host)")
            }
            throw error
        }
    }

    private func makeHandle(_ url: CurlURL, output: OutputTarget, entry: ResolveEntry?) throws(CurlError) -> EasyHandle {
        let handle = try EasyHandle()
        var transport = request.transport
        if let limit = transport.timeoutMS {
            guard limit > elapsedMS else {
                throw CurlError.operationTimedOut.with(message: "Operation timed out after \(elapsedMS) milliseconds")
            }
            transport.timeoutMS = limit - elapsedMS
        }
        try transport.apply(to: handle)
        try handle.set(CURLOPT_URL, url.text)
        try handle.set(CURLOPT_PROTOCOLS_STR, "http,https")
        switch request.resolver.families {
        case .both: break
        case .v4Only: try handle.set(CURLOPT_IPRESOLVE, Int(CURL_IPRESOLVE_V4))
        case .v6Only: try handle.set(CURLOPT_IPRESOLVE, Int(CURL_IPRESOLVE_V6))
        }
        let pinned = request.resolver.staticEntries.filter { $0.host != entry?.host || $0.port != entry?.port }
        let entries = Self.uniqued((pinned + [entry].compactMap { $0 }).map(\.description))
        try handle.set(CURLOPT_RESOLVE, list: entries)
        verbose(DecisionLog.entries(entries))
        try handle.set(CURLOPT_USERAGENT, "ipcurl/\(IPCurlVersion.number)")
        try handle.set(CURLOPT_HTTPHEADER, list: request.headers)
        if let method = request.method { try handle.set(CURLOPT_CUSTOMREQUEST, method) }
        if let body = request.body {
            handle.requestBody = BytesBody(body)
            try handle.set(CURLOPT_POST, 1)
            try handle.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count))
        }
        handle.onBody = { output.write($0) }
        if request.includeHeaders { handle.onHeader = { output.write($0) } }
        if request.verbose { try handle.traceVerbosely { [log] in log.write(VerboseTrace.render($0, $1)) } }
        return handle
    }

    private static func uniqued(_ strings: [String]) -> [String] {
        var seen = Set<String>()
        return strings.filter { seen.insert($0).inserted }
    }
}
