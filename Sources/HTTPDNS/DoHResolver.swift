import CCurl
import CurlKit

/// An RFC 8484 DNS-over-HTTPS client: POSTs `application/dns-message` A and AAAA queries concurrently to each
/// server in turn and accepts only answers that pass ``DNSMessage/parseAnswer(_:id:name:type:)``.
///
/// A server that cannot be reached, answers with a non-200 status, a wrong content type, more than 64 KiB or
/// a malformed message is skipped for the next one. A definite negative answer (NXDOMAIN, no records) ends
/// the search: another server would say the same.
/// - SeeAlso: curl's `--doh-url`, `CURLOPT_DOH_URL` (which ipcurl does not use: it keeps no TTLs and gives
///   no answer back to the caller).
public struct DoHResolver: Resolver {
    /// Public DoH endpoints reached by IP, so no system DNS is needed to find them; tried in this order.
    public static let defaultServers = ["https://1.1.1.1/dns-query", "https://223.5.5.5/dns-query"]
    /// The largest DNS message there is; a bigger body is not a DNS answer.
    static let maximumBody = 65_535

    /// Server URLs, tried in order.
    public let servers: [String]
    /// TLS and timeout settings for the queries (the user's `--cacert`, `-k`).
    public let transport: TransportOptions
    /// Runs the queries; its connection cache lets later hosts reuse the connection to a server.
    private let multi: MultiHandle

    /// A resolver over `servers` (https URLs) using `transport`.
    public init(servers: [String], transport: TransportOptions) throws(CurlError) {
        self.servers = servers
        self.transport = transport
        multi = try MultiHandle()
    }

    public func resolve(_ host: String, port: Int) throws(CurlError) -> ResolverAnswer {
        var failures: [String] = []
        for server in servers {
            switch try ask(server, about: host) {
            case .answer(let addresses, let ttl, let label):
                return ResolverAnswer(host: host, addresses: addresses, ttl: ttl, source: .doh(server: label), skipped: failures)
            case .negative(let reason): throw ResolverFailure.couldNotResolve(host, reason)
            case .serverFailed(let reason): failures.append(reason)
            }
        }
        throw ResolverFailure.couldNotResolve(host, failures.joined(separator: "; "))
    }

    private enum Outcome {
        case answer([IPAddress], ttl: UInt32, server: String)
        case negative(String)
        case serverFailed(String)
    }

    private func ask(_ server: String, about host: String) throws(CurlError) -> Outcome {
        let label = (try? CurlURL(server, guessScheme: false).redacted) ?? "DoH server"
        var queries: [DoHQuery] = []
        for type in [DNSRecordType.a, .aaaa] {
            let id = UInt16.random(in: 0...UInt16.max)
            do { queries.append(DoHQuery(type: type, id: id, message: try DNSMessage.query(id: id, name: host, type: type))) }
            catch { return .negative(error.description) }
        }
        let handles = try queries.map { query throws(CurlError) in try makeHandle(server, query: query) }
        let transportErrors = try multi.perform(handles)

        var addresses: [IPAddress] = []
        var ttl = UInt32.max
        var negatives: [String] = []
        for (index, query) in queries.enumerated() {
            if query.overflowed { return .serverFailed("\(label): answer larger than \(Self.maximumBody) bytes") }
            if let error = transportErrors[index] { return .serverFailed("\(label): \(error.message)") }
            let handle = handles[index]
            let status = handle.info(long: CURLINFO_RESPONSE_CODE)
            guard status == 200 else { return .serverFailed("\(label): HTTP \(status)") }
            let type = handle.info(string: CURLINFO_CONTENT_TYPE) ?? "none"
            guard type.lowercased().hasPrefix("application/dns-message") else {
                return .serverFailed("\(label): content type \(type), not application/dns-message")
            }
            do {
                let answer = try DNSMessage.parseAnswer(query.body, id: query.id, name: host, type: query.type)
                addresses += answer.addresses
                if !answer.addresses.isEmpty { ttl = min(ttl, answer.ttl) }
            } catch .rcode(let code, let name) where code == 3 {
                negatives.append(DNSError.rcode(code, name).description)
            } catch {
                return .serverFailed("\(label): \(error.description)")
            }
        }
        guard !addresses.isEmpty else {
            return .negative(negatives.first ?? "\(label): no A or AAAA records")
        }
        return .answer(addresses, ttl: ttl, server: label)
    }

    private func makeHandle(_ server: String, query: DoHQuery) throws(CurlError) -> EasyHandle {
        let handle = try EasyHandle()
        try transport.apply(to: handle)
        try handle.set(CURLOPT_URL, server)
        try handle.set(CURLOPT_PROTOCOLS_STR, "https")
        try handle.set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        try handle.set(CURLOPT_PIPEWAIT, 1)  // A and AAAA share one TLS connection instead of two handshakes
        try handle.set(CURLOPT_HTTPHEADER, list: ["Content-Type: application/dns-message", "Accept: application/dns-message"])
        handle.requestBody = BytesBody(query.message)
        try handle.set(CURLOPT_POST, 1)
        try handle.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(query.message.count))
        handle.onBody = { chunk in
            guard query.body.count + chunk.count <= Self.maximumBody else {
                query.overflowed = true
                return false
            }
            query.body += chunk
            return true
        }
        return handle
    }
}

/// One in-flight DoH question and the answer bytes collected so far (bounded by ``DoHResolver/maximumBody``).
private final class DoHQuery {
    let type: DNSRecordType
    let id: UInt16
    let message: [UInt8]
    var body: [UInt8] = []
    var overflowed = false

    init(type: DNSRecordType, id: UInt16, message: [UInt8]) {
        self.type = type
        self.id = id
        self.message = message
    }
}
