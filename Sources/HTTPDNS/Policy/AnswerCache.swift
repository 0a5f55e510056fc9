#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ipcurl's persistent answer cache: one small file per provider, host and address family in one directory.
///
/// - Writes go to a temporary file that is renamed over the entry, so a reader sees the old record or the new
///   one, never half of one.
/// - Writers (and `clear`) hold an exclusive `flock` on `DIR/.lock`, so many ipcurl processes can share the
///   directory.
/// - A file that does not parse, or that another user or group could have written, is reported and treated as
///   absent; the next answer rewrites it.
/// - SeeAlso: `rename(2)`, `flock(2)`.
public struct AnswerCache: Sendable {
    /// The cache directory (created with mode 0700 on first write).
    public let directory: String

    /// A cache in `directory`.
    public init(directory: String) { self.directory = directory }

    /// `$IPCURL_CACHE_DIR`, else `$XDG_CACHE_HOME/ipcurl`, else `$HOME/.cache/ipcurl`; `nil` when none is set.
    public static func defaultDirectory(cacheDir: String?, xdgCacheHome: String?, home: String?) -> String? {
        if let cacheDir, !cacheDir.isEmpty { return cacheDir }
        if let xdgCacheHome, xdgCacheHome.hasPrefix("/") { return xdgCacheHome + "/ipcurl" }
        if let home, !home.isEmpty { return home + "/.cache/ipcurl" }
        return nil
    }

    /// The provider digest stored in records for a provider configuration string.
    public static func providerDigest(_ configuration: String) -> String { CacheKeyHash.hex(configuration) }

    /// The record for `host` from `provider` (a digest) for each of `families`, in order, `nil` where there is
    /// none; a corrupt or foreign file, or an untrusted directory, is reported through `problem` and treated as
    /// absent.
    public func records(provider: String, host: String, families: [IPAddress.Family],
                        problem: (String) -> Void) -> [CacheRecord?] {
        let none = [CacheRecord?](repeating: nil, count: families.count)
        do throws(CacheFileError) {
            guard try trustedDirectory() else { return none }
        } catch {
            problem(error.description)
            return none
        }
        return families.map { record(provider: provider, host: host, family: $0, problem: problem) }
    }

    /// ``records(provider:host:families:problem:)`` for one family, once the directory is known to be trusted.
    func record(provider: String, host: String, family: IPAddress.Family, problem: (String) -> Void) -> CacheRecord? {
        let path = self.path(provider: provider, host: host, family: family)
        do throws(CacheFileError) {
            guard let bytes = try Self.readFile(path) else { return nil }
            let record = try CacheRecord(parsing: bytes)
            guard record.provider == provider, record.host == host, record.family == family else {
                throw CacheFileError("holds another key (\(record.host) \(record.family.cacheName))")
            }
            return record
        } catch {
            problem("ignoring cache file \(path): \(error)")
            return nil
        }
    }

    /// ``store(_:)``, reporting a failure as the `-v` line to print instead of throwing it.
    public func store(reporting records: [CacheRecord]) -> String? {
        guard !records.isEmpty else { return nil }
        do { try store(records) } catch { return "cache not written: \(error)" }
        return nil
    }

    /// Writes `records` atomically under the directory lock; throws a one-line reason on failure.
    public func store(_ records: [CacheRecord]) throws(CacheFileError) {
        try makeDirectory()
        try trustedDirectory()
        try locked(waiting: false) { () throws(CacheFileError) in
            for record in records {
                try writeFile(record.text, to: path(provider: record.provider, host: record.host, family: record.family))
            }
        }
    }

    /// Every readable record, and one line per file that is not (`ignoring cache file PATH: REASON`), sorted by
    /// host and family.
    public func list() -> (records: [CacheRecord], problems: [String]) {
        var records: [CacheRecord] = [], problems: [String] = []
        do { try trustedDirectory() } catch { return ([], [error.description]) }
        for name in entryNames() {
            let path = directory + "/" + name
            do throws(CacheFileError) {
                guard let bytes = try Self.readFile(path) else { continue }
                let record = try CacheRecord(parsing: bytes)
                guard path == self.path(provider: record.provider, host: record.host, family: record.family) else {
                    throw CacheFileError("name does not match its key")
                }
                records.append(record)
            } catch {
                problems.append("ignoring cache file \(path): \(error)")
            }
        }
        records.sort { ($0.host, $0.family.cacheName, $0.origin) < ($1.host, $1.family.cacheName, $1.origin) }
        return (records, problems)
    }

