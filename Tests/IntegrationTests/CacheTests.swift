import Foundation
import Testing

/// The persistent answer cache across ipcurl processes, proven by counting queries at the fixture server.
/// Every test makes up its own `*.any.test` names, so parallel tests cannot disturb the counts.
@Suite struct CacheTests: LabSuite {
    let fixture: LabFixture
    let cache: TemporaryDirectory
    init() throws {
        fixture = try LabFixture()
        cache = try TemporaryDirectory()
    }

    private var environment: [String: String] { ["IPCURL_CACHE_DIR": cache.path] }

    private func fresh(_ label: String) -> String { "\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).any.test" }

    private func queries(_ name: String) throws -> Int { try FixtureStats.read(lab).byName[name] ?? 0 }

    private func entryFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".entry") }
    }

    @Test func secondProcessUsesTheCacheAndAsksNobody() throws {
        let host = fresh("hit")
        let first = try ipcurl(["resolve"] + aliyun + [host], environment: environment)
        #expect(first.status == 0 && first.stdout == "\(host):443:127.0.0.2,[::1]\n", "\(first.stderr)")
        let second = try ipcurl(["resolve", "-v"] + aliyun + [host], environment: environment)
        #expect(second.stdout == first.stdout)
        #expect(second.stderr.contains("* HTTPDNS \(host): 127.0.0.2, ::1 (aliyun http://"), "\(second.stderr)")
        #expect(second.stderr.contains(", cache hit)\n"))
        #expect(try queries(host) == 1)
        #expect(try entryFiles().count == 2, "one record per address family")
    }

    @Test func fetchReportsTheCacheAsDNSSource() throws {
        let arguments = aliyun + ["-w", "%{dns_source}", lab.https("b.test")]
        let first = try ipcurl(arguments, environment: environment)
        let second = try ipcurl(arguments, environment: environment)
        #expect(first.stdout.hasSuffix("aliyun") && second.stdout.hasSuffix("cache"), "\(first.stdout) / \(second.stdout)")
        #expect(second.stdout.hasPrefix("vhost=b.test"))
    }

    @Test func expiredAnswersAreAskedAgain() throws {
        let host = fresh("ttl1")
        _ = try ipcurl(["resolve"] + aliyun + [host], environment: environment)
        Thread.sleep(forTimeInterval: 2.1)
        let again = try ipcurl(["resolve", "-v"] + aliyun + [host], environment: environment)
        #expect(again.status == 0)
        #expect(again.stderr.contains(", cache miss)"), "\(again.stderr)")
        #expect(try queries(host) == 2)
    }

    @Test func staleAnswersAreServedWhileABackgroundQueryRefreshesThem() throws {
        let host = fresh("ttl1")
        // A fetch's answer (one of `resolve`, which connects nowhere, is never served stale).
        _ = try ipcurl(aliyun + [lab.https(host)], environment: environment)
        Thread.sleep(forTimeInterval: 2.1)
        let stale = try ipcurl(["resolve", "-v", "--dns-stale", "60"] + aliyun + [host], environment: environment)
        #expect(stale.stdout == "\(host):443:127.0.0.2,[::1]\n")
        #expect(stale.stderr.contains("refreshing in the background)\n"), "\(stale.stderr)")
        #expect(stale.stderr.contains("* HTTPDNS \(host): refreshed in the background: 127.0.0.2, ::1 (aliyun"))
        #expect(try queries(host) == 2)
        let listed = try ipcurl(["cache", "list", "--json"], environment: environment)
        let records = try JSONSerialization.jsonObject(with: listed.stdoutBytes) as? [[String: Any]] ?? []
        #expect(records.count == 2 && records.allSatisfy { $0["host"] as? String == host })
        // Without the grace window the same stale answer is not used.
        Thread.sleep(forTimeInterval: 2.1)
        let strict = try ipcurl(["resolve", "-v"] + aliyun + [host], environment: environment)
        #expect(strict.stderr.contains(", cache miss)"))
        #expect(try queries(host) == 3)
    }

    @Test func corruptTruncatedOrForeignFilesAreIgnoredAndRewritten() throws {
        let host = fresh("corrupt")
        _ = try ipcurl(["resolve"] + aliyun + [host], environment: environment)
        let files = try entryFiles().map { cache.path + "/" + $0 }
        #expect(files.count == 2)
        let original = try String(contentsOfFile: files[0], encoding: .utf8)
        try String(original.prefix(original.count / 2)).write(toFile: files[0], atomically: false, encoding: .utf8)
        try "127.0.0.66\n".write(toFile: files[1], atomically: false, encoding: .utf8)
        let listed = try ipcurl(["cache", "list"], environment: environment)
        #expect(listed.stderr.split(separator: "\n").count == 2 && listed.stdout.isEmpty, "\(listed.stderr)")
        let again = try ipcurl(["resolve", "-v"] + aliyun + [host], environment: environment)
        #expect(again.status == 0 && again.stdout == "\(host):443:127.0.0.2,[::1]\n")
        #expect(again.stderr.contains("* HTTPDNS ignoring cache file \(files[0]): truncated"), "\(again.stderr)")
        #expect(again.stderr.contains("* HTTPDNS ignoring cache file \(files[1]): not an ipcurl cache file"))
        #expect(!again.stdout.contains("127.0.0.66"))
        #expect(try queries(host) == 2)
        let relisted = try ipcurl(["cache", "list"], environment: environment)
        #expect(relisted.stderr.isEmpty && relisted.stdout.split(separator: "\n").count == 2, "rewritten: \(relisted.stderr)")
    }

    @Test func eightConcurrentProcessesShareOneCacheDirectory() throws {
        let hosts = (0..<3).map { fresh("shared\($0)") }
        let processes = try (0..<8).map { index -> (Process, Pipe) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ipcurlBinary())
            process.arguments = ["resolve"] + aliyun + [hosts[index % 3], hosts[(index + 1) % 3]]
            var environment = ProcessInfo.processInfo.environment
            environment["IPCURL_CACHE_DIR"] = cache.path
            environment.removeValue(forKey: "IPCURL_DNS")
            process.environment = environment
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            return (process, out)
        }
        for (index, (process, out)) in processes.enumerated() {
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(text == "\(hosts[index % 3]):443:127.0.0.2,[::1]\n\(hosts[(index + 1) % 3]):443:127.0.0.2,[::1]\n")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(names.filter { $0.hasSuffix(".entry") }.count == 6)
        #expect(!names.contains { $0.hasPrefix(".tmp.") }, "no temporary file is left behind")
        let listed = try ipcurl(["cache", "list"], environment: environment)
        #expect(listed.stderr.isEmpty && listed.stdout.split(separator: "\n").count == 6)
        let counts = try hosts.map(queries)
        let ninth = try ipcurl(["resolve"] + aliyun + hosts, environment: environment)
        let after = try hosts.map(queries)
        #expect(ninth.status == 0 && after == counts, "a ninth process is served from the cache")
    }

    @Test func noDNSCacheNeitherReadsNorWrites() throws {
        let host = fresh("nocache")
        _ = try ipcurl(["resolve", "--no-dns-cache"] + aliyun + [host], environment: environment)
        #expect(try entryFiles().isEmpty)
        _ = try ipcurl(["resolve"] + aliyun + [host], environment: environment)
        _ = try ipcurl(["resolve", "--no-dns-cache"] + aliyun + [host], environment: environment)
        #expect(try queries(host) == 3)
    }

    @Test func cacheClearEmptiesTheDirectory() throws {
        let host = fresh("clear")
        _ = try ipcurl(["resolve"] + aliyun + [host], environment: environment)
        let cleared = try ipcurl(["cache", "clear"], environment: environment)
        #expect(cleared.status == 0 && cleared.stderr == "ipcurl: removed 2 cache entries from \(cache.path)\n")
        #expect(try entryFiles().isEmpty)
        let listed = try ipcurl(["cache", "list"], environment: environment)
        #expect(listed.status == 0 && listed.stdout.isEmpty)
    }

    @Test func answersFetchedWithoutVerificationNeverServeAVerifiedRun() throws {
        let host = fresh("trust")
        let tls = try Provider.dohJSON.arguments(lab).filter { $0 != "--cacert" && $0 != lab.ca }
        let insecure = try ipcurl(["resolve", "-k"] + tls + [host], environment: environment)
        #expect(insecure.status == 0, "\(insecure.stderr)")
        let verified = try ipcurl(["resolve", "-v", "--cacert", lab.ca] + tls + [host], environment: environment)
        #expect(verified.stderr.contains(", cache miss)"), "\(verified.stderr)")
        #expect(try queries(host) == 4, "A and AAAA, twice")
    }

    @Test func providersDoNotShareEntries() throws {
        let host = fresh("providers")
        _ = try ipcurl(["resolve"] + aliyun + [host], environment: environment)
        let dnspod = try ipcurl(["resolve", "-v"] + (try Provider.dnspod.arguments(lab)) + [host], environment: environment)
        #expect(dnspod.stderr.contains(", cache miss)"))
        #expect(try queries(host) == 2)
    }
}
