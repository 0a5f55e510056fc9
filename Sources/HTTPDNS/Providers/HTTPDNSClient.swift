/// Asks a list of HTTPDNS servers for one answer, hedged: the first server is asked at once, and each next one
/// as soon as the servers before it have either failed or stayed silent for the hedge delay; the first *valid*
/// answer wins and every other exchange is cancelled.
///
/// A server that accepts a connection and never answers (a blackholed address) therefore costs one hedge delay,
/// not the whole budget. A server fails when it cannot be reached, fails TLS, answers 5xx, sends more than
/// ``maximumBody`` bytes or sends something the provider rejects. A definite answer — the name has no records,
/// or a documented 4xx error such as a bad account — ends the race, because every server would say the same.
///
/// Each ``ask(_:about:headers:within:interpret:)`` is one lookup with its own budget; a server that failed in an
/// earlier lookup is asked again. Query strings may hold tokens and signatures, so only
/// ``HTTPDNSServer/label`` ever reaches a message. Not `Sendable`: it uses its transport from one thread.
/// - SeeAlso: `CURLOPT_RESOLVE`, `CURLOPT_TIMEOUT_MS`; RFC 8305's staggered connection attempts.
public final class HTTPDNSClient {
    /// The largest answer body read from a server.
    public static let maximumBody = 65_536
    /// The longest wait before the next server is asked as well.
    public static let maximumHedgeDelayMS = 300

    /// One request: a path (with query) appended to the server's base, and a body to POST, if any.
    public struct Request: Sendable {
        /// Appended to the server's path; may carry `?query`, joined to the server URL's own query.
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
        /// The name has no records (NXDOMAIN, no A or AAAA, an empty answer): an answer, not a fault. Stop asking.
        case noRecords(String)
        /// This server's answer is unusable (`phase` says how far it got): try the next one.
        case serverFailed(String, phase: ResolutionError.Phase = .answer)
    }

    /// A winning answer: the value, the server that gave it and how the race went (for `-v`).
    public struct Reply<Value> {
        /// What the provider made of the answer.
        public let value: Value
        /// The label of the server that answered.
        public let server: String
        /// The server that answered.
        public let endpoint: HTTPDNSServer
        /// One line per event before the answer: `skipped SERVER: REASON` for a server that failed, `race: …` for a
        /// hedge started or exchanges cancelled.
        public let trail: [String]
    }

    /// The servers, in the order they are asked.
    public let servers: [HTTPDNSServer]
    fileprivate let transport: any HTTPDNSTransport
    private let pins: [ResolveEntry]

    /// A client for `servers` over `transport`. `pins` are static `HOST:PORT:ADDRESS` entries that apply to the
    /// servers' own names, as curl applies `--resolve` to its DoH host.
    public init(servers: [HTTPDNSServer], transport: any HTTPDNSTransport, pins: [ResolveEntry] = []) {
        self.servers = servers
        self.transport = transport
        self.pins = pins
    }

    /// A client over `servers` on the same transport, with the same pins.
    public func reaching(_ servers: [HTTPDNSServer]) -> HTTPDNSClient {
        HTTPDNSClient(servers: servers, transport: transport, pins: pins)
    }

    /// The delay before the next server joins: ``maximumHedgeDelayMS``, or less when the budget split among the
    /// servers is smaller.
    public func hedgeDelayMS(budgetMS: Int?) -> Int {
        guard let budgetMS, servers.count > 1 else { return Self.maximumHedgeDelayMS }
        return max(1, min(Self.maximumHedgeDelayMS, budgetMS / servers.count))
    }

    /// Races `requests` (sent together to each server) across the servers until `interpret` accepts one server's
    /// responses. Throws `unavailable` with every server's failure, or `noAddress` for a definite negative answer.
    public func ask<Value>(
        _ requests: [Request], about host: String, headers: [String] = [], within budget: LookupBudget,
        interpret: ([HTTPDNSResponse]) -> Verdict<Value>
    ) throws(ResolutionError) -> Reply<Value> {
        var race = Race<Value>(client: self, requests: requests, headers: headers, host: host, budget: budget)
        return try race.run(interpret)
    }