    /// Removes every entry (and any temporary file a killed process left) under the lock; returns how many
    /// entries were removed.
    public func clear() throws(CacheFileError) -> Int {
        guard access(directory, F_OK) == 0 else { return 0 }
        var removed = 0
        try locked(waiting: true) { () throws(CacheFileError) in
            for name in entryNames(includingTemporary: true) {
                guard unlink(directory + "/" + name) == 0 || errno == ENOENT else {
                    throw CacheFileError("cannot remove \(directory)/\(name): \(Self.reason())")
                }
                if name.hasSuffix(Self.suffix) { removed += 1 }
            }
        }
        return removed
    }

    // MARK: Files

    private static let suffix = ".entry"
    private static let temporaryPrefix = ".tmp."

    func path(provider: String, host: String, family: IPAddress.Family) -> String {
        directory + "/" + CacheKeyHash.hex("\(provider) \(host) \(family.cacheName)") + Self.suffix
    }

    private func entryNames(includingTemporary: Bool = false) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(Self.suffix) || (includingTemporary && name.hasPrefix(Self.temporaryPrefix)) { names.append(name) }
        }
        return names.sorted()
    }

    /// The file's bytes (at most one byte over the size limit), or `nil` when it does not exist.
    ///
    /// Addresses from a file someone else could have written are not trusted (plain http:// has no certificate to
    /// catch a planted entry), and only a regular file is read: a FIFO or device planted under an entry's name
    /// must not hang or feed ipcurl.
    private static func readFile(_ path: String) throws(CacheFileError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw CacheFileError("cannot open: \(reason())")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw CacheFileError("cannot stat: \(reason())") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw CacheFileError("not a regular file") }
        try trusted(info)
        var bytes = [UInt8](repeating: 0, count: CacheRecord.maximumSize + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw CacheFileError("cannot read: \(reason())") }
            if got == 0 { break }
            count += got
        }
        return Array(bytes[..<count])
    }

    /// Throws unless `info` belongs to this user and nobody else may write it.
    private static func trusted(_ info: stat) throws(CacheFileError) {
        guard info.st_uid == geteuid() else { throw CacheFileError("owned by uid \(info.st_uid), not by this user") }
        guard info.st_mode & 0o022 == 0 else { throw CacheFileError("writable by group or others") }
    }

    /// Throws unless the directory exists, is this user's, and nobody else may write to it; `false` when it
    /// does not exist yet.
    @discardableResult
    private func trustedDirectory() throws(CacheFileError) -> Bool {
        var info = stat()
        guard stat(directory, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return false }
            throw CacheFileError("cannot use cache directory \(directory): \(Self.reason())")
        }
        do throws(CacheFileError) {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw CacheFileError("not a directory") }
            try Self.trusted(info)
        } catch {
            throw CacheFileError("cache directory \(directory) not used: \(error)")
        }
        return true
    }

    private func writeFile(_ text: String, to path: String) throws(CacheFileError) {
        let temporary = directory + "/" + Self.temporaryPrefix + "\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw CacheFileError("cannot create \(temporary): \(Self.reason())") }
        let bytes = Array(text.utf8)
        var offset = 0, failure: String?
        while offset < bytes.count, failure == nil {
            let wrote = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if wrote < 0, errno == EINTR { continue }
            if wrote <= 0 { failure = wrote < 0 ? Self.reason() : "short write" } else { offset += wrote }
        }
        if close(descriptor) != 0, failure == nil { failure = Self.reason() }
        if failure == nil, rename(temporary, path) != 0 { failure = Self.reason() }
        if let failure {
            unlink(temporary)
            throw CacheFileError("cannot write \(path): \(failure)")
        }
    }

    /// Runs `body` holding the directory's exclusive lock. Without `waiting`, a lock that stays busy for
    /// ``lockPatienceMS`` (a stopped ipcurl holding it) makes this throw instead of stalling the request.
    private func locked(waiting: Bool, _ body: () throws(CacheFileError) -> Void) throws(CacheFileError) {
        let descriptor = open(directory + "/.lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw CacheFileError("cannot open \(directory)/.lock: \(Self.reason())") }
        defer { close(descriptor) }  // closing releases the lock
        var waitedMS = 0
        while flock(descriptor, waiting ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            if errno == EWOULDBLOCK, waitedMS < Self.lockPatienceMS {
                usleep(5_000)
                waitedMS += 5
                continue
            }
            guard errno == EINTR else { throw CacheFileError("cannot lock \(directory)/.lock: \(Self.reason())") }
        }
        try body()
    }

    /// How long a request waits for another process's cache write before skipping its own.
    static let lockPatienceMS = 200

    private func makeDirectory() throws(CacheFileError) {
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                throw CacheFileError("cannot create \(prefix): \(Self.reason())")
            }
        }
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
