/// Alibaba Cloud HTTPDNS over the v2 API (``AliyunV2``): up to five names and both families in one `/v2/d` query,
/// raced across the servers by ``HTTPDNSClient``.
///
/// A vendor code every server would repeat (``AliyunV2/Code/isFinal``) ends the race at once and cancels the other
/// servers' queries; any other code, an unusable answer or a failed exchange sends the query to the next server.
/// When a batch is refused for its names (`InvalidHost` from one server, or `TooManyHosts` when no server answered
/// it), each name is asked on its own, so one bad name does not sink the others. A name whose asked families have no
/// address (a `no_ip_code`, an empty list) is a ``ResolutionError/Kind/noAddress`` error, which a policy's fallback
/// rule treats as every "no address".
/// The servers are given, or the account's service addresses found by an ``AliyunV2Discovery``.
/// - SeeAlso: ``AliyunResolver`` (v1); the Android SDK `resolve/BatchResolveHostService.java` (batches of five);
///   `CURLOPT_RESOLVE`.
public struct AliyunV2Resolver: Resolver {
    /// The account and how its queries are made.
    public let api: AliyunV2
    /// The families asked for (`q`).
    public let families: AddressFamilies
    private let servers: Servers

    /// Where queries go: given servers, or the account's discovered service addresses.
    private enum Servers {
        case given(HTTPDNSClient)
        case discovered(AliyunV2Discovery)
    }

    /// A resolver asking `client`'s servers for `families` of each name.
    public init(api: AliyunV2, families: AddressFamilies = .both, client: HTTPDNSClient) {
        self.api = api
        self.families = families
        servers = .given(client)
    }

    /// A resolver asking the service addresses `discovery` finds for `families` of each name; when every one of a
    /// cached list fails, the list is discovered again and the query asked once more.
    public init(api: AliyunV2, families: AddressFamilies = .both, discovery: AliyunV2Discovery) {
        self.api = api
        self.families = families
        servers = .discovered(discovery)
    }

    public func resolve(_ host: String, port: Int, within budget: LookupBudget) throws(ResolutionError) -> ResolverAnswer {
        try resolve(hosts: [host], port: port, within: budget)[0].get()
    }

    /// Up to ``AliyunV2/batchLimit`` names go in one query.
    public var asksNamesTogether: Bool { true }

    /// Each host's answer, asking the valid names in batches of ``AliyunV2/batchLimit``, one after the other within
    /// `budget`; a name given twice is asked once.
    public func resolve(hosts: [String], port: Int, within budget: LookupBudget) -> [Result<ResolverAnswer, ResolutionError>] {
        var found: [String: Result<ResolverAnswer, ResolutionError>] = [:]
        for batch in AliyunV2.Names.batches(hosts) {
            for (name, result) in zip(batch.names, resolve(batch, within: budget)) { found[name] = result }
        }
        return hosts.map { host in
            guard let name = HostName.normalized(host), let result = found[name] else { return .failure(.invalidName(host)) }
            return result
        }
    }

    /// One query for `batch`, or one per name when the batch is refused for its names.
    private func resolve(_ batch: AliyunV2.Names, within budget: LookupBudget) -> [Result<ResolverAnswer, ResolutionError>] {
        let about = batch.names.joined(separator: ",")
        let query: AliyunV2.Query
        do { query = try api.query(batch, families: families) } catch {
            let failure = ResolutionError.unavailable(about, [.init(server: "HTTPDNS", phase: .notAsked,
                                                                    cause: "cannot make the query: \(error.message)")])
            return batch.names.map { .failure(failure.about($0)) }
        }
        var outcome: Outcome
        var trail: [String] = []
        switch servers {
        case .given(let client):
            outcome = ask(query, about: about, client: client, within: budget)
        case .discovered(let discovery):
            do {
                let services = try discovery.services(within: budget)
                trail = services.trail
                outcome = ask(query, about: about, client: services.client, within: budget)
                if case .failure(let error) = outcome.result, error.kind == .unavailable, !outcome.final,
                   !outcome.refusedForItsNames, !budget.isSpent {
                    do {
                        if let refreshed = try discovery.refreshed(within: budget, after: error) {
                            trail += refreshed.trail
                            outcome = ask(query, about: about, client: refreshed.client, within: budget)
                        }
                    } catch let refresh {
                        outcome.result = .failure(error.adding(refresh.serverFailures))
                    }
                }
            } catch {
                return batch.names.map { .failure(error.about($0)) }
            }
        }
        let reply: HTTPDNSClient.Reply<AliyunV2.Answers>
        switch outcome.result {
        case .success(let value): reply = value
        case .failure(let error):
            if outcome.refusedForItsNames, batch.names.count > 1 {
                return batch.names.compactMap { AliyunV2.Names([$0]) }.flatMap { resolve($0, within: budget) }
            }
            return batch.names.map { .failure(error.about($0)) }
        }
        let source = AnswerSource.provider(.aliyun, server: reply.server)
        return batch.names.map { name in
            switch reply.value.verdict(for: name) {
            case .answer(let parsed): .success(parsed.answer(source: source, trail: trail + reply.trail))
            case .noRecords(let reason): .failure(.noAddress(name, source: reply.server, reason))
            case .definite(let reason), .serverFailed(let reason, _):
                .failure(.unavailable(name, [.init(server: reply.server, phase: .answer, cause: reason)]))
            }
        }
    }

    /// How one query's race ended: the reply or the error, whether a final vendor code ended it, and whether a server
    /// refused it for its names (``AliyunV2/Code/concernsTheNames``), so they may be asked one by one.
    private struct Outcome {
        var result: Result<HTTPDNSClient.Reply<AliyunV2.Answers>, ResolutionError>
        var final = false
        var refusedForItsNames = false
    }

    private func ask(_ query: AliyunV2.Query, about: String, client: HTTPDNSClient, within budget: LookupBudget) -> Outcome {
        var final = false, refusedForItsNames = false
        let result = Result { () throws(ResolutionError) in
            try client.ask([HTTPDNSClient.Request(path: query.path)], about: about, within: budget) { responses in
                switch api.read(responses[0], for: query) {
                case .answers(let answers):
                    return .answer(answers)
                case .refused(let error) where error.isFinal:
                    final = true
                    refusedForItsNames = error.code.concernsTheNames
                    return .definite(error.description)
                case .refused(let error):
                    if error.status != 200, error.code.concernsTheNames { refusedForItsNames = true }
                    return .serverFailed(error.description, phase: error.status == 200 ? .answer : .http)
                case .unusable(let reason, let phase):
                    return .serverFailed(reason, phase: phase)
                }
            }
        }
        return Outcome(result: result, final: final, refusedForItsNames: refusedForItsNames)
    }
}
