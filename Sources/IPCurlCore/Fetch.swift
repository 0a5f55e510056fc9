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
/// use the URL's own host name.
/// - SeeAlso: `CURLOPT_RESOLVE`, `CURLOPT_URL`.
public enum Fetch {
    /// Default per-query budget for HTTPDNS when `--max-time` does not set a smaller one.
    static let resolverTimeoutMS = 10_000

    /// Performs `request`, streaming the body to its output; never throws, the outcome carries the error.
    public static func run(_ request: FetchRequest, log: DescriptorWriter = .standardError) -> FetchOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        var handle: EasyHandle?
        let output = OutputTarget(path: request.outputPath)
        var failure: CurlError?
        do throws(CurlError) {
            let prepared = try prepare(request, output: output, log: log, elapsedMS: {
                let elapsed = clock.now - start
                return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
            })
            handle = prepared
            do throws(CurlError) { try prepared.perform() } catch { throw output.failure ?? error }
            try output.finish()
        } catch {
            failure = error
        }
        var report = handle.map { TransferReport(handle: $0, url: request.url) } ?? TransferReport(url: request.url)
        report.exitCode = failure?.exitCode ?? 0
        report.errorMessage = failure?.message ?? ""
        return FetchOutcome(error: failure, report: report)
    }

    private static func prepare(
        _ request: FetchRequest, output: OutputTarget, log: DescriptorWriter, elapsedMS: () -> Int
    ) throws(CurlError) -> EasyHandle {
        let url = try CurlURL(request.url)
        guard url.scheme == "https" || url.scheme == "http" else {
            throw CurlError.unsupportedProtocol.with(message: "Protocol \"\(url.scheme)\" not supported by ipcurl")
        }
        var resolverTransport = request.transport
        resolverTransport.timeoutMS = min(request.transport.timeoutMS ?? resolverTimeoutMS, resolverTimeoutMS)
        let resolution: Resolution
        do {
            resolution = try request.resolver.policy(transport: resolverTransport).resolve(host: url.host, port: url.port)
        } catch {
            if let limit = request.transport.timeoutMS, elapsedMS() >= limit {
                throw CurlError.operationTimedOut.with(message: "Operation timed out after \(elapsedMS()) milliseconds while resolving \(url.host)")
            }
            throw error
        }
        if request.verbose { log.write(DecisionLog.answer(resolution, host: url.host)) }

        let handle = try EasyHandle()
        var transport = request.transport
        if let limit = transport.timeoutMS { transport.timeoutMS = max(1, limit - elapsedMS()) }
        try transport.apply(to: handle)
        try handle.set(CURLOPT_URL, url.text)
        try handle.set(CURLOPT_PROTOCOLS_STR, "http,https")
        let entries = uniqued((request.resolver.staticEntries + [resolution.entry].compactMap { $0 }).map(\.description))
        try handle.set(CURLOPT_RESOLVE, list: entries)
        if request.verbose { log.write(DecisionLog.entries(entries)) }
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
        if request.verbose { try handle.traceVerbosely { log.write(VerboseTrace.render($0, $1)) } }
        return handle
    }

    private static func uniqued(_ strings: [String]) -> [String] {
        var seen = Set<String>()
        return strings.filter { seen.insert($0).inserted }
    }
}
