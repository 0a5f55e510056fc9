import Foundation
import Testing
@testable import HTTPDNS

/// What the policy lets into the answer cache: never an answer without a usable address, whichever path it came
/// by (a lookup, a background refresh).
@Suite struct CacheTrustRulesTests {
    let directory = NSTemporaryDirectory() + "ipcurl-trust-" + UUID().uuidString
    let table = CountingResolver(["bad.test": (["0.0.0.0", "239.1.2.3", "::", "ff02::1"], 86_400, nil),
                                  "a.test": (["10.0.0.1", "::1"], 60, nil)])

    private func policy(_ resolver: CountingResolver, stale: UInt32 = 0) -> ResolutionPolicy {
        let policy = ResolutionPolicy(staticEntries: [], providerConfiguration: "table") { resolver }
        policy.cache = AnswerCache(directory: directory)
        policy.staleSeconds = stale
        return policy
    }

    private var cachedAddresses: [String] {
        AnswerCache(directory: directory).list().records.flatMap(\.addresses).map(\.description)
    }

    @Test func anAnswerOfOnlyUnusableAddressesIsNeverCached() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for _ in 0..<2 {
            let error = #expect(throws: ResolutionError.self) { try policy(table).resolve(host: "bad.test", port: 443) }
            #expect(error?.kind == .noAddress && error?.reason == "aliyun: no usable address: 0.0.0.0, 239.1.2.3, ::, ff02::1",
                    "\(String(describing: error))")
        }
        #expect(table.asked.withLock { $0 } == ["bad.test", "bad.test"], "the next run asks the provider again")
        #expect(AnswerCache(directory: directory).list().records.isEmpty)
        let rescued = policy(table)
        rescued.fallback = CountingResolver(["bad.test": (["10.0.0.7"], 0, nil)])
        #expect(try rescued.resolve(host: "bad.test", port: 443).entry?.description == "bad.test:443:10.0.0.7")
        #expect(AnswerCache(directory: directory).list().records.isEmpty, "nor when the fallback answered")
        _ = try policy(table).resolve(host: "a.test", port: 443)
        #expect(cachedAddresses == ["10.0.0.1", "::1"], "a usable answer is cached")
    }

    @Test func aBackgroundRefreshWithoutAUsableAddressKeepsTheStaleAnswer() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let provider = AnswerCache.providerDigest("table")
        try AnswerCache(directory: directory).store([.v4, .v6].map { family in
            CacheRecord(host: "bad.test", family: family, provider: provider, sourceName: "aliyun", origin: "aliyun old",
                        addresses: [IPAddress(family == .v4 ? "10.9.9.9" : "::9")!], ttl: 10, stored: Int64(time(nil)) - 100)
        })
        let serving = policy(table, stale: 300)
        #expect(try serving.resolve(host: "bad.test", port: 443).entry?.description == "bad.test:443:10.9.9.9,[::9]")
        let lines = serving.finishRefresh()
        #expect(lines.count == 1 && lines.first?.hasPrefix("bad.test: background refresh failed, the stale answer stays: ") == true,
                "\(lines)")
        #expect(cachedAddresses == ["10.9.9.9", "::9"])
    }
}
