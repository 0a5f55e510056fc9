import CurlKit
import HTTPDNS
import Locking

/// A request's overall time limit (`-m`), counted from ``start``: resolution and transfer share it.
/// - SeeAlso: `CURLOPT_TIMEOUT_MS`.
public struct TimeBudget: Sendable {
    /// When the counting began (the attempt's or the probe's start).
    public let start: ContinuousClock.Instant
    /// The limit in milliseconds.
    public let limitMS: Int

    /// `limitMS` from `start`.
    public init(limitMS: Int, from start: ContinuousClock.Instant = .now) {
        self.limitMS = limitMS
        self.start = start
    }

    /// The instant no lookup may run past.
    public var deadline: ContinuousClock.Instant { start + .milliseconds(limitMS) }

    /// Whether less than a whole millisecond is left, where a lookup budget counts as spent.
    var isSpent: Bool { deadline - .now < .milliseconds(1) }

    /// curl's message for a limit reached while resolving `host`.
    func timedOut(resolving host: String) -> CurlError {
        let elapsed = Int((ContinuousClock.now - start) / .milliseconds(1))
        return CurlError.operationTimedOut.with(
            message: "Operation timed out after \(max(elapsed, limitMS)) milliseconds while resolving \(host)")
    }
}

/// One name's lookup in a session: the resolution and the time the lookup took (`%{dns_time}`, check's
/// `resolve` phase); a name the run's answers hold costs nothing.
public struct NameLookup: Sendable {
    /// The resolution.
    public let resolution: Resolution
    /// Microseconds spent resolving.
    public let microseconds: Int64
}

/// The resolution side of one run, shared by every orchestrator (fetch, check, resolve): the policy (cache,
/// provider, fallback, families), the answers of this run by `host:port` (each name is asked once per run, serial
/// or parallel), the time budget of each lookup, and what `-v` and the warnings say about it, through
/// ``Diagnostics``. Every use of the policy and the answers holds the session's lock, so parallel transfers
/// resolve one at a time and transfer at once.
/// - SeeAlso: `CURLOPT_RESOLVE`, curl's `--resolve`, `--max-time`.
public final class ResolverSession: @unchecked Sendable {
    /// The settings the policy was made from.
    public let settings: ResolverSettings
    /// Where decisions and fallback warnings are told.
    public let diagnostics: Diagnostics
    /// The run's trust and time limits: the HTTPDNS queries' and the requests'.
    public let transport: TransportOptions
    private let policy: ResolutionPolicy
    private var resolutions = NameList<Resolution>()
    private var announced = false
    private let lock = Lock()

    /// A session resolving as `settings` say; HTTPDNS queries use `transport`'s trust and limits.
    public init(settings: ResolverSettings, transport: TransportOptions, diagnostics: Diagnostics) {
        self.settings = settings
        self.diagnostics = diagnostics
        self.transport = transport
        policy = settings.policy(transport: transport)
        if diagnostics.verbose { policy.note = { diagnostics.traceNotes([$0]) } }
    }

    /// The run's opening lines, once however many transfers share it: under `--no-fallback` a warning for each name
    /// the system resolver still looks up (HTTPDNS servers and the proxies of their queries named by a host name),
    /// else `-v`'s note for each server; and `-v`'s note on why there is no cache.
    public func announce() {
        guard lock.locked({ () -> Bool in defer { announced = true }; return !announced }) else { return }
        for line in settings.systemLookupWarnings() { diagnostics.warnOnce(line) }
        guard diagnostics.verbose else { return }
        diagnostics.traceNotes((settings.cacheNote.map { [$0] } ?? []) + (settings.fallback ? settings.serverNameNotes() : []))
    }

