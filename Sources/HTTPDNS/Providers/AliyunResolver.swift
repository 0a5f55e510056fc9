#if canImport(Glibc)
import Glibc
#endif

/// Alibaba Cloud HTTPDNS for an account ID: `GET /{account}/d?host=H&query=4,6`, or the signed
/// `sign_d` form when a secret is configured, and the batch `resolve`/`sign_resolve` API for several hosts.
///
/// Every address must be an IPv4 string in `ips` or an IPv6 string in `ipsv6`; the `host` field must echo the
/// question; `ttl` must be an integer. Documented 4xx errors (`{"code":"InvalidAccount"}`, ...) are reported
/// by code and end the search.
/// - SeeAlso: `CURLOPT_RESOLVE`; Alibaba Cloud HTTPDNS "domain name resolution API" and "authenticated access".
public struct AliyunResolver: Resolver {
    /// The TLS name Alibaba's resolver servers present; used when a server is given by IP over https.
    public static let serviceName = "resolvers-cn.httpdns.aliyuncs.com"
    /// Alibaba's documented start-up service IPs (mainland China), reached over https.
    public static let defaultServers = ["https://203.107.1.1", "https://203.107.1.97", "https://203.107.1.100"]
    /// The most hosts one batch request may carry.
    public static let batchLimit = 5
    /// How long a signature stays valid: the `t` parameter is now plus this.
    static let signatureLifetime = 600

    /// The HTTPDNS account ID (digits).
    public let account: String
    private let secret: String?
    private let clientIP: IPAddress?
    private let client: HTTPDNSClient

    /// A resolver for `account`; signs requests when `secret` is given; sends `clientIP` as the ECS `ip` parameter.
    /// Throws a configuration error for an account that is not 1–32 ASCII letters or digits.
    public init(account: String, secret: String?, clientIP: IPAddress?, client: HTTPDNSClient) throws(ResolutionError) {
        self.account = try Self.checked(account: account)
        self.secret = secret
        self.clientIP = clientIP
        self.client = client
    }

    public func resolve(_ host: String, port: Int, within budget: LookupBudget) throws(ResolutionError) -> ResolverAnswer {
        let reply = try client.ask([HTTPDNSClient.Request(path: path(single: true, hosts: host))], about: host, within: budget) {
            (responses) -> HTTPDNSClient.Verdict<ParsedAnswer> in
            Self.object(responses[0]).then { Self.answer([$0], for: host) }
        }
        return reply.value.answer(source: .provider(.aliyun, server: reply.server), trail: reply.trail)
    }

    /// Up to ``batchLimit`` names go in one `resolve` query.
    public var asksNamesTogether: Bool { true }

    public func resolve(hosts: [String], port: Int, within budget: LookupBudget) -> [Result<ResolverAnswer, ResolutionError>] {
        guard hosts.count > 1 else {
            return hosts.map { host in Result { () throws(ResolutionError) in try resolve(host, port: port, within: budget) } }
        }
        var results: [Result<ResolverAnswer, ResolutionError>] = []
        var start = 0
        while start < hosts.count {
            let batch = Array(hosts[start..<min(start + Self.batchLimit, hosts.count)])
            results += resolve(batch: batch, within: budget)
            start += batch.count
        }
        return results
    }

    private func resolve(batch: [String], within budget: LookupBudget) -> [Result<ResolverAnswer, ResolutionError>] {
        let joined = batch.joined(separator: ",")
        let reply: HTTPDNSClient.Reply<[String: [JSONValue]]>
        do {
            reply = try client.ask([HTTPDNSClient.Request(path: path(single: false, hosts: joined))], about: joined, within: budget) {
                (responses) -> HTTPDNSClient.Verdict<[String: [JSONValue]]> in
                Self.object(responses[0]).then(Self.entriesByHost)
            }
        } catch {
            return batch.map { host in .failure(error.about(host)) }
        }
        return batch.map { host in
            guard let entries = reply.value[host] else {
                return .failure(.noAddress(host, source: reply.server, "not in the batch answer"))
            }
            switch Self.answer(entries, for: host) {
            case .answer(let parsed): return .success(parsed.answer(source: .provider(.aliyun, server: reply.server), trail: reply.trail))
            case .noRecords(let reason): return .failure(.noAddress(host, source: reply.server, reason))
            case .definite(let reason), .serverFailed(let reason, _):
                return .failure(.unavailable(host, [.init(server: reply.server, phase: .answer, cause: reason)]))
            }
        }
    }

