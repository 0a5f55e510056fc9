/// One cached answer for one provider, host and address family, and its on-disk text form.
///
/// The file is a few `key value` lines under a version line. Parsing is strict: any missing, extra or malformed
/// line, an address of the wrong family or a record for another key makes the whole file "corrupt", so a
/// truncated or foreign file is ignored rather than trusted, and its addresses never reach `CURLOPT_RESOLVE`
/// without passing ``IPAddress`` validation again. A file of the first format (``firstFormatMagic``), which did
/// not say whether the answer was fetched with `-k` or stored by `ipcurl resolve`, is refused the same way: nothing
/// stands behind it, and the next answer replaces it.
public struct CacheRecord: Sendable, Equatable {
    /// The first line of every cache file.
    static let magic = "ipcurl-dns-cache 2"
    /// The first line of the first format, without the `insecure` and `unverified` lines.
    static let firstFormatMagic = "ipcurl-dns-cache 1"
    /// Files larger than this are not cache files.
    static let maximumSize = 4096
    /// The latest store time a file may claim (2^40 s, about the year 36800), so no expiry arithmetic overflows.
    static let latestTime: Int64 = 1 << 40

    /// The host name, normalized.
    public let host: String
    /// The address family this record covers.
    public let family: IPAddress.Family
    /// A digest of the provider's configuration (kind, account, servers, client IP); never a secret.
    public let provider: String
    /// The provider's short name (`aliyun`, `doh`, ...), for `ipcurl cache list`.
    public let sourceName: String
    /// The provider and server that answered, as `-v` shows it.
    public let origin: String
    /// Addresses of ``family``; empty when the provider said the host has none of this family.
    public let addresses: [IPAddress]
    /// Seconds the record may be used after ``stored``.
    public let ttl: UInt32
    /// Unix time the answer arrived.
    public let stored: Int64
    /// Fetched with `-k`: neither the HTTPDNS exchange nor the connections of the run that stored it were verified.
    public let insecure: Bool
    /// Stored by a run that connects nowhere (`ipcurl resolve`): no connection has tried these addresses, so the
    /// record is never served stale.
    public let unverified: Bool

    /// Unix time after which the record is stale.
    public var expires: Int64 { stored + Int64(ttl) }

    /// A record; `origin` loses any control characters so it stays one line.
    public init(host: String, family: IPAddress.Family, provider: String, sourceName: String, origin: String,
                addresses: [IPAddress], ttl: UInt32, stored: Int64, insecure: Bool = false, unverified: Bool = false) {
        self.host = host
        self.family = family
        self.provider = provider
        self.sourceName = sourceName
        self.origin = String(origin.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "?" : Character($0) })
        self.addresses = addresses.filter { $0.family == family }
        self.ttl = min(ttl, ResolverAnswer.maximumTTL)
        self.stored = stored
        self.insecure = insecure
        self.unverified = unverified
    }

    /// The file text.
    public var text: String {
        [Self.magic, "host \(host)", "family \(family.cacheName)", "provider \(provider)", "source \(sourceName)",
         "origin \(origin)", "insecure \(Self.word(insecure))", "unverified \(Self.word(unverified))", "ttl \(ttl)",
         "stored \(stored)",
         "addresses " + addresses.map(\.description).joined(separator: " ")].joined(separator: "\n") + "\n"
    }

    /// Parses a cache file; throws a one-line reason when it is not exactly what ``text`` writes.
    public init(parsing bytes: [UInt8]) throws(CacheFileError) {
        guard bytes.count <= Self.maximumSize else { throw CacheFileError("larger than \(Self.maximumSize) bytes") }
        guard bytes.last == UInt8(ascii: "\n") else { throw CacheFileError("truncated (no final newline)") }
        let lines = bytes.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard lines.first == Self.magic else {
            if lines.first == Self.firstFormatMagic { throw CacheFileError("written in the first format (\(Self.firstFormatMagic))") }
            throw CacheFileError("not an ipcurl cache file")
        }
        let keys = ["host", "family", "provider", "source", "origin", "insecure", "unverified", "ttl", "stored", "addresses"]
        guard lines.count == keys.count + 1 else { throw CacheFileError("expected \(keys.count + 1) lines, found \(lines.count)") }
        // The values in the order of `keys` (an array: a dictionary's hashed storage costs start-up a
        // protocol-conformance scan of the runtime, and the order is fixed anyway).
        var values: [String] = []
        for (key, line) in zip(keys, lines.dropFirst()) {
            guard line == key || line.hasPrefix(key + " ") else { throw CacheFileError("expected a '\(key)' line") }
            values.append(String(line.dropFirst(min(line.count, key.count + 1))))
        }
        let (hostValue, familyValue, provider, sourceName, origin) = (values[0], values[1], values[2], values[3], values[4])
        let (insecureValue, unverifiedValue, ttlValue, storedValue, addressList) = (values[5], values[6], values[7], values[8], values[9])
        guard let host = HostName.normalized(hostValue), host == hostValue else {
            throw CacheFileError("bad host")
        }
        guard let family = IPAddress.Family(cacheName: familyValue) else { throw CacheFileError("bad family") }
        guard provider.utf8.count == 32, Hex.decode(provider) != nil else { throw CacheFileError("bad provider digest") }
        guard ProviderKind(rawValue: sourceName)?.isCacheable == true else { throw CacheFileError("bad source") }
        guard let insecure = Self.flag(insecureValue) else { throw CacheFileError("bad insecure") }
        guard let unverified = Self.flag(unverifiedValue) else { throw CacheFileError("bad unverified") }
        guard let ttl = UInt32(ttlValue), ttl <= ResolverAnswer.maximumTTL else {
            throw CacheFileError("bad ttl")
        }
        guard let stored = Int64(storedValue), (0...Self.latestTime).contains(stored) else {
            throw CacheFileError("bad time")
        }
        var addresses: [IPAddress] = []
        for field in addressList.split(separator: " ", omittingEmptySubsequences: false) where !field.isEmpty {
            guard let address = IPAddress(field), address.family == family else {
                throw CacheFileError("bad address \(Printable.quoted(String(field.prefix(64))))")
            }
            addresses.append(address)
        }
        self.init(host: host, family: family, provider: provider, sourceName: sourceName, origin: origin,
                  addresses: addresses, ttl: ttl, stored: stored, insecure: insecure, unverified: unverified)
    }

    private static func word(_ flag: Bool) -> String { flag ? "yes" : "no" }

    private static func flag(_ word: String) -> Bool? {
        switch word {
        case "yes": true
        case "no": false
        default: nil
        }
    }
}

/// Why a cache file was not used: one line, for `-v` and `ipcurl cache list`.
public struct CacheFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The reason.
    public let description: String

    /// A reason.
    public init(_ description: String) { self.description = description }
}

extension IPAddress.Family {
    /// `v4` or `v6`, as cache files and `ipcurl cache list` spell it.
    public var cacheName: String { self == .v4 ? "v4" : "v6" }

    init?(cacheName: String) {
        switch cacheName {
        case "v4": self = .v4
        case "v6": self = .v6
        default: return nil
        }
    }
}
