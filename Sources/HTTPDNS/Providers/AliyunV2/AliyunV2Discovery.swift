#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds where an Alibaba account's v2 queries go: its service addresses, asked of the boot addresses
/// (`GET /ACCOUNT/ss`, ``AliyunV2/ServiceList``) and kept in a store between runs.
///
/// - A stored list younger than ``maximumAgeSeconds`` is used as it is; a cold start (no stored list for the
///   account, boot servers and trust the key stands for) or an older list asks the boot servers, hedged as every
///   HTTPDNS query is. When they fail, an expired list is still used, and the trail says so.
/// - When every address of a stored list failed, ``refreshed(within:)`` asks the boot servers again, once per run
///   (a list asked for in this run is not asked for again).
/// - The boot servers' `InvalidAccount` and `AccountNotExists` end the search, as they do for `/v2/d`.
///
/// Each step leaves a line in the trail `-v` prints: which list was used, where it came from and how old it is.
/// Not `Sendable`: one resolver uses it from one thread.
/// - SeeAlso: "调度服务接口" (refresh at a cold start, at least every 8 h, and when every service address failed);
///   ``AliyunV2Resolver``; `CURLOPT_RESOLVE` (each https address is verified as ``AliyunV2/serviceName``).
public final class AliyunV2Discovery {
    /// How long a list is used before the boot servers are asked again: 8 h, the product's best practice.
    public static let maximumAgeSeconds: Int64 = 8 * 3600

    /// A client over the service addresses in use, and the lines that tell which they are.
    struct Services {
        let client: HTTPDNSClient
        let trail: [String]
    }

    private let api: AliyunV2
    private let boot: HTTPDNSClient
    private let store: (any AliyunV2ServiceStore)?
    private let key: String
    private let serviceName: String
    private let now: () -> Int64
    private var current: AliyunV2.ServiceList?
    private var askedThisRun = false

    /// Discovery for `api`'s account through `boot`'s servers, keeping lists in `store` under `key` (which must
    /// differ for every account, boot server list and TLS trust), verifying https service addresses as
    /// `serviceName`; `now` gives Unix seconds.
    public init(api: AliyunV2, boot: HTTPDNSClient, store: (any AliyunV2ServiceStore)?, key: String,
                serviceName: String = AliyunV2.serviceName, now: @escaping () -> Int64 = { Int64(time(nil)) }) {
        self.api = api
        self.boot = boot
        self.store = store
        self.key = key
        self.serviceName = serviceName
        self.now = now
    }

    /// The service addresses to ask, within `budget`: this run's list, else a stored one that is young enough, else
    /// the boot servers' answer. Throws the boot servers' failures when there is no list at all.
    func services(within budget: LookupBudget) throws(ResolutionError) -> Services {
        if let current { return Services(client: client(current), trail: []) }
        var trail: [String] = []
        let time = now()
        let stored = store?.serviceList(key: key) { trail.append($0) }
        if let stored, stored.discovered <= time, time - stored.discovered < Self.maximumAgeSeconds {
            current = stored
            return Services(client: client(stored), trail: trail + [describe(stored, "from the cache, discovered \(stored.age(at: time)) ago")])
        }
        do {
            let (list, problems) = try ask(within: budget)
            let why = stored == nil ? "discovered" : "rediscovered (the cached list was \(stored!.age(at: time)) old)"
            return Services(client: client(list), trail: trail + [describe(list, why)] + problems)
        } catch {
            guard let stored else { throw error }
            current = stored
            return Services(client: client(stored), trail: trail + [
                "service discovery failed (\(error.reason)); using the expired list",
                describe(stored, "from the cache, discovered \(stored.age(at: time)) ago"),
            ])
        }
    }

    /// A new list after every address of the one in use failed (`failure` says how), or `nil` when that list was
    /// asked for in this run (asking again at once would name the same addresses). Throws the boot servers' failures.
    func refreshed(within budget: LookupBudget, after failure: ResolutionError) throws(ResolutionError) -> Services? {
        guard !askedThisRun else { return nil }
        let (list, problems) = try ask(within: budget)
        return Services(client: client(list), trail: ["every cached service address failed (\(failure.reason))",
                                                      describe(list, "rediscovered")] + problems)
    }

    /// Asks the boot servers; stores and returns the list, with the line to tell when it could not be stored.
    private func ask(within budget: LookupBudget) throws(ResolutionError) -> (AliyunV2.ServiceList, [String]) {
        askedThisRun = true
        let time = now()
        let reply: HTTPDNSClient.Reply<[UInt8]>
        do {
            reply = try boot.ask([HTTPDNSClient.Request(path: api.discoveryPath)], about: api.account, within: budget) { responses in
                Self.verdict(responses[0])
            }
        } catch {
            guard error.kind == .unavailable else { throw error }
            throw ResolutionError.unavailable(error.host, error.failures.map {
                ResolutionError.ServerFailure(server: $0.server, phase: $0.phase, cause: "service discovery: \($0.cause)")
            })
        }
        // The list takes the scheme of the boot server that gave it (and its default port where none is given).
        let list: AliyunV2.ServiceList
        do { list = try AliyunV2.ServiceList(parsing: reply.value, scheme: reply.endpoint.scheme, boot: reply.server, discovered: time) } catch {
            throw ResolutionError.unavailable(api.account, [.init(server: reply.server, phase: .answer, cause: "service discovery: \(error.reason)")])
        }
        current = list
        let problem = store?.store(list, key: key)
        return (list, problem.map { [$0] } ?? [])
    }

    /// What a boot server's `/ss` response means: a list (its body, checked), a final vendor code, or a reason to
    /// ask the next server.
    static func verdict(_ response: HTTPDNSResponse) -> HTTPDNSClient.Verdict<[UInt8]> {
        guard response.body.count <= HTTPDNSClient.maximumBody else { return .serverFailed("the answer is larger than 64 KiB", phase: .http) }
        guard response.status == 200 else {
            if case .object(let members)? = try? JSONValue.parse(response.body), case .string(let code)? = members["code"] {
                let error = AliyunV2.ServerError(code: AliyunV2.Code(code), status: response.status)
                return error.isFinal ? .definite("service discovery: \(error)") : .serverFailed(error.description, phase: .http)
            }
            return .serverFailed("HTTP \(response.status)", phase: .http)
        }
        do { _ = try AliyunV2.ServiceList(parsing: response.body, scheme: "https", boot: "", discovered: 0) } catch {
            return .serverFailed(error.reason, phase: .answer)
        }
        return .answer(response.body)
    }

    private func client(_ list: AliyunV2.ServiceList) -> HTTPDNSClient { boot.reaching(list.servers(serviceName: serviceName)) }

    /// `service addresses of account ID, HOW through BOOT: https 192.0.2.1:443, …`.
    private func describe(_ list: AliyunV2.ServiceList, _ how: String) -> String {
        "service addresses of account \(api.account), \(how) through \(list.boot): \(list.scheme) "
            + list.addresses.map(\.description).joined(separator: ", ")
    }
}
