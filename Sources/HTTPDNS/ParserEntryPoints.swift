/// The vendor-answer parsers with no network around them, for the fuzz targets in `Fuzz/`: each takes the bytes a
/// server sent and returns what the resolver would make of them. Not part of the library's API.
@_spi(Fuzzing) public enum ParserEntryPoints {
    /// What a parser made of one answer: the host, its addresses and TTL, or the one-line reason it was refused.
    public enum Outcome: Sendable {
        /// A usable answer.
        case answer(host: String, addresses: [IPAddress], ttl: Int64)
        /// No usable answer (a failed server, no records or a definite error), with its reason.
        case refused(String)
    }

    /// A DoH JSON answer (HTTP 200, `application/dns-json`) to the question `host`/`type`.
    public static func dohJSON(_ body: [UInt8], host: String, type: DNSRecordType) -> Outcome {
        let response = HTTPDNSResponse(status: 200, contentType: "application/dns-json", body: body)
        switch DoHJSONResolver.records(response, host: host, type: type) {
        case .answer(let found): return .answer(host: host, addresses: found.addresses, ttl: found.ttl)
        case .definite(let reason), .noRecords(let reason), .serverFailed(let reason, _): return .refused(reason)
        }
    }

    /// Alibaba's single-host `d` answer with HTTP `status`, for `host`.
    public static func aliyunSingle(_ body: [UInt8], status: Int, host: String) -> Outcome {
        outcome(AliyunResolver.object(HTTPDNSResponse(status: status, body: body)).then { AliyunResolver.answer([$0], for: host) })
    }

    /// Alibaba's batch `resolve` answer (HTTP 200), one outcome per host of `hosts`, in order.
    public static func aliyunBatch(_ body: [UInt8], hosts: [String]) -> [Outcome] {
        switch AliyunResolver.object(HTTPDNSResponse(status: 200, body: body)).then(AliyunResolver.entriesByHost) {
        case .answer(let byHost):
            return hosts.map { host in
                guard let entries = byHost[host] else { return .refused("not in the batch answer") }
                return outcome(AliyunResolver.answer(entries, for: host))
            }
        case .definite(let reason), .noRecords(let reason), .serverFailed(let reason, _):
            return hosts.map { _ in .refused(reason) }
        }
    }

    /// Alibaba's v2 `/v2/d` answer with HTTP `status` to a query for `names` (1–5 valid names) and `families`, sent in
    /// `encryption`'s mode: one outcome per name, in order.
    public static func aliyunV2(_ body: [UInt8], status: Int, names: [String], families: AddressFamilies,
                                encryption: AliyunV2.Encryption) -> [Outcome] {
        guard let batch = AliyunV2.Names(names), batch.names.count == names.count,
              let api = try? AliyunV2(account: "100000", signingKey: nil, encryption: encryption) else {
            return names.map { _ in .refused("not a query") }
        }
        let query = AliyunV2.Query(names: batch, families: families, mode: encryption.mode, path: AliyunV2.path, signedText: nil)
        switch api.read(HTTPDNSResponse(status: status, body: body), for: query) {
        case .answers(let answers): return batch.names.map { outcome(answers.verdict(for: $0)) }
        case .refused(let error): return names.map { _ in .refused(error.description) }
        case .unusable(let reason, _): return names.map { _ in .refused(reason) }
        }
    }

    /// The plaintext of an encrypted v2 answer's `data` (Base64 `text` of IV, ciphertext and, for GCM, tag), opened in
    /// `encryption`'s mode with its key; `nil` when it is not Base64 or does not open.
    public static func aliyunV2Open(_ text: [UInt8], encryption: AliyunV2.Encryption) -> [UInt8]? {
        guard let sealed = Base64.decode(String(decoding: text, as: UTF8.self)) else { return nil }
        return try? encryption.open(sealed, mode: encryption.mode)
    }

    /// `plaintext` sealed in `encryption`'s mode under `iv`, as a server would send it before Base64.
    public static func aliyunV2Seal(_ plaintext: [UInt8], iv: [UInt8], encryption: AliyunV2.Encryption) -> [UInt8]? {
        try? encryption.seal(plaintext, iv: iv)
    }

    /// A `/ss` service discovery answer (HTTP 200) as a boot server over `scheme` sent it: the list, or `nil` and
    /// the reason it was refused.
    public static func aliyunServiceList(_ body: [UInt8], scheme: String) -> (AliyunV2.ServiceList?, String) {
        do throws(FieldError) {
            return (try AliyunV2.ServiceList(parsing: body, scheme: scheme, boot: "https://boot.test:443", discovered: 1), "")
        } catch {
            return (nil, error.reason)
        }
    }

    /// A stored service list file under `key`: the list, or `nil` and the reason it was refused.
    public static func aliyunServiceRecord(_ bytes: [UInt8], key: String) -> (AliyunV2.ServiceList?, String) {
        do throws(CacheFileError) { return (try AliyunV2.ServiceList(record: bytes, key: key), "") } catch { return (nil, error.description) }
    }

    /// The file text a list is stored as under `key`.
    public static func aliyunServiceRecordText(_ list: AliyunV2.ServiceList, key: String) -> String { list.record(key: key) }

    /// A DNSPod answer body (HTTP 200) for `host`: plain text, or hex decrypted with `cipher` when one is given.
    public static func dnspod(_ body: [UInt8], cipher: SymmetricCipher?, host: String) -> Outcome {
        let mode: DNSPodResolver.Mode = cipher.map { .encrypted(id: "1", cipher: $0) } ?? .plain
        switch DNSPodResolver.plaintext(body, mode: mode) {
        case .success(let text): return outcome(DNSPodResolver.answer(text, for: host))
        case .failure(let error): return .refused(error.reason)
        }
    }

    /// The addresses a resolver command's `output` gives for `host` (normalized) and `port`, or why it gives none.
    public static func resolverCommandOutput(_ output: [UInt8], host: String, port: Int) -> Result<[IPAddress], CommandOutputError> {
        do { return .success(try CommandResolver.addresses(in: output, host: host, port: port)) } catch {
            return .failure(CommandOutputError(reason: error.reason))
        }
    }

    /// Why a resolver command's output is not an answer.
    public struct CommandOutputError: Error, Sendable {
        /// The one-line reason.
        public let reason: String
    }

    private static func outcome(_ verdict: HTTPDNSClient.Verdict<ParsedAnswer>) -> Outcome {
        switch verdict {
        case .answer(let parsed): .answer(host: parsed.host, addresses: parsed.addresses, ttl: parsed.ttl)
        case .definite(let reason), .noRecords(let reason), .serverFailed(let reason, _): .refused(reason)
        }
    }
}
