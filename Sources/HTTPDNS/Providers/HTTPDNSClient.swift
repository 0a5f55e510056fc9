import CCurl
import CurlKit

/// Sends HTTPDNS API GETs to a list of servers in order and keeps the first usable answer.
///
/// A server is skipped for the next one, and for the rest of the run, when it cannot be reached, times out,
/// answers 5xx, sends more than ``maximumBody`` bytes (reading stops at the limit) or sends something the
/// provider rejects. A definite answer — the name has no records, or a documented 4xx error such as a bad
/// account — ends the search, because every server would say the same.
///
/// Query strings may hold tokens and signatures, so only ``HTTPDNSServer/label`` ever reaches a message.
/// Not `Sendable`: it owns a ``MultiHandle``.
/// - SeeAlso: `CURLOPT_URL`, `CURLOPT_RESOLVE`, `CURLOPT_PIPEWAIT`, `CURLOPT_PROTOCOLS_STR`.
public final class HTTPDNSClient {
    /// The largest answer body read from a server.
    public static let maximumBody = 65_536

    /// One HTTP answer.
    public struct Response: Sendable {
        /// The HTTP status code.
        public let status: Int
        /// The `Content-Type`, lowercased; empty when absent.
        public let contentType: String
        /// The body, at most ``HTTPDNSClient/maximumBody`` bytes.
        public let body: [UInt8]
    }

    /// One request: a path (with query) appended to the server's base, and a body to POST, if any.
    public struct Request: Sendable {
        /// Appended to ``HTTPDNSServer/base``; empty for the base itself.
        public let path: String
        /// Sent with `POST` when present; otherwise the request is a `GET`.
        public let body: [UInt8]?

        /// A request for `path`, POSTing `body` when given.
        public init(path: String, body: [UInt8]? = nil) {
            self.path = path
            self.body = body
        }
    }

    /// What a provider makes of one server's responses.
    public enum Verdict<Value> {
        /// A usable answer.
        case answer(Value)
        /// A definite failure every server would repeat (a bad account, a refused signature): stop asking.
        case definite(String)
        /// The name has no records (NXDOMAIN, no A or AAAA): an answer, not a fault. Stop asking.
        case noRecords(String)
        /// This server's answer is unusable: try the next one.
        case serverFailed(String)
    }

    /// The servers, in the order they are asked.
    public let servers: [HTTPDNSServer]
    private let transport: TransportOptions
    private let multi: MultiHandle
    private var failed: Set<Int> = []
    private let clock = ContinuousClock()
    private let deadline: ContinuousClock.Instant?

    /// A client for `servers` using `transport` (the user's `--cacert`, `-k`, timeouts). `transport.timeoutMS`
    /// bounds everything this client does from now on (`--dns-timeout`), not each request.
    public init(servers: [HTTPDNSServer], transport: TransportOptions) throws(CurlError) {
        self.servers = servers
        self.transport = transport
        let start = clock.now
        deadline = transport.timeoutMS.map { start + .milliseconds($0) }
        multi = try MultiHandle()
    }

    /// Milliseconds left of the time budget; `nil` without one.
    private var remainingMS: Int? {
        deadline.map { ($0 - clock.now).wholeMilliseconds }
    }

    /// Sends all `requests` concurrently to one server after another until `interpret` accepts the responses. Returns the value, the server's label and why earlier
    /// servers were skipped; throws exit 6 naming `host` when no server gave a usable answer.
    public func ask<Value>(
        _ requests: [Request], about host: String, headers: [String] = [],
        interpret: ([Response]) -> Verdict<Value>
    ) throws(CurlError) -> (value: Value, server: String, skipped: [String]) {
        do { return try ask(requests, headers: headers, interpret: interpret) } catch { throw error.error(for: host) }
    }

    /// Why no server answered: a libcurl setup error, or the reasons each server failed.
    public enum Failure: Error {
        case curl(CurlError)
        case unresolved(String)
        case noRecords(String)

        /// The exit-6 error for `host` (or the setup error as it is).
        public func error(for host: String) -> CurlError {
            switch self {
            case .curl(let error): error
            case .unresolved(let reason): ResolverFailure.couldNotResolve(host, reason)
            case .noRecords(let reason): ResolverFailure.noRecords(host, reason)
            }
        }
    }

