/// Where an ``AliyunV2Discovery`` keeps service address lists between runs.
public protocol AliyunV2ServiceStore {
    /// The list stored under `key`, or `nil`; a file that cannot be trusted or read is reported through `problem`
    /// and treated as absent.
    func serviceList(key: String, problem: (String) -> Void) -> AliyunV2.ServiceList?
    /// Stores `list` under `key`; returns the one-line reason when it could not be written.
    func store(_ list: AliyunV2.ServiceList, key: String) -> String?
}

/// Service address lists live beside the answers, one file per key (`HASH.services`), under the same rules: this
/// user's files in this user's directory that nobody else may write, regular files only, written atomically under
/// the directory lock, a file that does not parse ignored. `ipcurl cache clear` removes them with the answers.
extension AnswerCache: AliyunV2ServiceStore {
    static let serviceListSuffix = ".services"

    public func serviceList(key: String, problem: (String) -> Void) -> AliyunV2.ServiceList? {
        let path = serviceListPath(key: key)
        do throws(CacheFileError) {
            guard try trustedDirectory(), let bytes = try Self.readFile(path) else { return nil }
            return try AliyunV2.ServiceList(record: bytes, key: key)
        } catch {
            problem("ignoring service address file \(path): \(error)")
            return nil
        }
    }

    public func store(_ list: AliyunV2.ServiceList, key: String) -> String? {
        do throws(CacheFileError) {
            try makeDirectory()
            try trustedDirectory()
            try locked(patienceMS: Self.lockPatienceMS) { () throws(CacheFileError) in
                try writeFile(list.record(key: key), to: serviceListPath(key: key))
            }
        } catch {
            return "service addresses not cached: \(error)"
        }
        return nil
    }

    func serviceListPath(key: String) -> String {
        directory + "/" + CacheKeyHash.hex("services " + key) + Self.serviceListSuffix
    }
}

extension AliyunV2.ServiceList {
    /// The first line of a service address file.
    static let magic = "ipcurl-aliyun-services 1"

    /// The file text: the magic line, then `key`, `scheme`, `boot`, `discovered` and `addresses` lines; the key is
    /// kept as its digest, so no account or URL is spelled out in the file.
    func record(key: String) -> String {
        [Self.magic, "key \(CacheKeyHash.hex(key))", "scheme \(scheme)", "boot \(boot)", "discovered \(discovered)",
         "addresses " + addresses.map(\.description).joined(separator: " ")].joined(separator: "\n") + "\n"
    }

    /// Parses a file ``record(key:)`` wrote for `key`; throws a one-line reason for anything else, so a truncated,
    /// foreign or edited file never names a server.
    init(record bytes: [UInt8], key: String) throws(CacheFileError) {
        guard bytes.count <= CacheRecord.maximumSize else { throw CacheFileError("larger than \(CacheRecord.maximumSize) bytes") }
        guard bytes.last == UInt8(ascii: "\n") else { throw CacheFileError("truncated (no final newline)") }
        let lines = bytes.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard lines.first == Self.magic else { throw CacheFileError("not an ipcurl service address file") }
        let keys = ["key", "scheme", "boot", "discovered", "addresses"]
        guard lines.count == keys.count + 1 else { throw CacheFileError("expected \(keys.count + 1) lines, found \(lines.count)") }
        var values: [String] = []
        for (name, line) in zip(keys, lines.dropFirst()) {
            guard line.hasPrefix(name + " ") else { throw CacheFileError("expected a '\(name)' line") }
            values.append(String(line.dropFirst(name.count + 1)))
        }
        guard values[0] == CacheKeyHash.hex(key) else { throw CacheFileError("holds another key") }
        guard values[1] == "https" || values[1] == "http" else { throw CacheFileError("bad scheme") }
        guard let discovered = Int64(values[3]), (0...CacheRecord.latestTime).contains(discovered) else {
            throw CacheFileError("bad time")
        }
        var addresses: [Address] = []
        for field in values[4].split(separator: " ") {
            guard let colon = field.lastIndex(of: ":"), let port = Int(field[field.index(after: colon)...]),
                  (1...65_535).contains(port) else { throw CacheFileError("bad address \(Printable.quoted(String(field.prefix(64))))") }
            var host = field[..<colon]
            if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
            guard let address = IPAddress(host), address.isUsable(), (address.family == .v6) == field.hasPrefix("[") else {
                throw CacheFileError("bad address \(Printable.quoted(String(field.prefix(64))))")
            }
            addresses.append(Address(address: address, port: port))
        }
        guard (1...Self.maximumAddresses).contains(addresses.count) else { throw CacheFileError("bad address count") }
        self.init(scheme: values[1], addresses: addresses, boot: values[2], discovered: discovered)
    }
}
