import CurlKit
import HTTPDNS

/// Every distinct host:port of a check, resolved once through the run's ``ResolverSession`` and shared by all
/// probes of it. Each port's names are one lookup within the probe time limit: a name's resolution counts against
/// the time of every probe of it. A name's time is its own, or its batch's when the provider asked several names in
/// one query (``LookupTime``).
final class NameTable {
    /// One name's lookup: the resolution or why there is none, how long the lookup took, and how many names that
    /// time covers (1 when it is the name's own).
    struct Lookup {
        var result: Result<Resolution, CurlError>
        var microseconds: Int64
        var names = 1
    }

    private var lookups: [String: Lookup] = [:]
    private var order: [(host: String, port: Int)] = []
    private let session: ResolverSession

    /// Resolves the hosts of `urls` (the ones that will be probed) with `session`, batching the names of each port,
    /// each batch within `timeLimitMS`.
    init(urls: [CurlURL], session: ResolverSession, timeLimitMS: Int) {
        self.session = session
        var ports: [Int: [String]] = [:]
        for url in urls where lookups[Self.key(url.host, url.port)] == nil {
            lookups[Self.key(url.host, url.port)] = Lookup(result: .failure(.couldntResolveHost), microseconds: 0)
            order.append((url.host, url.port))
            ports[url.port, default: []].append(url.host)
        }
        for (port, hosts) in ports.sorted(by: { $0.key < $1.key }) {
            let budget = TimeBudget(limitMS: timeLimitMS, from: ContinuousClock.now)
            for (host, lookup) in zip(hosts, session.timedResolve(hosts: hosts, port: port, within: budget)) {
                lookups[Self.key(host, port)] = Lookup(result: lookup.result, microseconds: lookup.time.duration.wholeMicroseconds,
                                                       names: lookup.time.names)
            }
        }
        session.finish()
    }

    /// The lookup of `host` for `port`.
    func lookup(_ host: String, _ port: Int) -> Lookup? { lookups[Self.key(host, port)] }

    /// Drops the cached answer of each name whose probes (`probes`, finished as `results`) all failed and, together,
    /// proved every address of its answer unusable: the rule a fetch drops an answer by
    /// (``AddressFailover/condemns(_:failed:)``). One probe that completed keeps the answer.
    func distrustFailedAnswers(_ probes: [PlannedProbe], _ results: [ProbeResult]) {
        for (host, port) in order {
            guard case .success(let resolution)? = lookup(host, port)?.result, let answer = resolution.entry?.addresses else { continue }
            let ran = probes.indices.filter { probes[$0].runs && probes[$0].url?.host == host && probes[$0].url?.port == port }
            guard !ran.isEmpty, ran.allSatisfy({ results[$0].error != nil }) else { continue }
            if AddressFailover.condemns(answer, failed: ran.flatMap { results[$0].failedAddresses }) {
                session.distrust(host: host, port: port, resolution)
            }
        }
    }

    /// `--compare-system`: every distinct host asked of the system resolver (`getaddrinfo`), beside HTTPDNS's answer.
    func compareWithSystem(dnsTimeoutMS: Int, families: AddressFamilies) -> [NameComparison] {
        var seen = Set<String>()
        return order.compactMap { host, port -> NameComparison? in
            guard IPAddress(host) == nil, seen.insert(host).inserted else { return nil }
            let resolution = try? lookup(host, port)?.result.get()
            let httpdns = resolution?.fallbackReason == nil ? resolution?.entry?.addresses ?? [] : []
            do throws(ResolutionError) {
                let system = try SystemResolver().resolve(host, port: port, within: LookupBudget(milliseconds: dnsTimeoutMS))
                return NameComparison(host: host, httpdns: httpdns, system: families.ordered(system.addresses))
            } catch {
                return NameComparison(host: host, httpdns: httpdns, system: [], systemError: error.description)
            }
        }
    }

    private static func key(_ host: String, _ port: Int) -> String { "\(host):\(port)" }
}
