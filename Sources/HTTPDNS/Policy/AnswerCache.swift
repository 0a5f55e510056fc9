#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ipcurl's persistent answer cache: one small file per provider, host and address family in one directory.
///
/// - Writes go to a temporary file that is renamed over the entry, so a reader sees the old record or the new
///   one, never half of one.
/// - Writers (and `remove`, `clear`) hold an exclusive `flock` on `DIR/.lock`, so many ipcurl processes can share
///   the directory. Nobody waits for it without bound: a store or remove gives up after ``lockPatienceMS``, a
///   clear after ``clearPatienceMS``.
/// - At most ``maximumEntries`` entry files: a store that adds a file beyond that removes the least recently
///   written entries (by file mtime) first.
/// - A file that does not parse, or that another user or group could have written, is reported and treated as
///   absent; the next answer rewrites it.
/// - SeeAlso: `rename(2)`, `flock(2)`.
public struct AnswerCache: Sendable {
    /// The cache directory (created with mode 0700 on first write).
    public let directory: String

    /// How many entry files the directory may hold (two per host and provider: one per address family).
    public static let maximumEntries = 10_000

    /// This cache's bound: ``maximumEntries`` except in tests.
    let maximumEntries: Int

    /// A cache in `directory`.
    public init(directory: String) { self.init(directory: directory, maximumEntries: Self.maximumEntries) }

    /// A cache in `directory` that holds at most `maximumEntries` entry files (at least 2).
    init(directory: String, maximumEntries: Int) {
        self.directory = directory
        self.maximumEntries = max(2, maximumEntries)
    }

    /// Where the cache lives, or why there is none.
    public enum Location: Sendable, Equatable {
        /// The cache directory (created on first write).
        case directory(String)
        /// No cache, and why (`HOME (/nonexistent) does not exist`).
        case off(String)
        /// A setting that must be corrected before anything runs, and why: a relative `IPCURL_CACHE_DIR` would
        /// name a cache per working directory, where a cloned repository could plant answers.
        case refused(String)

        /// The directory, or `nil` when the cache is off.
        public var directory: String? {
            if case .directory(let path) = self { return path }
            return nil
        }

        /// `cache off: REASON`, the line `-v` prints after `* HTTPDNS `; `nil` when there is a directory or a refusal.
        public var note: String? {
            if case .off(let reason) = self { return "cache off: " + reason }
            return nil
        }
    }

    /// `$IPCURL_CACHE_DIR`, else `$XDG_CACHE_HOME/ipcurl` (an absolute one), else `$HOME/.cache/ipcurl`.
    ///
    /// The first two are used as given and created on first write; a relative `IPCURL_CACHE_DIR` is refused.
    /// `HOME` only names a cache when it is an absolute path to an existing directory: with `HOME=/nonexistent`
    /// (a service account's) nothing may be created under it, so the cache is off and the result says why.
    public static func location(cacheDir: String?, xdgCacheHome: String?, home: String?) -> Location {
        if let cacheDir, !cacheDir.isEmpty {
            guard cacheDir.hasPrefix("/") else {
                return .refused("IPCURL_CACHE_DIR (\(Printable.escaped(cacheDir))) is not an absolute path: a relative cache directory "
                                + "would change with the working directory")
            }
            return .directory(cacheDir)
        }
        if let xdgCacheHome, xdgCacheHome.hasPrefix("/") { return .directory(xdgCacheHome + "/ipcurl") }
        guard let home, !home.isEmpty else { return .off("none of IPCURL_CACHE_DIR, XDG_CACHE_HOME and HOME is set") }
        guard home.hasPrefix("/") else { return .off("HOME (\(home)) is not an absolute path") }
        var info = stat()
        guard stat(home, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return .off("HOME (\(home)) does not exist") }
            return .off("HOME (\(home)): \(reason())")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { return .off("HOME (\(home)) is not a directory") }
        return .directory(home + "/.cache/ipcurl")
    }

