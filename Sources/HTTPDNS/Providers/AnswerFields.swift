/// Strict readers for the fields of vendor JSON answers: each one either returns a checked value or the
/// one-line reason the answer is rejected.
enum AnswerFields {
    /// A required integer member, e.g. `ttl`; negative or huge values are clamped later, wrong types rejected.
    static func integer(_ object: JSONValue, _ key: String) -> Result<Int64, FieldError> {
        guard let value = object[key] else { return .failure(FieldError("no \"\(key)\"")) }
        guard case .integer(let number) = value else {
            return .failure(FieldError("\"\(key)\" is a \(value.typeName), not an integer"))
        }
        return .success(number)
    }

    /// An optional array of address strings; every one must parse as an address of `family`.
    static func addresses(_ object: JSONValue, _ key: String, family: IPAddress.Family) -> Result<[IPAddress], FieldError> {
        guard let value = object[key], value != .null else { return .success([]) }
        guard case .array(let items) = value else {
            return .failure(FieldError("\"\(key)\" is a \(value.typeName), not an array"))
        }
        var addresses: [IPAddress] = []
        for item in items {
            guard case .string(let text) = item else {
                return .failure(FieldError("\"\(key)\" holds a \(item.typeName), not an address string"))
            }
            switch address(text, family: family) {
            case .success(let address): addresses.append(address)
            case .failure(let error): return .failure(error)
            }
        }
        return .success(addresses)
    }

    /// How a vendor's error code reaches a message, Alibaba's v1 and v2 alike: `'InvalidAccount' (HTTP 403)`, the code
    /// quoted with control characters escaped and cut to 64 characters.
    static func vendorCode(_ code: some StringProtocol, status: Int) -> String {
        "\(Printable.quoted(code.prefix(64))) (HTTP \(status))"
    }

    /// One address of `family`, or why `text` is not one (quoted with control characters escaped).
    static func address(_ text: some StringProtocol, family: IPAddress.Family) -> Result<IPAddress, FieldError> {
        guard let address = IPAddress(text) else {
            return .failure(FieldError("\(Printable.quoted(text.prefix(64))) is not an IP address"))
        }
        guard address.family == family else {
            return .failure(FieldError("\(address) is not an IPv\(family == .v4 ? 4 : 6) address"))
        }
        return .success(address)
    }
}

/// Why an answer field was rejected.
struct FieldError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// A provider's checked answer before its source is attached.
struct ParsedAnswer {
    let host: String
    let addresses: [IPAddress]
    let ttl: Int64
    var originTTL: Int64?

    func answer(source: AnswerSource, trail: [String]) -> ResolverAnswer {
        ResolverAnswer(host: host, addresses: addresses, ttl: ResolverAnswer.clampedTTL(ttl),
                       originTTL: originTTL.map(ResolverAnswer.clampedTTL), source: source, trail: trail)
    }
}
