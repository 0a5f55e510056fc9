/// Tencent DNSPod HTTPDNS: `GET /d?dn=H&ttl=1&type=addrs`, answered as `v4;v4,ttl-v6;v6,ttl`,
/// where a side without records is `0` and "no record at all" is an empty body or `0`.
///
/// Three modes, as DNSPod documents them: plain; encrypted (`dn` and `ip` encrypted with the account's AES or
/// DES key and sent with `id`, the answer decrypted the same way); and the HTTPS token mode.
/// - SeeAlso: `CURLOPT_RESOLVE`; DNSPod HTTPDNS "HTTP/HTTPS query" and "AES/DES encryption" API pages.
public struct DNSPodResolver: Resolver {
    /// How requests are authenticated.
    public enum Mode: Sendable {
        /// No credentials (the free service).
        case plain
        /// `dn`/`ip` encrypted with the account key, `id=ID`, answer encrypted.
        case encrypted(id: String, cipher: SymmetricCipher)
        /// HTTPS with `token=TOKEN`.
        case token(String)

        /// DNSPod's documented service address for this mode.
        public var defaultServers: [String] {
            switch self {
            case .plain: ["http://119.29.29.29"]
            case .encrypted: ["http://119.29.29.98"]
            case .token: ["https://119.29.29.99"]
            }
        }
    }

    private let mode: Mode
    private let clientIP: IPAddress?
    private let client: HTTPDNSClient

    /// A resolver in `mode`, sending `clientIP` as the ECS `ip` parameter when given. The token mode refuses a
    /// client with a plain-http server (``ResolutionError/Setting/vendorServer``): the token would travel in clear.
    public init(mode: Mode, clientIP: IPAddress?, client: HTTPDNSClient) throws(ResolutionError) {
        if case .token = mode {
            for server in client.servers { try server.refusingPlainHTTP(carrying: "the DNSPod token", setting: .vendorServer) }
        }
        self.mode = mode
        self.clientIP = clientIP
        self.client = client
    }

    public func resolve(_ host: String, port: Int, within budget: LookupBudget) throws(ResolutionError) -> ResolverAnswer {
        let path = try path(for: host)
        let reply = try client.ask([HTTPDNSClient.Request(path: path)], about: host, within: budget) {
            (responses) -> HTTPDNSClient.Verdict<ParsedAnswer> in
            let response = responses[0]
            guard response.status == 200 else { return .definite("HTTP \(response.status)") }
            switch Self.plaintext(response.body, mode: mode) {
            case .success(let text): return Self.answer(text, for: host)
            case .failure(let error): return .serverFailed(error.reason)
            }
        }
        return reply.value.answer(source: .provider(.dnspod, server: reply.server), trail: reply.trail)
    }

    /// `/d?dn=…&ttl=1&type=addrs` with the mode's parameters.
    func path(for host: String) throws(ResolutionError) -> String {
        var query: String
        switch mode {
        case .plain, .token:
            query = "dn=\(host)"
            if let clientIP { query += "&ip=\(clientIP)" }
        case .encrypted(let id, let cipher):
            do throws(CipherError) {
                query = "dn=\(Hex.encode(try cipher.encrypt(Array(host.utf8))))&id=\(id)"
                if cipher.algorithm == .aes { query += "&alg=aes" }
                if let clientIP { query += "&ip=\(Hex.encode(try cipher.encrypt(Array(clientIP.description.utf8))))" }
            } catch {
                throw .configuration(.dnspodKey, "cannot encrypt the query: \(error.message)")
            }
        }
        if case .token(let token) = mode { query += "&token=\(token)" }
        return "/d?\(query)&ttl=1&type=addrs"
    }

    /// The answer text: the body itself, or the hex body decrypted in encrypted `mode`.
    static func plaintext(_ body: [UInt8], mode: Mode) -> Result<String, FieldError> {
        guard case .encrypted(_, let cipher) = mode, !body.isEmpty else { return .success(String(decoding: body, as: UTF8.self)) }
        let text = String(decoding: body, as: UTF8.self)
        let trimmed = text.hasSuffix("\n") ? text.dropLast() : Substring(text)
        guard let bytes = Hex.decode(trimmed) else { return .failure(FieldError("the encrypted answer is not hex")) }
        do { return .success(String(decoding: try cipher.decrypt(bytes), as: UTF8.self)) } catch {
            return .failure(FieldError(error.message))
        }
    }

    /// Parses `v4s,ttl-v6s,ttl` (either side `0`), a bare `v4s,ttl`, or "no record" (empty or `0`).
    /// The `-` between the sides is found after the first side's TTL, so a negative TTL (`,-5`) still parses.
    static func answer(_ text: String, for host: String) -> HTTPDNSClient.Verdict<ParsedAnswer> {
        var body = Substring(text)
        if body.hasSuffix("\r\n") { body = body.dropLast(2) } else if body.hasSuffix("\n") { body = body.dropLast() }
        var addresses: [IPAddress] = []
        var ttl: Int64?
        var rest = body
        for family in [IPAddress.Family.v4, .v6] where !rest.isEmpty {
            let side: Substring
            if rest.hasPrefix("0"), rest.dropFirst().isEmpty || rest.dropFirst().hasPrefix("-") {
                rest = rest.dropFirst()
            } else {
                guard let comma = rest.firstIndex(of: ",") else {
                    return .serverFailed("\(Printable.quoted(rest.prefix(64))) is not ADDRESSES,TTL")
                }
                var end = rest.index(after: comma)
                if end < rest.endIndex, rest[end] == "-" { end = rest.index(after: end) }
                while end < rest.endIndex, rest[end].isASCII, rest[end].isNumber { end = rest.index(after: end) }
                guard let seconds = Int64(rest[rest.index(after: comma)..<end]) else {
                    return .serverFailed("TTL \(Printable.quoted(rest[comma...].dropFirst().prefix(16))) is not an integer")
                }
                side = rest[..<comma]
                rest = rest[end...]
                for text in side.split(separator: ";", omittingEmptySubsequences: false) {
                    switch AnswerFields.address(text, family: family) {
                    case .success(let address): addresses.append(address)
                    case .failure(let error): return .serverFailed(error.reason)
                    }
                }
                ttl = min(ttl ?? seconds, seconds)
            }
            if family == .v4, rest.hasPrefix("-") { rest = rest.dropFirst() } else if !rest.isEmpty {
                return .serverFailed("unexpected \(Printable.quoted(rest.prefix(64))) after the addresses")
            }
        }
        guard let ttl, !addresses.isEmpty else { return .noRecords("no A or AAAA records (empty answer)") }
        return .answer(ParsedAnswer(host: host, addresses: addresses, ttl: ttl))
    }
}

extension ProviderKind {
    /// ``DNSPodResolver``.
    public static let dnspod = ProviderKind("dnspod")
}