    /// ``location(cacheDir:xdgCacheHome:home:)``'s directory; `nil` when the cache is off.
    public static func defaultDirectory(cacheDir: String?, xdgCacheHome: String?, home: String?) -> String? {
        location(cacheDir: cacheDir, xdgCacheHome: xdgCacheHome, home: home).directory
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
    ///
    /// When a record adds a file, the directory is trimmed under the same lock (see ``trim(keeping:)``).
    public func store(_ records: [CacheRecord]) throws(CacheFileError) {
        try makeDirectory()
        try trustedDirectory()
        try locked(patienceMS: Self.lockPatienceMS) { () throws(CacheFileError) in
            var written: Set<String> = [], added = false
            for record in records {
                let name = fileName(provider: record.provider, host: record.host, family: record.family)
                if !added { added = !Self.exists(directory + "/" + name) }
                try writeFile(record.text, to: directory + "/" + name)
                written.insert(name)
            }
            if added { trim(keeping: written) }
        }
    }

    /// Deletes the entries of `host` from `provider` (a digest) for both address families under the directory
    /// lock, so an answer whose every address failed verification cannot keep serving; returns whether a file
    /// was removed. Throws a one-line reason when the directory is untrusted, the lock stays busy for
    /// ``lockPatienceMS`` or a file cannot be removed.
    public func remove(provider: String, host: String) throws(CacheFileError) -> Bool {
        guard try trustedDirectory() else { return false }
        var removed = false
        try locked(patienceMS: Self.lockPatienceMS) { () throws(CacheFileError) in
            var failure: CacheFileError?
            for family in [IPAddress.Family.v4, .v6] {
                let path = self.path(provider: provider, host: host, family: family)
                if unlink(path) == 0 {
                    removed = true
                } else if errno != ENOENT, failure == nil {
                    failure = CacheFileError("cannot remove \(path): \(Self.reason())")
                }
            }
            if let failure { throw failure }
        }
        return removed
    }

    /// ``remove(provider:host:)``, reporting a failure as the `-v` line to print instead of throwing it.
    @discardableResult
    public func remove(reporting provider: String, host: String) -> (removed: Bool, problem: String?) {
        do { return (try remove(provider: provider, host: host), nil) } catch {
            return (false, "cached answer for \(host) not removed: \(error)")
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

    /// Removes every entry, every service list (``AliyunV2/ServiceList``) and any temporary file a killed process
    /// left, under the lock; returns how many answer entries were removed, 0 when the directory does not exist.
    ///
    /// The directory must pass the checks a read makes (this user's, nobody else may write it), and a lock
    /// that stays busy for ``clearPatienceMS`` makes this throw `cache is locked by another process`.
    public func clear() throws(CacheFileError) -> Int {
        guard try trustedDirectory() else { return 0 }
        var removed = 0
        try locked(patienceMS: Self.clearPatienceMS) { () throws(CacheFileError) in
            for name in entryNames(includingTemporary: true, includingServiceLists: true) {
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
        directory + "/" + fileName(provider: provider, host: host, family: family)
    }

    private func fileName(provider: String, host: String, family: IPAddress.Family) -> String {
        CacheKeyHash.hex("\(provider) \(host) \(family.cacheName)") + Self.suffix
    }

    /// Whether something (of any type) is at `path`; `false` when that cannot be told, so the caller trims.
    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// How long a temporary file must have gone unmodified before ``trim(keeping:)`` takes it for a killed
    /// writer's leftover even though a process with the id in its name exists (the id was reused).
    static let temporaryMaximumAgeSeconds = 60

    /// Whether the temporary file `name` (`.tmp.PID.RANDOM`) was left by a process that no longer exists.
    /// Writers create temporary files only under the lock, so under the lock a file whose process is gone is
    /// certainly a leftover (SIGKILL, a crash).
    static func writerIsGone(_ name: String) -> Bool {
        let fields = name.dropFirst(temporaryPrefix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard fields.count == 2, let pid = Int32(fields[0]), pid > 0, pid != getpid() else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Run under the lock after a store added a file.
    ///
    /// - Removes temporary files whose writer is gone (``writerIsGone(_:)``) or that went unmodified for over
    ///   ``temporaryMaximumAgeSeconds``: a killed writer's.
    /// - When more than ``maximumEntries`` entry files remain, removes the least recently written (oldest file
    ///   mtime, then name) until at most `maximumEntries - maximumEntries / 10` remain, so a full cache is not
    ///   re-sorted on every new host. The files in `keeping` (just written) are never removed.
    ///
    /// The records' `stored` times are not read: mtime is the same instant for every file ipcurl writes (it is
    /// set when the record is written), costs one `lstat` instead of an open and a parse, and also orders
    /// files that do not parse. Best effort: a file that cannot be removed stays until the next trim.
    private func trim(keeping: Set<String>) {
        let now = Int64(time(nil))
        let names = entryNames(includingTemporary: true)
        for name in names where name.hasPrefix(Self.temporaryPrefix) {
            let path = directory + "/" + name
            if Self.writerIsGone(name) { unlink(path); continue }
            if let modified = Self.modified(path), now - modified.0 > Self.temporaryMaximumAgeSeconds { unlink(path) }
        }
        let entryNames = names.filter { !$0.hasPrefix(Self.temporaryPrefix) }
        var entryCount = entryNames.count
        guard entryCount > maximumEntries else { return }  // the common case: no lstat per entry
        var entries: [(modified: (Int64, Int64), name: String)] = []
        for name in entryNames where !keeping.contains(name) {
            if let modified = Self.modified(directory + "/" + name) { entries.append((modified, name)) }
        }
        entries.sort { ($0.modified.0, $0.modified.1, $0.name) < ($1.modified.0, $1.modified.1, $1.name) }
        let target = maximumEntries - maximumEntries / 10
        for entry in entries where entryCount > target {
            if unlink(directory + "/" + entry.name) == 0 || errno == ENOENT { entryCount -= 1 }
        }
    }

    /// The file's modification time (seconds, nanoseconds), not following a symbolic link.
    private static func modified(_ path: String) -> (Int64, Int64)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        return (Int64(info.st_mtimespec.tv_sec), Int64(info.st_mtimespec.tv_nsec))
        #else
        return (Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec))
        #endif
    }

    private func entryNames(includingTemporary: Bool = false, includingServiceLists: Bool = false) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(Self.suffix) || (includingTemporary && name.hasPrefix(Self.temporaryPrefix))
                || (includingServiceLists && name.hasSuffix(Self.serviceListSuffix)) { names.append(name) }
        }
        return names.sorted()
    }

    /// The file's bytes (at most one byte over the size limit), or `nil` when it does not exist.
    ///
    /// Addresses from a file someone else could have written are not trusted (plain http:// has no certificate to
    /// catch a planted entry), and only a regular file is read: a FIFO or device planted under an entry's name
    /// must not hang or feed ipcurl.
    static func readFile(_ path: String) throws(CacheFileError) -> [UInt8]? {
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
    func trustedDirectory() throws(CacheFileError) -> Bool {
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

    func writeFile(_ text: String, to path: String) throws(CacheFileError) {
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

    /// Runs `body` holding the directory's exclusive lock. A lock that stays busy for `patienceMS` (a stopped
    /// ipcurl holding it) makes this throw `cache is locked by another process` instead of stalling.
    func locked(patienceMS: Int, _ body: () throws(CacheFileError) -> Void) throws(CacheFileError) {
        let descriptor = open(directory + "/.lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw CacheFileError("cannot open \(directory)/.lock: \(Self.reason())") }
        defer { close(descriptor) }  // closing releases the lock
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(patienceMS))
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw CacheFileError("cannot lock \(directory)/.lock: \(Self.reason())")
            }
            guard ContinuousClock.now < deadline else {
                throw CacheFileError("cache is locked by another process (\(directory)/.lock)")
            }
            usleep(5_000)
        }
        try body()
    }

    /// How long a request waits for another process's cache write (or remove) before skipping its own.
    static let lockPatienceMS = 200

    /// How long `ipcurl cache clear` waits for the lock.
    static let clearPatienceMS = 2_000

    func makeDirectory() throws(CacheFileError) {
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