    /// Under `--no-fallback`, warns once per run that each proxy of the request's `route` whose name libcurl looks
    /// up is looked up by the system resolver when it is named by a host name; `pinnable` when the request's handle
    /// carries the `--resolve` entries (a fetch's), so one of them can pin it.
    func warnAboutProxy(_ route: ProxyEnvironment.Route, pinnable: Bool) {
        for hop in route.locallyResolved {
            if let line = settings.proxyWarning(hop, for: "requests", pinnable: pinnable) { diagnostics.warnOnce(line) }
        }
    }

    /// Resolves `host` (as libcurl will look it up; `unicode`, the IDN as written, for `-v`) for `port`, within
    /// `budget`; when the run's answers hold `host`:`port`, that answer is returned without a lookup.
    public func resolve(host: String, port: Int, unicode: String? = nil,
                        within budget: TimeBudget?) throws(CurlError) -> NameLookup {
        try lock.locked { () throws(CurlError) -> NameLookup in
            let key = "\(host):\(port)"
            if let known = resolutions[key] { return NameLookup(resolution: known, microseconds: 0) }
            if let unicode { diagnostics.trace(DecisionLog.idn(unicode, is: host)) }
            policy.deadline = budget?.deadline
            let began = ContinuousClock.now
            do throws(ResolutionError) {
                let resolution = try policy.resolve(host: host, port: port)
                resolutions[key] = resolution
                tell(resolution, host: host)
                return NameLookup(resolution: resolution, microseconds: (ContinuousClock.now - began).wholeMicroseconds)
            } catch {
                throw failure(error, host: host, budget: budget)
            }
        }
    }

    /// Resolves `hosts` for `port` in one lookup within `budget`, letting the provider batch them.
    public func resolve(hosts: [String], port: Int, within budget: TimeBudget?) -> [Result<Resolution, CurlError>] {
        timedResolve(hosts: hosts, port: port, within: budget).map(\.result)
    }

    /// ``resolve(hosts:port:within:)`` with each name's lookup time: its own, or its batch's when the provider asked
    /// several names in one query (``ResolutionPolicy/timedResolve(hosts:port:)``).
    public func timedResolve(hosts: [String], port: Int,
                             within budget: TimeBudget?) -> [(result: Result<Resolution, CurlError>, time: LookupTime)] {
        lock.locked {
            policy.deadline = budget?.deadline
            return zip(hosts, policy.timedResolve(hosts: hosts, port: port)).map { host, timed in
                switch timed.result {
                case .success(let resolution):
                    resolutions["\(host):\(port)"] = resolution
                    tell(resolution, host: host)
                    return (.success(resolution), timed.time)
                case .failure(let error):
                    return (.failure(failure(error, host: host, budget: budget)), timed.time)
                }
            }
        }
    }

    /// Drops `resolution` of `host`:`port`, from this run and from the answer cache, after every one of its
    /// addresses failed: the next attempt and the next run ask HTTPDNS again instead of trusting a possibly
    /// spoofed answer for its TTL.
    public func distrust(host: String, port: Int, _ resolution: Resolution) {
        let forgotten = lock.locked {
            resolutions["\(host):\(port)"] = nil
            return policy.forget(resolution)
        }
        if forgotten { diagnostics.trace("* HTTPDNS \(host): every address failed; the cached answer is dropped\n") }
    }

    /// Waits for a background refresh, if one runs, and tells its lines under `-v`.
    public func finish() {
        diagnostics.traceNotes(lock.locked { policy.finishRefresh() })
    }

    /// `-v`'s answer lines and the fallback warning for `resolution`.
    private func tell(_ resolution: Resolution, host: String) {
        diagnostics.trace(DecisionLog.answer(resolution, host: host))
        if let reason = resolution.fallbackReason { diagnostics.warning(DecisionLog.fallbackWarning(host, reason)) }
    }

    /// curl's error for a lookup that failed with `error`: a budget spent while resolving is exit 28, whatever
    /// the provider's own reason.
    private func failure(_ error: ResolutionError, host: String, budget: TimeBudget?) -> CurlError {
        if let budget, budget.isSpent { return budget.timedOut(resolving: host) }
        return CurlError(error)
    }
}
