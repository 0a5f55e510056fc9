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
        ("source aliyun", "source static"), ("family v4", "family v5"), ("ipcurl-dns-cache 1", "ipcurl-dns-cache 2"),
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

    @Test func defaultDirectoryFollowsTheDocumentedPrecedence() {
        #expect(AnswerCache.defaultDirectory(cacheDir: "/c", xdgCacheHome: "/x", home: "/h") == "/c")
        #expect(AnswerCache.defaultDirectory(cacheDir: "", xdgCacheHome: "/x", home: "/h") == "/x/ipcurl")
        #expect(AnswerCache.defaultDirectory(cacheDir: nil, xdgCacheHome: "relative", home: "/h") == "/h/.cache/ipcurl")
        #expect(AnswerCache.defaultDirectory(cacheDir: nil, xdgCacheHome: nil, home: nil) == nil)
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