    /// ``ask(_:about:headers:interpret:)`` for several hosts at once: the caller words the error per host.
    public func ask<Value>(
        _ requests: [Request], headers: [String] = [], interpret: ([Response]) -> Verdict<Value>
    ) throws(Failure) -> (value: Value, server: String, skipped: [String]) {
        var skipped: [String] = []
        for (index, server) in servers.enumerated() where !failed.contains(index) {
            if let left = remainingMS, left <= 0 {
                skipped.append("\(server.label): not asked, the HTTPDNS time budget of \(transport.timeoutMS ?? 0) ms ran out")
                break
            }
            let verdict: Verdict<Value>
            let fetched: Result<[Response], FetchFailureReason>
            do { fetched = try fetch(requests, from: server, headers: headers) } catch { throw .curl(error) }
            switch fetched {
            case .success(let responses): verdict = interpret(responses)
            case .failure(let reason): verdict = .serverFailed(reason.text)
            }
            switch verdict {
            case .answer(let value): return (value, server.label, skipped)
            case .definite(let reason): throw .unresolved("\(server.label): \(reason)")
            case .noRecords(let reason): throw .noRecords("\(server.label): \(reason)")
            case .serverFailed(let reason):
                failed.insert(index)
                skipped.append("\(server.label): \(reason)")
            }
        }
        if skipped.isEmpty { skipped.append("every HTTPDNS server already failed in this run") }
        throw .unresolved(skipped.joined(separator: "; "))
    }

    private func fetch(_ requests: [Request], from server: HTTPDNSServer, headers: [String])
        throws(CurlError) -> Result<[Response], FetchFailureReason>
    {
        let collectors = requests.map { _ in BodyCollector() }
        var handles: [EasyHandle] = []
        var transport = self.transport
        transport.timeoutMS = remainingMS.map { max(1, $0) }
        for (request, collector) in zip(requests, collectors) {
            let handle = try EasyHandle()
            try transport.apply(to: handle)
            try handle.set(CURLOPT_URL, server.base + request.path)
            if let body = request.body {
                handle.requestBody = BytesBody(body)
                try handle.set(CURLOPT_POST, 1)
                try handle.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count))
            }
            try handle.set(CURLOPT_PROTOCOLS_STR, "http,https")
            try handle.set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
            try handle.set(CURLOPT_PIPEWAIT, 1)  // concurrent requests share one HTTP/2 connection
            try handle.set(CURLOPT_USERAGENT, "ipcurl-httpdns")
            if let pin = server.pin { try handle.set(CURLOPT_RESOLVE, list: [pin.description]) }
            if !headers.isEmpty { try handle.set(CURLOPT_HTTPHEADER, list: headers) }
            handle.onBody = { collector.append($0) }
            handles.append(handle)
        }
        let errors = try multi.perform(handles)
        var responses: [Response] = []
        for (index, handle) in handles.enumerated() {
            if collectors[index].overflowed { return .failure(FetchFailureReason("answer larger than \(Self.maximumBody) bytes")) }
            if let error = errors[index] { return .failure(FetchFailureReason(error.message)) }
            let status = handle.info(long: CURLINFO_RESPONSE_CODE)
            if status >= 500 { return .failure(FetchFailureReason("HTTP \(status)")) }
            responses.append(Response(status: status, contentType: (handle.info(string: CURLINFO_CONTENT_TYPE) ?? "").lowercased(),
                                      body: collectors[index].body))
        }
        return .success(responses)
    }
}

extension HTTPDNSClient.Verdict {
    /// Goes on with `next` when this is an answer; a failure stays the same failure.
    func then<Next>(_ next: (Value) -> HTTPDNSClient.Verdict<Next>) -> HTTPDNSClient.Verdict<Next> {
        switch self {
        case .answer(let value): next(value)
        case .definite(let reason): .definite(reason)
        case .noRecords(let reason): .noRecords(reason)
        case .serverFailed(let reason): .serverFailed(reason)
        }
    }
}

/// Why one server could not be asked (a one-line reason without secrets).
struct FetchFailureReason: Error {
    let text: String
    init(_ text: String) { self.text = text }
}

/// Collects one response body up to ``HTTPDNSClient/maximumBody`` bytes, then refuses more.
private final class BodyCollector {
    var body: [UInt8] = []
    var overflowed = false

    func append(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard body.count + chunk.count <= HTTPDNSClient.maximumBody else {
            overflowed = true
            return false
        }
        body += chunk
        return true
    }
}