    /// `account` when it is 1–32 ASCII letters or digits; else a configuration error of
    /// ``ResolutionError/Setting/aliyunAccount``. Shared with ``AliyunV2``.
    static func checked(account: String) throws(ResolutionError) -> String {
        guard (1...32).contains(account.utf8.count), account.utf8.allSatisfy({ isAlphanumeric($0) }) else {
            throw .configuration(.aliyunAccount, value: account, "expected the numeric HTTPDNS account ID")
        }
        return account
    }

    /// `/{account}/d?…` or `/{account}/sign_d?…` (`resolve`/`sign_resolve` for a batch), signed as of `now`.
    func path(single: Bool, hosts: String, now: Int = Int(time(nil))) -> String {
        let api = single ? "d" : "resolve"
        var query = "host=\(hosts)&query=4,6"
        if let clientIP { query += "&ip=\(clientIP)" }
        guard let secret else { return "/\(account)/\(api)?\(query)" }
        let expiry = now + Self.signatureLifetime
        let signature = MD5.hex("\(hosts)-\(secret)-\(expiry)")
        return "/\(account)/sign_\(api)?\(query)&t=\(expiry)&s=\(signature)"
    }

    /// The answer's JSON object. A non-200 status with a JSON body is a documented error (`{"code": "..."}`), reported
    /// by its code, and ends the search; a body that is not a JSON object fails the server.
    static func object(_ response: HTTPDNSResponse) -> HTTPDNSClient.Verdict<JSONValue> {
        let parsed = Result { () throws(JSONError) in try JSONValue.parse(response.body) }
        guard case .success(let value) = parsed, case .object = value else {
            if response.status != 200 { return .serverFailed("HTTP \(response.status)", phase: .http) }
            if case .failure(let error) = parsed { return .serverFailed(error.description) }
            return .serverFailed("the answer is not a JSON object")
        }
        guard response.status == 200 else {
            guard case .string(let code)? = value["code"] else { return .definite("HTTP \(response.status)") }
            return .definite(AnswerFields.vendorCode(code, status: response.status))
        }
        return .answer(value)
    }

    /// A batch answer's `dns` entries grouped by their (normalized) `host`.
    static func entriesByHost(_ object: JSONValue) -> HTTPDNSClient.Verdict<[String: [JSONValue]]> {
        guard case .array(let items)? = object["dns"] else { return .serverFailed("no \"dns\" array in the batch answer") }
        var byHost: [String: [JSONValue]] = [:]
        for item in items {
            guard case .string(let name)? = item["host"], let host = HostName.normalized(name) else {
                return .serverFailed("a batch entry has no valid \"host\"")
            }
            byHost[host, default: []].append(item)
        }
        return .answer(byHost)
    }

    /// One host's answer: the `d` object, or the batch entries for it (one per record type when both families were
    /// asked, each with `"type": 1|28` and its addresses in `ips`). The `host` field must echo the question, `ips`
    /// hold IPv4 (IPv6 for type 28), `ipsv6` IPv6, and `ttl` must be an integer; `origin_ttl` is optional.
    static func answer(_ entries: [JSONValue], for host: String) -> HTTPDNSClient.Verdict<ParsedAnswer> {
        var v4: [IPAddress] = [], v6: [IPAddress] = []
        var ttl: Int64?, origin: Int64?
        do {
            for entry in entries {
                guard case .string(let echoed)? = entry["host"], HostName.normalized(echoed) == host else {
                    return .serverFailed("the answer is not for \(host)")
                }
                var family = IPAddress.Family.v4
                if entry["type"] != nil {
                    switch try AnswerFields.integer(entry, "type").get() {
                    case 1: family = .v4
                    case 28: family = .v6
                    case let other: return .serverFailed("record type \(other) is neither A nor AAAA")
                    }
                }
                let listed = try AnswerFields.addresses(entry, "ips", family: family).get()
                let listedV6 = try AnswerFields.addresses(entry, "ipsv6", family: .v6).get()
                if family == .v4 { v4 += listed } else { v6 += listed }
                v6 += listedV6
                let seconds = try AnswerFields.integer(entry, "ttl").get()
                if entry["origin_ttl"] != nil {
                    let value = try AnswerFields.integer(entry, "origin_ttl").get()
                    origin = min(origin ?? value, value)
                }
                if !(listed.isEmpty && listedV6.isEmpty) { ttl = min(ttl ?? seconds, seconds) }
            }
        } catch {
            return .serverFailed(error.reason)
        }
        guard let ttl else { return .noRecords("no A or AAAA records (empty answer)") }
        return .answer(ParsedAnswer(host: host, addresses: v4 + v6, ttl: ttl, originTTL: origin))
    }
}

private func isAlphanumeric(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
}

extension ProviderKind {
    /// ``AliyunResolver`` and ``AliyunV2Resolver``.
    public static let aliyun = ProviderKind("aliyun")
}
