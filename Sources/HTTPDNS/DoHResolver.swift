import CurlKit

/// An RFC 8484 DNS-over-HTTPS client: POSTs `application/dns-message` A and AAAA queries concurrently, over
/// one HTTP/2 connection, to each server in turn and accepts only answers that pass
/// ``DNSMessage/parseAnswer(_:id:name:type:)``.
///
/// Server failover is ``HTTPDNSClient``'s: a server that cannot be reached, answers with a non-200 status, a wrong
/// content type, more than 64 KiB or a malformed message is skipped for the next one and for the rest of the run.
/// A definite negative answer (NXDOMAIN, no records) ends the search: another server would say the same.
/// - SeeAlso: curl's `--doh-url`, `CURLOPT_DOH_URL` (which ipcurl does not use: it keeps no TTLs and gives
///   no answer back to the caller).
public struct DoHResolver: Resolver {
    /// Public DoH endpoints reached by IP, so no system DNS is needed to find them; tried in this order.
    public static let defaultServers = ["https://1.1.1.1/dns-query", "https://223.5.5.5/dns-query"]

    private let client: HTTPDNSClient

    /// A resolver over `servers` (https URLs, else a usage error) using `transport`.
    public init(servers: [String], transport: TransportOptions) throws(CurlError) {
        let parsed = try HTTPDNSServer.list(servers)
        if let plain = zip(servers, parsed).first(where: { !$0.1.base.hasPrefix("https://") }) {
            throw CurlError.usage("--doh \(ResolveEntry.quoted(plain.0)): not an https:// URL")
        }
        client = try HTTPDNSClient(servers: parsed, transport: transport)
    }

    public func resolve(_ host: String, port: Int) throws(CurlError) -> ResolverAnswer {
        var queries: [(type: DNSRecordType, id: UInt16, message: [UInt8])] = []
        for type in [DNSRecordType.a, .aaaa] {
            let id = UInt16.random(in: 0...UInt16.max)
            do { queries.append((type, id, try DNSMessage.query(id: id, name: host, type: type))) } catch {
                throw ResolverFailure.couldNotResolve(host, error.description)
            }
        }
        let requests = queries.map { HTTPDNSClient.Request(path: "", body: $0.message) }
        let reply = try client.ask(requests, about: host, headers: ["Content-Type: application/dns-message",
                                                                    "Accept: application/dns-message"]) {
            (responses) -> HTTPDNSClient.Verdict<ParsedAnswer> in
            var addresses: [IPAddress] = []
            var ttl: Int64?
            var negatives: [String] = []
            for (response, query) in zip(responses, queries) {
                guard response.status == 200 else { return .serverFailed("HTTP \(response.status)") }
                guard response.contentType.hasPrefix("application/dns-message") else {
                    let type = response.contentType.isEmpty ? "none" : response.contentType
                    return .serverFailed("content type \(type), not application/dns-message")
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
            guard let ttl else { return .noRecords(negatives.first ?? "no A or AAAA records") }
            return .answer(ParsedAnswer(host: host, addresses: addresses, ttl: ttl))
        }
        return reply.value.answer(source: .doh(server: reply.server), skipped: reply.skipped)
    }
}
