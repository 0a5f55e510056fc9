/// JSON DNS-over-HTTPS: Google's `/resolve?name=H&type=A` and Cloudflare's
/// `/dns-query?name=H&type=A` with `accept: application/dns-json`. A and AAAA are asked at once.
///
/// `Status` must be an integer (0 answers, 3 is NXDOMAIN, anything else fails the server); `Answer` records
/// need an integer `type` and `TTL` and a string `name` and `data`. CNAME chains from the asked name are
/// followed for up to 16 hops; every address must parse as one of the asked family.
/// - SeeAlso: curl's `--doh-url` (the RFC 8484 wire format, see ``DoHResolver``).
public struct DoHJSONResolver: Resolver {
    /// Longest CNAME chain followed.
    static let maximumChain = 16

    private let client: HTTPDNSClient
    private let types: [DNSRecordType]

    /// A resolver asking `client`'s servers, whose URLs are the JSON endpoints themselves, for the record types of
    /// `families` only.
    public init(client: HTTPDNSClient, families: AddressFamilies = .both) {
        self.client = client
        types = families.recordTypes
    }

    public func resolve(_ host: String, port: Int, within budget: LookupBudget) throws(ResolutionError) -> ResolverAnswer {
        let requests = types.map { HTTPDNSClient.Request(path: "?name=\(host)&type=\($0 == .a ? "A" : "AAAA")") }
        let reply = try client.ask(requests, about: host, headers: ["Accept: application/dns-json"], within: budget) {
            (responses) -> HTTPDNSClient.Verdict<ParsedAnswer> in
            var addresses: [IPAddress] = []
            var ttl: Int64?
            for (response, type) in zip(responses, types) {
                switch Self.records(response, host: host, type: type) {
                case .answer(let found):
                    addresses += found.addresses
                    if !found.addresses.isEmpty { ttl = min(ttl ?? found.ttl, found.ttl) }
                case .definite(let reason): return .definite(reason)
                case .noRecords(let reason): return .noRecords(reason)
                case .serverFailed(let reason, let phase): return .serverFailed(reason, phase: phase)
                }
            }
            guard let ttl else { return .noRecords(DNSRecordType.noRecords(of: types)) }
            return .answer(ParsedAnswer(host: host, addresses: addresses, ttl: ttl))
        }
        return reply.value.answer(source: .provider(.dohJSON, server: reply.server), trail: reply.trail)
    }

    /// The addresses of `type` for `host` in one JSON answer, following CNAMEs.
    static func records(_ response: HTTPDNSResponse, host: String, type: DNSRecordType)
        -> HTTPDNSClient.Verdict<(addresses: [IPAddress], ttl: Int64)>
    {
        guard response.status == 200 else { return .serverFailed("HTTP \(response.status)", phase: .http) }
        guard response.contentType.contains("json") else {
            let type = response.contentType.isEmpty ? "none" : Printable.excerpt(response.contentType, limit: 64)
            return .serverFailed("content type \(type), not JSON", phase: .http)
        }
        let document: JSONValue
        do { document = try JSONValue.parse(response.body) } catch { return .serverFailed(error.description) }
        do {
            let status = try AnswerFields.integer(document, "Status").get()
            if status == 3 { return .noRecords("NXDOMAIN") }
            guard status == 0 else { return .serverFailed("DNS status \(status)") }
            let records = try Self.answerRecords(document)
            return try .answer(Self.follow(records, from: host, type: type))
        } catch {
            return .serverFailed(error.reason)
        }
    }

    private struct Record {
        let name: String
        let type: Int64
        let ttl: Int64
        let data: String
    }

    private static func answerRecords(_ document: JSONValue) throws(FieldError) -> [Record] {
        guard let value = document["Answer"], value != .null else { return [] }
        guard case .array(let items) = value else { throw FieldError("\"Answer\" is a \(value.typeName), not an array") }
        var records: [Record] = []
        for item in items {
            guard case .string(let name)? = item["name"], case .string(let data)? = item["data"] else {
                throw FieldError("an answer record lacks a string \"name\" or \"data\"")
            }
            records.append(Record(name: HostName.normalized(name) ?? name, type: try AnswerFields.integer(item, "type").get(),
                                  ttl: try AnswerFields.integer(item, "TTL").get(), data: data))
        }
        return records
    }

    private static func follow(_ records: [Record], from host: String, type: DNSRecordType)
        throws(FieldError) -> (addresses: [IPAddress], ttl: Int64)
    {
        let family: IPAddress.Family = type == .a ? .v4 : .v6
        var name = host
        var ttl = Int64.max
        for _ in 0...maximumChain {
            let matches = records.filter { $0.name == name && $0.type == Int64(type.rawValue) }
            if !matches.isEmpty {
                var addresses: [IPAddress] = []
                for record in matches {
                    addresses.append(try AnswerFields.address(record.data, family: family).get())
                    ttl = min(ttl, record.ttl)
                }
                return (addresses, ttl)
            }
            guard let alias = records.first(where: { $0.name == name && $0.type == 5 }) else { return ([], 0) }
            guard let target = HostName.normalized(alias.data) else {
                throw FieldError("CNAME target \(Printable.quoted(alias.data.prefix(64))) is not a host name")
            }
            name = target
            ttl = min(ttl, alias.ttl)
        }
        throw FieldError("CNAME chain longer than \(maximumChain)")
    }
}

extension ProviderKind {
    /// ``DoHJSONResolver``.
    public static let dohJSON = ProviderKind("doh-json")
}