    fileprivate func request(_ request: Request, to server: HTTPDNSServer, headers: [String], timeoutMS: Int?,
                             joinsConnection: Bool) -> HTTPDNSRequest {
        let split = request.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let url = server.url(path: String(split[0]), query: split.count == 2 ? String(split[1]) : nil)
        // libcurl keys `doh.test.` and `doh.test` apart: a pin applies under the URL's own spelling only.
        // The server's own pin, else the user's entry naming it, else the user's wildcard for its port.
        let name = HostName.normalized(server.host) ?? server.host
        let own = [server.pin].compactMap { $0 }.filter { !$0.isWildcard && $0.pins(name, port: server.port) }
        let serverPins = (own + [StaticResolver.first(pinning: name, port: server.port, in: pins)].compactMap { $0 })
            .map { $0.spelled(server.host) }
        return HTTPDNSRequest(url: url, body: request.body, headers: headers, pins: Array(serverPins.prefix(1)),
                              timeoutMS: timeoutMS, maximumBody: Self.maximumBody, joinsConnection: joinsConnection)
    }

}

/// The state of one hedged lookup.
private struct Race<Value> {
    let client: HTTPDNSClient
    let requests: [HTTPDNSClient.Request]
    let headers: [String]
    let host: String
    let budget: LookupBudget

    /// Tickets and collected responses per started server.
    private var tickets: [Int: [Int]] = [:]
    private var responses: [Int: [Int: HTTPDNSResponse]] = [:]
    private var startedAt: [Int: ContinuousClock.Instant] = [:]
    private var next = 0
    private var failures: [ResolutionError.ServerFailure] = []
    private var trail: [String] = []

    init(client: HTTPDNSClient, requests: [HTTPDNSClient.Request], headers: [String], host: String, budget: LookupBudget) {
        self.client = client
        self.requests = requests
        self.headers = headers
        self.host = host
        self.budget = budget
    }

    mutating func run(_ interpret: ([HTTPDNSResponse]) -> HTTPDNSClient.Verdict<Value>) throws(ResolutionError) -> HTTPDNSClient.Reply<Value> {
        let transport = client.transport
        // Split what this lookup really has: an outer deadline may have cut the configured budget short.
        let hedge = client.hedgeDelayMS(budgetMS: budget.initialMS)
        defer { for ticket in tickets.values.joined() { transport.cancel(ticket) } }
        while true {
            if budget.isSpent { try giveUp() }
            // The next server joins once every running one has been silent for the hedge delay (failed ones are
            // no longer running), at once when none is running.
            var hedgeAt = tickets.keys.compactMap { startedAt[$0] }.max().map { $0 + .milliseconds(hedge) }
            if next < client.servers.count, hedgeAt.map({ ContinuousClock.now >= $0 }) ?? true {
                if let silent = tickets.keys.max(by: { startedAt[$0]! < startedAt[$1]! }) {
                    trail.append("race: \(client.servers[silent].label): no answer after \(hedge) ms; also asking \(client.servers[next].label)")
                }
                start(next)
                next += 1
                hedgeAt = ContinuousClock.now + .milliseconds(hedge)
            }
            if tickets.isEmpty {
                if next < client.servers.count { continue }  // the one just started could not be asked
                try giveUp()
            }
            var wait = budget.remainingMS ?? Int.max
            if next < client.servers.count, let hedgeAt {
                wait = min(wait, LookupBudget.milliseconds(of: hedgeAt - ContinuousClock.now) + 1)  // rounded up: no spin
            }
            for completion in transport.wait(milliseconds: max(0, wait)) {
                guard let server = tickets.first(where: { $0.value.contains(completion.ticket) })?.key else { continue }
                switch completion.result {
                case .failure(let failure):
                    fail(server, phase: failure.phase, failure.message)
                case .success(let response) where response.status >= 500:
                    fail(server, phase: .http, "HTTP \(response.status)")
                case .success(let response):
                    guard let index = tickets[server]?.firstIndex(of: completion.ticket) else { continue }
                    responses[server, default: [:]][index] = response
                    guard responses[server]?.count == requests.count else { continue }
                    let answers = (0..<requests.count).map { responses[server]![$0]! }
                    if let reply = try judge(server, interpret(answers)) { return reply }
                }
            }
        }
    }

