#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import HTTPDNS

/// An in-memory ``HTTPDNSTransport`` with scripted servers: each exchange answers after some milliseconds, fails,
/// or never answers, and every start, cancel and completion is recorded with its time.
///
/// Behaviour is scripted per server: the first script whose key occurs in the request URL applies, and its
/// behaviours are used one per started exchange, the last one repeating (so `[.fail, .answer]` fails the first
/// exchange and answers every later one). A URL no script matches fails at once in the connect phase.
///
/// ``wait(milliseconds:)`` really sleeps: until the earliest scripted completion or the end of the wait, whichever
/// comes first, like a transport blocked in `poll`. Not thread-safe; one test owns one transport.
final class ScriptedTransport: HTTPDNSTransport {
    enum Behaviour {
        /// The exchange answers `response` this many milliseconds after it started.
        case answer(afterMS: Int, HTTPDNSResponse)
        /// The exchange fails this many milliseconds after it started.
        case fail(afterMS: Int, HTTPDNSTransportFailure)
        /// The exchange never finishes (a blackholed server).
        case silent
        /// The behaviour for this very request (e.g. per query type).
        case depending(@Sendable (HTTPDNSRequest) -> Behaviour)
    }

    struct Start {
        let ticket: Int
        let request: HTTPDNSRequest
        /// Milliseconds since the transport was made.
        let atMS: Double
    }

    struct Cancel {
        let ticket: Int
        let atMS: Double
        /// Whether the exchange was still running (neither finished nor cancelled before).
        let wasRunning: Bool
    }

    struct Completion {
        let ticket: Int
        let atMS: Double
    }

    /// The longest a single wait really sleeps, so a race that never ends fails the test instead of hanging it.
    static let longestWaitMS = 10_000

    let origin = ContinuousClock.now
    private var scripts: [(key: String, behaviours: [Behaviour], used: Int)] = []
    private var running: [Int: (due: ContinuousClock.Instant?, result: Result<HTTPDNSResponse, HTTPDNSTransportFailure>)] = [:]
    private var nextTicket = 1

    private(set) var starts: [Start] = []
    private(set) var cancels: [Cancel] = []
    private(set) var completions: [Completion] = []
    /// The milliseconds of every `wait` call.
    private(set) var waits: [Int] = []
    /// Extra milliseconds every wait sleeps past its end (a stalled event loop).
    var oversleepMS = 0
    /// When set, `start` throws it (a transport that cannot set up a request), for URLs containing
    /// ``startErrorKey`` when that is set, else for every URL.
    var startError: ResolutionError?
    var startErrorKey: String?

    init() {}

    /// Scripts the server whose URL contains `key`.
    func script(_ key: String, _ behaviours: Behaviour...) {
        precondition(!behaviours.isEmpty)
        scripts.append((key, behaviours, 0))
    }

    // MARK: HTTPDNSTransport

    func start(_ request: HTTPDNSRequest) throws(ResolutionError) -> Int {
        if let startError, startErrorKey.map({ request.url.contains($0) }) ?? true { throw startError }
        let ticket = nextTicket
        nextTicket += 1
        let now = ContinuousClock.now
        starts.append(Start(ticket: ticket, request: request, atMS: milliseconds(since: origin, to: now)))
        var behaviour = nextBehaviour(for: request.url)
        while case .depending(let choose) = behaviour { behaviour = choose(request) }
        switch behaviour {
        case .answer(let after, let response): running[ticket] = (now + .milliseconds(after), .success(response))
        case .fail(let after, let failure): running[ticket] = (now + .milliseconds(after), .failure(failure))
        case .silent: running[ticket] = (nil, .failure(HTTPDNSTransportFailure(phase: .timeout, message: "never")))
        case .depending: fatalError("unreachable")
        }
        return ticket
    }

    func wait(milliseconds: Int) -> [HTTPDNSCompletion] {
        waits.append(milliseconds)
        let now = ContinuousClock.now
        let end = now + .milliseconds(min(max(0, milliseconds), Self.longestWaitMS))
        let earliest = running.values.compactMap(\.due).min()
        Self.sleep(until: earliest.map { min($0, end) } ?? end)
        if oversleepMS > 0 { Self.sleep(until: ContinuousClock.now + .milliseconds(oversleepMS)) }
        let after = ContinuousClock.now
        let ready = running.compactMap { ticket, exchange in exchange.due.flatMap { $0 <= after ? (ticket, $0) : nil } }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        return ready.map { ticket, _ in
            let result = running.removeValue(forKey: ticket)!.result
            completions.append(Completion(ticket: ticket, atMS: self.milliseconds(since: origin, to: after)))
            return HTTPDNSCompletion(ticket: ticket, result: result)
        }
    }

    func cancel(_ ticket: Int) {
        let wasRunning = running.removeValue(forKey: ticket) != nil
        cancels.append(Cancel(ticket: ticket, atMS: milliseconds(since: origin, to: .now), wasRunning: wasRunning))
    }

    // MARK: Queries for assertions

    /// The starts of exchanges whose URL contains `key`, in order.
    func starts(of key: String) -> [Start] { starts.filter { $0.request.url.contains(key) } }

    /// When the first exchange with `key` in its URL started, in milliseconds since the transport was made.
    func firstStartMS(of key: String) -> Double? { starts(of: key).first?.atMS }

    /// The tickets of `key`'s exchanges that were cancelled while still running.
    func cancelledWhileRunning(of key: String) -> [Int] {
        let tickets = Set(starts(of: key).map(\.ticket))
        return cancels.filter { $0.wasRunning && tickets.contains($0.ticket) }.map(\.ticket)
    }

    /// The tickets of `key`'s exchanges whose outcome was reported by `wait`.
    func completed(of key: String) -> [Int] {
        let tickets = Set(starts(of: key).map(\.ticket))
        return completions.filter { tickets.contains($0.ticket) }.map(\.ticket)
    }

    /// Exchanges started and neither finished nor cancelled: what a race left behind.
    var stillRunning: [Int] { running.keys.sorted() }

    /// Milliseconds since the transport was made.
    var nowMS: Double { milliseconds(since: origin, to: .now) }

    // MARK: Helpers

    private func nextBehaviour(for url: String) -> Behaviour {
        guard let index = scripts.firstIndex(where: { url.contains($0.key) }) else {
            return .fail(afterMS: 0, HTTPDNSTransportFailure(phase: .connect, message: "nothing scripted for this URL"))
        }
        let script = scripts[index]
        scripts[index].used += 1
        return script.behaviours[min(script.used, script.behaviours.count - 1)]
    }

    private func milliseconds(since start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
        let (seconds, attoseconds) = (end - start).components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    private static func sleep(until instant: ContinuousClock.Instant) {
        while true {
            let left = instant - ContinuousClock.now
            guard left > .zero else { return }
            let (seconds, attoseconds) = left.components
            usleep(UInt32(min(Int64(seconds) * 1_000_000 + attoseconds / 1_000_000_000_000 + 1, 100_000)))
        }
    }
}

extension HTTPDNSResponse {
    /// A 200 answer with `text` as its body.
    static func ok(_ text: String, contentType: String = "text/plain") -> HTTPDNSResponse {
        HTTPDNSResponse(status: 200, contentType: contentType, body: Array(text.utf8))
    }

    /// A 200 `application/dns-json` answer.
    static func dnsJSON(_ text: String) -> HTTPDNSResponse { ok(text, contentType: "application/dns-json") }
}

extension HTTPDNSTransportFailure {
    /// A refused connection.
    static let refused = HTTPDNSTransportFailure(phase: .connect, message: "Failed to connect: Connection refused")
}
