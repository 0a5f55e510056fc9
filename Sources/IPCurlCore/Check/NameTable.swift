import CurlKit
import HTTPDNS

/// Every distinct host:port of a check, resolved once and shared by all probes of it.
final class NameTable {
    /// One name's lookup: the resolution or why there is none, and how long the lookup took.
    struct Lookup {
        var result: Result<Resolution, CurlError>
        var microseconds: Int64
    }

    private var lookups: [String: Lookup] = [:]
    private var order: [(host: String, port: Int)] = []

    /// Resolves the hosts of `urls` (the ones that will be probed), batching the names of each port.
    init(urls: [CurlURL], plan: CheckPlan, log: DescriptorWriter) {
        let policy = plan.resolver.policy(transport: plan.transport)
        if plan.verbose {
            policy.note = { log.write(DecisionLog.notes([$0])) }
            log.write(DecisionLog.notes(plan.resolver.serverNameNotes()))
        }
        var ports: [Int: [String]] = [:]
        for url in urls where lookups[Self.key(url.host, url.port)] == nil {
            lookups[Self.key(url.host, url.port)] = Lookup(result: .failure(.couldntResolveHost), microseconds: 0)
            order.append((url.host, url.port))
            ports[url.port, default: []].append(url.host)
        }
        let clock = ContinuousClock()
        for (port, hosts) in ports.sorted(by: { $0.key < $1.key }) {
            let began = clock.now
            let results = policy.resolve(hosts: hosts, port: port)
            let spent = (clock.now - began).wholeMicroseconds
            for (host, result) in zip(hosts, results) {
                if plan.verbose, case .success(let resolution) = result { log.write(DecisionLog.answer(resolution, host: host)) }
                if plan.showsWarnings, case .success(let resolution) = result, let reason = resolution.fallbackReason {
                    log.write("ipcurl: warning: \(DecisionLog.fallbackWarning(host, reason))\n")
                }
                lookups[Self.key(host, port)] = Lookup(result: result.mapError { CurlError($0) }, microseconds: spent)
            }
        }
        let refreshed = policy.finishRefresh()
        if plan.verbose { log.write(DecisionLog.notes(refreshed)) }
    }

    /// The lookup of `host` for `port`.
    func lookup(_ host: String, _ port: Int) -> Lookup? { lookups[Self.key(host, port)] }

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
