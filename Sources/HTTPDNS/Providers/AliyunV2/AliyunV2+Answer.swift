extension AliyunV2 {
    /// What one server's response to a query says.
    /// - SeeAlso: "域名解析接口" §6 (response and error codes); the Android SDK
    ///   `resolve/ResolveHostResponseParser.java`.
    public enum Reply: Sendable {
        /// `{"code":"success",…}`: the answers, checked.
        case answers(Answers)
        /// `{"code":"…"}`: the vendor refused the query; ``ServerError/isFinal`` says whether another server may be
        /// asked.
        case refused(ServerError)
        /// Nothing usable (an HTTP error without a code, malformed JSON, a field of the wrong type, an address that
        /// does not parse, data that does not decrypt): why, and how far the server got. Another server may do
        /// better.
        case unusable(String, phase: ResolutionError.Phase)
    }

    /// The checked answers of one response.
    /// - SeeAlso: "域名解析接口" §6.1 (`data.cip`, `data.answers`); the Android SDK
    ///   `resolve/ResolveHostResponse.java`.
    public struct Answers: Sendable, Equatable {
        /// The client address the server answered for (`cip`, inside `data` or beside it), when it said.
        public let clientIP: IPAddress?
        /// One entry per name the server answered, each a name that was asked, in the server's order.
        public let names: [NameAnswer]

        /// The answer for `name`, `nil` when the server said nothing about it.
        public func answer(for name: String) -> NameAnswer? {
            guard let normalized = HostName.normalized(name) else { return nil }
            return names.first { $0.name == normalized }
        }

        /// `name`'s addresses of the asked families with the least TTL among them; `noRecords` when it has none (each
        /// family's `no_ip_code` in the reason) or when the server did not answer for it.
        func verdict(for name: String) -> HTTPDNSClient.Verdict<ParsedAnswer> {
            guard let found = answer(for: name) else { return .noRecords("not in the answer") }
            var addresses: [IPAddress] = [], ttl: Int64?, missing: [String] = []
            for (label, family) in [("IPv4", found.v4), ("IPv6", found.v6)] {
                switch family {
                case nil: continue
                case .addresses(let list, let seconds)?:
                    addresses += list
                    ttl = min(ttl ?? seconds, seconds)
                case .noAddress(let code)?:
                    missing.append("no \(label) address" + (code.map { " (\(Printable.quoted($0)))" } ?? ""))
                }
            }
            guard let ttl else { return .noRecords(missing.joined(separator: ", ")) }
            return .answer(ParsedAnswer(host: found.name, addresses: addresses, ttl: ttl))
        }
    }

    /// One name's answer: each family asked for, `nil` for a family that was not.
    /// - SeeAlso: "域名解析接口" §6.1 (`dn`, `v4`, `v6`).
    public struct NameAnswer: Sendable, Equatable {
        /// The name, normalized.
        public let name: String
        /// The IPv4 answer (`v4`), when IPv4 was asked for.
        public let v4: FamilyAnswer?
        /// The IPv6 answer (`v6`), when IPv6 was asked for.
        public let v6: FamilyAnswer?
    }

    /// What the server said about one family of one name.
    /// - SeeAlso: "域名解析接口" §6.1 (`ips`, `ttl`, `no_ip_code`); the iOS SDK `HttpdnsRemoteResolver.m` (an empty
    ///   `ips` or a `no_ip_code` is "no record").
    public enum FamilyAnswer: Sendable, Equatable {
        /// Addresses, each parsed and of the family, valid for `ttl` seconds (a TTL that is missing, zero or negative
        /// is ``AliyunV2/defaultTTL``).
        case addresses([IPAddress], ttl: Int64)
        /// No address of this family: the server gave a `no_ip_code` (e.g. `RRNotExist`, `DomainNotExist`), an
        /// empty `ips`, or no block for the family at all. An answer, not a fault: the fallback rule applies.
        case noAddress(code: String?)
    }

    /// The TTL of a family whose `ttl` is missing, zero or negative, as the Android SDK does
    /// (`resolve/ResolveHostResponse.java`). The iOS SDK keeps such an answer for no time at all (and one without a
    /// `ttl` too); sixty seconds keeps one lookup per minute instead of one per use.
    public static let defaultTTL: Int64 = 60

    /// The answer of `response` to `query`. The body is read as strict JSON (one object, no duplicate members, at
    /// most ``HTTPDNSClient/maximumBody`` bytes); a 200 must say `"code":"success"` and carry `data`, in the mode of
    /// the query or a stronger one (GCM answering CBC), never weaker: a clear or CBC answer to a GCM query is refused,
    /// since it would give up what the query's mode promised.
    public func read(_ response: HTTPDNSResponse, for query: Query) -> Reply {
        guard response.body.count <= HTTPDNSClient.maximumBody else {
            return .unusable("the answer is larger than 64 KiB", phase: .http)
        }
        let parsed = Result { () throws(JSONError) in try JSONValue.parse(response.body) }
        guard case .success(let object) = parsed, case .object = object else {
            if response.status != 200 { return .unusable("HTTP \(response.status)", phase: .http) }
            if case .failure(let error) = parsed { return .unusable(error.description, phase: .answer) }
            return .unusable("the answer is not a JSON object", phase: .answer)
        }
        guard case .string(let code)? = object["code"] else {
            return .unusable(response.status == 200 ? "no \"code\" in the answer" : "HTTP \(response.status)",
                             phase: response.status == 200 ? .answer : .http)
        }
        guard code == "success" else { return .refused(ServerError(code: Code(code), status: response.status)) }
        guard response.status == 200 else { return .unusable("HTTP \(response.status)", phase: .http) }
        do { return .answers(try answers(in: object, for: query)) } catch { return .unusable(error.reason, phase: .answer) }
    }

    private func answers(in object: JSONValue, for query: Query) throws(FieldError) -> Answers {
        let mode = try Self.mode(of: object["mode"])
        guard mode == query.mode || (query.mode == .cbc && mode == .gcm) else {
            throw FieldError("the answer is in mode \(mode.rawValue), the query in mode \(query.mode.rawValue)")
        }
        guard let data = object["data"], data != .null else { throw FieldError("no \"data\" in the answer") }
        let content = try contents(of: data, mode: mode)
        let clientIP = try Self.clientIP(content["cip"] ?? object["cip"])
        var names: [NameAnswer] = []
        for entry in try Self.members(content, "answers") {
            let name = try Self.name(of: entry, asked: query.names)
            guard !names.contains(where: { $0.name == name }) else { throw FieldError("\(name) is answered twice") }
            let wants = query.families.families
            names.append(NameAnswer(name: name,
                                    v4: wants.contains(.v4) ? try Self.family(entry, "v4", .v4) : nil,
                                    v6: wants.contains(.v6) ? try Self.family(entry, "v6", .v6) : nil))
        }
        return Answers(clientIP: clientIP, names: names)
    }

    /// The `data` object: as it is in plain mode; Base64 of the sealed JSON object when encrypted.
    private func contents(of data: JSONValue, mode: Mode) throws(FieldError) -> JSONValue {
        guard mode != .plain else {
            guard case .object = data else { throw FieldError("\"data\" is \(Self.article(data)), not an object") }
            return data
        }
        guard case .string(let text) = data else { throw FieldError("\"data\" is \(Self.article(data)), not Base64 text") }
        guard let sealed = Base64.decode(text) else { throw FieldError("\"data\" is not Base64") }
        let plaintext: [UInt8]
        do { plaintext = try encryption.open(sealed, mode: mode) } catch { throw FieldError(error.message) }
        let content: JSONValue
        do { content = try JSONValue.parse(plaintext) } catch { throw FieldError("the decrypted \"data\" is \(error.description)") }
        guard case .object = content else { throw FieldError("the decrypted \"data\" is \(Self.article(content)), not an object") }
        return content
    }

    /// `mode` as a number or a numeric string; absent is plain.
    private static func mode(of value: JSONValue?) throws(FieldError) -> Mode {
        let number: Int64? = switch value {
        case nil, .null?: 0
        case .integer(let number)?: number
        case .string(let text)? where text.utf8.count == 1: Int64(text)
        default: nil
        }
        guard let number, let mode = Mode(rawValue: Int(number)) else { throw FieldError("\"mode\" is not 0, 1 or 2") }
        return mode
    }

    private static func clientIP(_ value: JSONValue?) throws(FieldError) -> IPAddress? {
        guard let value, value != .null else { return nil }
        guard case .string(let text) = value else { throw FieldError("\"cip\" is \(article(value)), not an address string") }
        guard let address = IPAddress(text) else { throw FieldError("\(Printable.quoted(text.prefix(64))) is not an IP address") }
        return address
    }

    /// The elements of the optional array `key` of `object`, each an object.
    private static func members(_ object: JSONValue, _ key: String) throws(FieldError) -> [JSONValue] {
        guard let value = object[key], value != .null else { return [] }
        guard case .array(let items) = value else { throw FieldError("\"\(key)\" is \(article(value)), not an array") }
        for item in items {
            guard case .object = item else { throw FieldError("an entry of \"\(key)\" is \(article(item)), not an object") }
        }
        return items
    }

    /// The entry's `dn`, normalized, which must be one of the names asked.
    private static func name(of entry: JSONValue, asked: Names) throws(FieldError) -> String {
        guard case .string(let text)? = entry["dn"] else { throw FieldError("an answer has no \"dn\" string") }
        guard let name = HostName.normalized(text), asked.names.contains(name) else {
            throw FieldError("an answer for \(Printable.quoted(text.prefix(64))), which was not asked")
        }
        return name
    }

    /// The family block `key` of an answer: every address in `ips` must be one of `family`; a `no_ip_code` makes it
    /// "no address" whatever `ips` holds.
    private static func family(_ entry: JSONValue, _ key: String, _ family: IPAddress.Family) throws(FieldError) -> FamilyAnswer {
        guard let block = entry[key], block != .null else { return .noAddress(code: nil) }
        guard case .object = block else { throw FieldError("\"\(key)\" is \(article(block)), not an object") }
        let addresses = try AnswerFields.addresses(block, "ips", family: family).get()
        var ttl = defaultTTL
        if let value = block["ttl"], value != .null {
            let seconds = try AnswerFields.integer(block, "ttl").get()
            if seconds > 0 { ttl = seconds }
        }
        if let value = block["no_ip_code"], value != .null {
            guard case .string(let code) = value else { throw FieldError("\"no_ip_code\" is \(article(value)), not a string") }
            if !code.isEmpty { return .noAddress(code: String(code.prefix(64))) }
        }
        return addresses.isEmpty ? .noAddress(code: nil) : .addresses(addresses, ttl: ttl)
    }

    /// `a string`, `an array`, … for messages.
    static func article(_ value: JSONValue) -> String {
        let name = value.typeName
        return (name.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + name
    }
}
