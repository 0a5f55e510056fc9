import Foundation
import Testing
@testable import HTTPDNS

@Suite struct CacheRecordTests {
    let record = CacheRecord(host: "a.test", family: .v4, provider: AnswerCache.providerDigest("aliyun 1"), sourceName: "aliyun",
                             origin: "aliyun http://127.0.0.5:80", addresses: [IPAddress("127.0.0.2")!, IPAddress("10.0.0.1")!],
                             ttl: 60, stored: 1_700_000_000)

    @Test func roundTripsThroughItsText() throws {
        #expect(try CacheRecord(parsing: Array(record.text.utf8)) == record)
        #expect(record.expires == 1_700_000_060)
    }

    @Test func everyTruncationIsRejected() {
        let bytes = Array(record.text.utf8)
        for length in 0..<bytes.count {
            #expect(throws: CacheFileError.self) { try CacheRecord(parsing: Array(bytes[..<length])) }
        }
    }

    @Test(arguments: [
        ("127.0.0.2", "127.0.0.2,127.0.0.3"), ("127.0.0.2", "127.0.0.2:443"), ("127.0.0.2", "::1"),
        ("ttl 60", "ttl 90000"), ("ttl 60", "ttl -1"), ("host a.test", "host a.test:443:10.9.9.9"),
        ("source aliyun", "source static"), ("source aliyun", "source Ali/yun"), ("family v4", "family v5"), ("ipcurl-dns-cache 2", "ipcurl-dns-cache 3"),
        ("insecure no", "insecure maybe"), ("unverified no", "unverified 0"), ("unverified no\n", ""),
        ("stored 1700000000", "stored soon"), ("stored 1700000000", "stored 9223372036854775807"),
    ])
    func tamperedFieldsAreRejected(_ change: (String, String)) {
        let text = record.text.replacingOccurrences(of: change.0, with: change.1)
        #expect(throws: CacheFileError.self) { try CacheRecord(parsing: Array(text.utf8)) }
    }

    @Test func extraLinesAndOversizedFilesAreRejected() {
        #expect(throws: CacheFileError.self) { try CacheRecord(parsing: Array((record.text + "evil 1\n").utf8)) }
        #expect(throws: CacheFileError.self) { try CacheRecord(parsing: [UInt8](repeating: 0x41, count: 5000)) }
    }

    @Test func originCannotBreakTheLineStructure() throws {
        let odd = CacheRecord(host: "a.test", family: .v6, provider: record.provider, sourceName: "command",
                              origin: "command evil\naddresses 10.6.6.6", addresses: [IPAddress("::1")!, IPAddress("10.0.0.1")!],
                              ttl: 5, stored: 1)
        let parsed = try CacheRecord(parsing: Array(odd.text.utf8))
        #expect(parsed.addresses == [IPAddress("::1")!], "only addresses of the record's own family are kept")
        #expect(parsed.origin == "command evil?addresses 10.6.6.6")
    }
}

@Suite struct AnswerCacheTests {
    let root = NSTemporaryDirectory() + "ipcurl-cache-" + UUID().uuidString
    var directory: String { root + "/nested" }
    var cache: AnswerCache { AnswerCache(directory: directory) }
    let provider = AnswerCache.providerDigest("doh https://1.1.1.1/dns-query")

    private func record(_ host: String, _ family: IPAddress.Family, _ address: String) -> CacheRecord {
        CacheRecord(host: host, family: family, provider: provider, sourceName: "doh", origin: "doh https://1.1.1.1/dns-query",
                    addresses: [IPAddress(address)!], ttl: 30, stored: 100)
    }