    private mutating func start(_ server: Int) {
        let transport = client.transport
        var started: [Int] = []
        startedAt[server] = ContinuousClock.now
        for (index, request) in requests.enumerated() {
            let exchange = client.request(request, to: client.servers[server], headers: headers,
                                          timeoutMS: budget.remainingMS.map { max(1, $0) }, joinsConnection: index > 0)
            do { started.append(try transport.start(exchange)) } catch {
                // This server cannot even be asked (its request could not be set up): the race goes on without it.
                tickets[server] = started
                fail(server, phase: .connect, error.underlying.map { "\($0)" } ?? error.reason)
                return
            }
        }
        tickets[server] = started
    }

    /// The reply when `verdict` ends the race; `nil` when the race goes on without this server.
    private mutating func judge(_ server: Int, _ verdict: HTTPDNSClient.Verdict<Value>) throws(ResolutionError) -> HTTPDNSClient.Reply<Value>? {
        let label = client.servers[server].label
        switch verdict {
        case .answer(let value):
            let elapsed = startedAt[server].map { LookupBudget.milliseconds(of: ContinuousClock.now - $0) } ?? 0
            tickets[server] = nil
            let losers = tickets.keys.sorted().map { client.servers[$0].label }
            if !losers.isEmpty || server > 0 {
                trail.append("race: \(label) answered in \(elapsed) ms" + (losers.isEmpty ? "" : "; cancelled \(losers.joined(separator: ", "))"))
            }
            return HTTPDNSClient.Reply(value: value, server: label, endpoint: client.servers[server], trail: trail)
        case .definite(let reason):
            throw ResolutionError.unavailable(host, failures + [.init(server: label, phase: .answer, cause: reason)])
        case .noRecords(let reason):
            throw ResolutionError.noAddress(host, source: label, reason)
        case .serverFailed(let reason, let phase):
            fail(server, phase: phase, reason)
            return nil
        }
    }


    private mutating func fail(_ server: Int, phase: ResolutionError.Phase, _ reason: String) {
        guard let started = tickets.removeValue(forKey: server) else { return }
        for ticket in started { client.transport.cancel(ticket) }
        responses[server] = nil
        let failure = ResolutionError.ServerFailure(server: client.servers[server].label, phase: phase, cause: reason)
        failures.append(failure)
        trail.append("skipped \(failure)")
    }

    private mutating func giveUp() throws(ResolutionError) -> Never {
        let budgetText = budget.initialMS.map { "\($0) ms" } ?? "time"
        for server in tickets.keys.sorted() {
            failures.append(.init(server: client.servers[server].label, phase: .timeout,
                                  cause: "no answer within the HTTPDNS time budget of \(budgetText)"))
        }
        for server in next..<client.servers.count {
            failures.append(.init(server: client.servers[server].label, phase: .notAsked,
                                  cause: "not asked, the HTTPDNS time budget of \(budgetText) ran out"))
        }
        throw ResolutionError.unavailable(host, failures)
    }
}

extension HTTPDNSClient.Verdict {
    /// Goes on with `next` when this is an answer; a failure stays the same failure.
    func then<Next>(_ next: (Value) -> HTTPDNSClient.Verdict<Next>) -> HTTPDNSClient.Verdict<Next> {
        switch self {
        case .answer(let value): next(value)
        case .definite(let reason): .definite(reason)
        case .noRecords(let reason): .noRecords(reason)
        case .serverFailed(let reason, let phase): .serverFailed(reason, phase: phase)
        }
    }
}
