/// An RFC 8484 DNS-over-HTTPS client: POSTs `application/dns-message` A and AAAA queries concurrently, over
/// one HTTP/2 connection, to each server in turn and accepts only answers that pass
/// ``DNSMessage/parseAnswer(_:id:name:type:)``.
///
/// Servers are raced by ``HTTPDNSClient``: a server that cannot be reached, stays silent past the hedge delay,
/// answers with a non-200 status, a wrong content type, more than 64 KiB or a malformed message gives way to the
/// next one. A definite negative answer (NXDOMAIN, no records) ends the race: another server would say the same.
/// - SeeAlso: curl's `--doh-url`, `CURLOPT_DOH_URL` (which ipcurl does not use: it keeps no TTLs and gives
///   no answer back to the caller).
public struct DoHResolver: Resolver {
    /// Public DoH endpoints reached by IP, so no system DNS is needed to find them; tried in this order.
    public static let defaultServers = ["https://1.1.1.1/dns-query", "https://223.5.5.5/dns-query"]

    private let client: HTTPDNSClient
    private let types: [DNSRecordType]

    /// A resolver over `client`'s servers, which must all be https (else a configuration error), asking for the
    /// record types of `families` only (`-4` asks no AAAA, as curl's `--doh-url` does).
    public init(client: HTTPDNSClient, families: AddressFamilies = .both) throws(ResolutionError) {
        if let plain = client.servers.first(where: \.isPlainHTTP) {
            throw .configuration(.dohServer, value: plain.label, "not an https:// URL")
        }
        self.client = client
        types = families.recordTypes
    }

    public func resolve(_ host: String, port: Int, within budget: LookupBudget) throws(ResolutionError) -> ResolverAnswer {
        var queries: [(type: DNSRecordType, id: UInt16, message: [UInt8])] = []
        for type in types {
            let id = UInt16.random(in: 0...UInt16.max)
            do { queries.append((type, id, try DNSMessage.query(id: id, name: host, type: type))) } catch {
                throw .invalidName(host)
            }
        }
        let requests = queries.map { HTTPDNSClient.Request(path: "", body: $0.message) }
        let headers = ["Content-Type: application/dns-message", "Accept: application/dns-message"]
        let reply = try client.ask(requests, about: host, headers: headers, within: budget) {
            (responses) -> HTTPDNSClient.Verdict<ParsedAnswer> in
            var addresses: [IPAddress] = []
            var ttl: Int64?
            var negatives: [String] = []
            for (response, query) in zip(responses, queries) {
                guard response.status == 200 else { return .serverFailed("HTTP \(response.status)", phase: .http) }
                guard response.contentType.hasPrefix("application/dns-message") else {
                    let type = response.contentType.isEmpty ? "none" : Printable.excerpt(response.contentType, limit: 64)
                    return .serverFailed("content type \(type), not application/dns-message", phase: .http)
                }
                do throws(DNSError) {
                    let answer = try DNSMessage.parseAnswer(response.body, id: query.id, name: host, type: query.type)
                    addresses += answer.addresses
                    if !answer.addresses.isEmpty { ttl = min(ttl ?? Int64(answer.ttl), Int64(answer.ttl)) }
                } catch .rcode(let code, let name) where code == 3 {
                    negatives.append(DNSError.rcode(code, name).description)
                } catch {
                    return .serverFailed(error.description)
                }
            }
            guard let ttl else { return .noRecords(negatives.first ?? DNSRecordType.noRecords(of: types)) }
            return .answer(ParsedAnswer(host: host, addresses: addresses, ttl: ttl))
        }
        return reply.value.answer(source: .provider(.doh, server: reply.server), trail: reply.trail)
    }
}

extension ProviderKind {
    /// ``DoHResolver`` (RFC 8484).
    public static let doh = ProviderKind("doh")
}