    @Test func storesReadsListsAndClears() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try cache.store([record("b.test", .v4, "10.0.0.2"), record("a.test", .v6, "::2"), record("a.test", .v4, "10.0.0.1")])
        var problems: [String] = []
        #expect(cache.records(provider: provider, host: "a.test", families: [.v4]) { problems.append($0) }[0]?.addresses == [IPAddress("10.0.0.1")!])
        #expect(cache.records(provider: AnswerCache.providerDigest("other"), host: "a.test", families: [.v4]) { problems.append($0) }[0] == nil)
        #expect(problems.isEmpty)
        let listed = cache.list()
        #expect(listed.records.map { "\($0.host) \($0.family.cacheName)" } == ["a.test v4", "a.test v6", "b.test v4"])
        #expect(listed.problems.isEmpty)
        let mode = try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        try Data("leftover".utf8).write(to: URL(fileURLWithPath: directory + "/.tmp.1.2"))
        #expect(try cache.clear() == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [".lock"])
    }

    @Test func aFileUnderAnotherKeysNameIsForeign() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try cache.store([record("a.test", .v4, "10.0.0.1"), record("b.test", .v4, "10.0.0.2")])
        let a = cache.path(provider: provider, host: "a.test", family: .v4)
        let b = cache.path(provider: provider, host: "b.test", family: .v4)
        try FileManager.default.removeItem(atPath: a)
        try FileManager.default.copyItem(atPath: b, toPath: a)
        var problems: [String] = []
        #expect(cache.records(provider: provider, host: "a.test", families: [.v4]) { problems.append($0) }[0] == nil)
        #expect(problems == ["ignoring cache file \(a): holds another key (b.test v4)"])
        #expect(cache.list().problems == ["ignoring cache file \(a): name does not match its key"])
    }

    @Test func filesOthersCouldHaveWrittenAreNotTrusted() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try cache.store([record("a.test", .v4, "10.0.0.1")])
        let path = cache.path(provider: provider, host: "a.test", family: .v4)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: path)
        var problems: [String] = []
        #expect(cache.records(provider: provider, host: "a.test", families: [.v4]) { problems.append($0) }[0] == nil)
        #expect(problems == ["ignoring cache file \(path): writable by group or others"])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(cache.records(provider: provider, host: "a.test", families: [.v4]) { problems.append($0) }[0] != nil)
        if geteuid() == 0 {  // only root can hand a file to another user
            try FileManager.default.setAttributes([.ownerAccountID: 65534], ofItemAtPath: path)
            #expect(cache.records(provider: provider, host: "a.test", families: [.v4]) { problems.append($0) }[0] == nil)
            #expect(problems.last == "ignoring cache file \(path): owned by uid 65534, not by this user")
        }
    }

    @Test func aPlantedFIFOOrAnOpenDirectoryIsRefusedWithoutHanging() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try cache.store([record("b.test", .v4, "10.0.0.2")])
        let path = cache.path(provider: provider, host: "a.test", family: .v4)
        #expect(mkfifo(path, 0o600) == 0)
        var problems: [String] = []
        #expect(cache.records(provider: provider, host: "a.test", families: [.v4]) { problems.append($0) }[0] == nil)
        #expect(problems == ["ignoring cache file \(path): not a regular file"])
        #expect(chmod(directory, 0o777) == 0)
        problems = []
        #expect(cache.records(provider: provider, host: "b.test", families: [.v4]) { problems.append($0) }[0] == nil)
        #expect(problems == ["cache directory \(directory) not used: writable by group or others"])
        #expect(throws: CacheFileError.self) { try cache.store([record("c.test", .v4, "10.0.0.3")]) }
        #expect(cache.list().records.isEmpty)
    }

    @Test func aBusyLockSkipsTheWriteInsteadOfStalling() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try cache.store([record("a.test", .v4, "10.0.0.1")])
        let holder = open(directory + "/.lock", O_RDWR)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        let started = ContinuousClock.now
        #expect(throws: CacheFileError.self) { try cache.store([record("b.test", .v4, "10.0.0.2")]) }
        #expect(ContinuousClock.now - started < .seconds(2))
        flock(holder, LOCK_UN)
        try cache.store([record("b.test", .v4, "10.0.0.2")])
    }

    @Test func clearRefusesADirectoryAReadWouldNotTrust() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try cache.store([record("a.test", .v4, "10.0.0.1")])
        let entry = cache.path(provider: provider, host: "a.test", family: .v4)
        #expect(chmod(directory, 0o777) == 0)
        #expect(throws: CacheFileError("cache directory \(directory) not used: writable by group or others")) { try cache.clear() }
        #expect(FileManager.default.fileExists(atPath: entry))
        #expect(chmod(directory, 0o700) == 0)
        if geteuid() == 0 {  // only root can hand a directory to another user
            #expect(chown(directory, 65534, 65534) == 0)
            #expect(throws: CacheFileError("cache directory \(directory) not used: owned by uid 65534, not by this user")) {
                try cache.clear()
            }
            #expect(FileManager.default.fileExists(atPath: entry))
            #expect(chown(directory, 0, 0) == 0)
        }
        #expect(try cache.clear() == 1)
        #expect(try AnswerCache(directory: root + "/absent").clear() == 0)
    }

    @Test func clearGivesUpOnABusyLockInsteadOfWaitingForever() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try cache.store([record("a.test", .v4, "10.0.0.1")])
        let holder = open(directory + "/.lock", O_RDWR)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        final class Outcome: @unchecked Sendable { var error: CacheFileError?; var removed: Int? }
        let outcome = Outcome(), done = DispatchSemaphore(value: 0), cache = self.cache
        let started = ContinuousClock.now
        DispatchQueue.global().async {
            do throws(CacheFileError) { outcome.removed = try cache.clear() } catch { outcome.error = error }
            done.signal()
        }
        let finished = done.wait(timeout: .now() + 6) == .success
        let waited = ContinuousClock.now - started
        flock(holder, LOCK_UN)  // lets a clear that blocks without bound finish, so the test fails instead of hanging
        if !finished { done.wait() }
        #expect(finished, "clear waited on the lock for more than 6 s")
        #expect(waited >= .seconds(1) && waited < .seconds(4))
        #expect(outcome.error?.description == "cache is locked by another process (\(directory)/.lock)")
        #expect(FileManager.default.fileExists(atPath: cache.path(provider: provider, host: "a.test", family: .v4)))
    }

    private func names(_ hosts: [String]) -> Set<String> {
        Set(hosts.map { cache.path(provider: provider, host: $0, family: .v4) })
    }

    private func entries() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".entry") }.map { directory + "/" + $0 })
    }

    private func touch(_ path: String, _ seconds: TimeInterval) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: path)
    }

    @Test func theBoundIsTenThousandEntryFiles() {
        #expect(AnswerCache.maximumEntries == 10_000)
        #expect(AnswerCache(directory: directory).maximumEntries == 10_000)
    }

    @Test func aStoreBeyondTheBoundDropsTheLeastRecentlyWrittenEntries() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cache = AnswerCache(directory: directory, maximumEntries: 4)
        let hosts = ["h0.test", "h1.test", "h2.test", "h3.test"]
        try cache.store(hosts.map { record($0, .v4, "10.0.0.1") })
        // mtime decides, not name or store order: h2 is the oldest file, then h0.
        for (host, time) in zip(hosts, [2_000.0, 3_000, 1_000, 4_000]) {
            try touch(cache.path(provider: provider, host: host, family: .v4), time)
        }
        try cache.store([record("h0.test", .v4, "10.0.0.9")])  // rewrites a file: nothing to trim
        #expect(try entries() == names(hosts))
        try cache.store([record("h4.test", .v4, "10.0.0.1")])
        #expect(try entries() == names(["h0.test", "h1.test", "h3.test", "h4.test"]))
        try cache.store([record("h5.test", .v4, "10.0.0.1"), record("h6.test", .v4, "10.0.0.1")])
        #expect(try entries().count == 4)
        #expect(try entries().isSuperset(of: names(["h5.test", "h6.test"])), "the records just stored stay")
    }

    @Test func aFullCacheIsTrimmedByATenthSoItIsNotSortedForEveryNewHost() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cache = AnswerCache(directory: directory, maximumEntries: 20)
        let hosts = (0..<20).map { "h\($0).test" }
        try cache.store(hosts.map { record($0, .v4, "10.0.0.1") })
        for (index, host) in hosts.enumerated() {
            try touch(cache.path(provider: provider, host: host, family: .v4), 1_000 + Double(index))
        }
        try cache.store([record("new.test", .v4, "10.0.0.1")])
        #expect(try entries() == names(Array(hosts.dropFirst(3)) + ["new.test"]))
        try cache.store([record("next.test", .v4, "10.0.0.1")])
        #expect(try entries().count == 19)
    }

    @Test func aTrimRemovesTemporaryFilesOlderThanAMinute() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try cache.store([record("a.test", .v4, "10.0.0.1")])
        let stale = directory + "/.tmp.1.1", fresh = directory + "/.tmp.1.2"
        try Data("left".utf8).write(to: URL(fileURLWithPath: stale))
        try Data("busy".utf8).write(to: URL(fileURLWithPath: fresh))
        try touch(stale, Date().timeIntervalSince1970 - 120)
        try touch(fresh, Date().timeIntervalSince1970 - 30)
        try cache.store([record("b.test", .v4, "10.0.0.2")])
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: fresh))
        #expect(try entries().count == 2)
    }

    @Test func aTrimRemovesTemporaryFilesOfAGoneWriterAtOnce() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try cache.store([record("a.test", .v4, "10.0.0.1")])
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let killed = directory + "/.tmp.\(gone.processIdentifier).7", alive = directory + "/.tmp.1.8"
        for path in [killed, alive] { try Data("left".utf8).write(to: URL(fileURLWithPath: path)) }
        #expect(!AnswerCache.writerIsGone(".tmp.\(getpid()).1") && !AnswerCache.writerIsGone(".tmp.x.1"))
        try cache.store([record("b.test", .v4, "10.0.0.2")])
        #expect(!FileManager.default.fileExists(atPath: killed), "its writer is gone: removed however fresh")
        #expect(FileManager.default.fileExists(atPath: alive), "a fresh file of a live process id stays")
    }

    @Test func removeDeletesBothFamiliesOfOneHostOnly() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(try cache.remove(provider: provider, host: "a.test") == false, "no directory yet")
        try cache.store([record("a.test", .v4, "10.0.0.1"), record("a.test", .v6, "::1"), record("b.test", .v4, "10.0.0.2")])
        #expect(try cache.remove(provider: AnswerCache.providerDigest("other"), host: "a.test") == false)
        #expect(try cache.remove(provider: provider, host: "a.test"))
        var problems: [String] = []
        #expect(cache.records(provider: provider, host: "a.test", families: [.v4, .v6]) { problems.append($0) } == [nil, nil])
        #expect(cache.records(provider: provider, host: "b.test", families: [.v4]) { problems.append($0) }[0] != nil)
        #expect(problems.isEmpty)
        #expect(try cache.remove(provider: provider, host: "a.test") == false)
        try cache.store([record("c.test", .v6, "::3")])
        let reported = cache.remove(reporting: provider, host: "c.test")
        #expect(reported.removed && reported.problem == nil)
        #expect(try entries() == names(["b.test"]))
    }

    @Test func removeChecksTheDirectoryAndDoesNotWaitLongForTheLock() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try cache.store([record("a.test", .v4, "10.0.0.1")])
        #expect(chmod(directory, 0o777) == 0)
        let refused = cache.remove(reporting: provider, host: "a.test")
        #expect(!refused.removed)
        #expect(refused.problem == "cached answer for a.test not removed: cache directory \(directory) not used: writable by group or others")
        #expect(chmod(directory, 0o700) == 0)
        let holder = open(directory + "/.lock", O_RDWR)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        let started = ContinuousClock.now
        #expect(throws: CacheFileError("cache is locked by another process (\(directory)/.lock)")) {
            try cache.remove(provider: provider, host: "a.test")
        }
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(try entries() == names(["a.test"]))
        flock(holder, LOCK_UN)
        #expect(try cache.remove(provider: provider, host: "a.test"))
    }

    @Test func defaultDirectoryFollowsTheDocumentedPrecedence() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(AnswerCache.defaultDirectory(cacheDir: "/c", xdgCacheHome: "/x", home: "/h") == "/c")
        #expect(AnswerCache.defaultDirectory(cacheDir: "", xdgCacheHome: "/x", home: "/h") == "/x/ipcurl")
        #expect(AnswerCache.defaultDirectory(cacheDir: nil, xdgCacheHome: "relative", home: root) == root + "/.cache/ipcurl")
        #expect(AnswerCache.defaultDirectory(cacheDir: nil, xdgCacheHome: nil, home: nil) == nil)
        #expect(AnswerCache.location(cacheDir: nil, xdgCacheHome: nil, home: root) == .directory(root + "/.cache/ipcurl"))
        #expect(AnswerCache.location(cacheDir: nil, xdgCacheHome: nil, home: "") == .off("none of IPCURL_CACHE_DIR, XDG_CACHE_HOME and HOME is set"))
        let relative = AnswerCache.location(cacheDir: "cache", xdgCacheHome: "/x", home: root)
        #expect(relative == .refused("IPCURL_CACHE_DIR (cache) is not an absolute path: a relative cache directory would "
                                     + "change with the working directory"))
        #expect(relative.directory == nil && relative.note == nil, "refused: neither a cache nor a cache that is off")
    }

    @Test func aHomeThatIsNotAnExistingDirectoryNamesNoCache() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let missing = root + "/nonexistent", file = root + "/file"
        try Data().write(to: URL(fileURLWithPath: file))
        #expect(AnswerCache.defaultDirectory(cacheDir: nil, xdgCacheHome: nil, home: missing) == nil)
        #expect(AnswerCache.defaultDirectory(cacheDir: nil, xdgCacheHome: "relative", home: file) == nil)
        #expect(AnswerCache.defaultDirectory(cacheDir: nil, xdgCacheHome: nil, home: file + "/sub") == nil)
        #expect(AnswerCache.defaultDirectory(cacheDir: nil, xdgCacheHome: nil, home: "home") == nil)
        let off = AnswerCache.location(cacheDir: nil, xdgCacheHome: nil, home: missing)
        #expect(off == .off("HOME (\(missing)) does not exist"))
        #expect(off.directory == nil)
        #expect(off.note == "cache off: HOME (\(missing)) does not exist")
        #expect(AnswerCache.location(cacheDir: nil, xdgCacheHome: nil, home: file).note == "cache off: HOME (\(file)) is not a directory")
        #expect(AnswerCache.location(cacheDir: nil, xdgCacheHome: nil, home: "home").note == "cache off: HOME (home) is not an absolute path")
        #expect(AnswerCache.location(cacheDir: nil, xdgCacheHome: nil, home: root).note == nil)
        // An explicit IPCURL_CACHE_DIR or XDG_CACHE_HOME is still used as given, and created on first write.
        #expect(AnswerCache.defaultDirectory(cacheDir: missing + "/c", xdgCacheHome: nil, home: missing) == missing + "/c")
        #expect(AnswerCache.defaultDirectory(cacheDir: nil, xdgCacheHome: missing + "/x", home: missing) == missing + "/x/ipcurl")
        #expect(!FileManager.default.fileExists(atPath: missing), "naming the cache creates nothing")
    }
}

@Suite struct AddressFamiliesTests {
    let mixed = ["::1", "10.0.0.1", "2001:db8::1", "10.0.0.2"].map { IPAddress($0)! }

    @Test func filtersAndPutsIPv4First() {
        #expect(AddressFamilies.both.ordered(mixed).map(\.description) == ["10.0.0.1", "10.0.0.2", "::1", "2001:db8::1"])
        #expect(AddressFamilies.v4Only.ordered(mixed).map(\.description) == ["10.0.0.1", "10.0.0.2"])
        #expect(AddressFamilies.v6Only.ordered(mixed).map(\.description) == ["::1", "2001:db8::1"])
    }
}

@Suite struct CacheKeyHashTests {
    @Test func matchesPublishedFNV1a128Vectors() {
        // FNV-1a 128-bit test values (draft-eastlake-fnv): "" is the offset basis; "a" and "foobar" as published.
        #expect(CacheKeyHash.hex("") == "6c62272e07bb014262b821756295c58d")
        #expect(CacheKeyHash.hex("a") == "d228cb696f1a8caf78912b704e4a8964")
        #expect(CacheKeyHash.hex("foobar") == "343e1662793c64bf6f0d3597ba446f18")
    }
}
