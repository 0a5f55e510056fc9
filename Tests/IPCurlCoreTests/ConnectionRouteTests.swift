import Foundation
@testable import IPCurlCore
import Testing

/// Which host and port libcurl connects to for a request under `--connect-to` and `--alt-svc`, read as libcurl
/// 7.88 reads them, so the pin goes to that host.
@Suite struct ConnectionRouteTests {
    func target(_ entries: [String], _ host: String = "a.test", _ port: Int = 443) -> ConnectTo.Match? {
        ConnectTo.target(for: host, port: port, in: entries)
    }

    @Test func connectToMatchesAsLibcurl() {
        #expect(target(["a.test:443:b.test:8443"]) == .target(host: "b.test", port: 8443, entry: "a.test:443:b.test:8443"))
        #expect(target(["A.TEST:443:b.test:"]) == .target(host: "b.test", port: nil, entry: "A.TEST:443:b.test:"))
        #expect(target(["::b.test:"]) == .target(host: "b.test", port: nil, entry: "::b.test:"))
        #expect(target(["a.test:::8443"]) == .target(host: nil, port: 8443, entry: "a.test:::8443"))
        #expect(target(["a.test::[::1]:"]) == .target(host: "::1", port: nil, entry: "a.test::[::1]:"))
        #expect(target(["::c.test:1"], "a.test.") == .target(host: "c.test", port: 1, entry: "::c.test:1"), "the URL's dot is ignored")
        #expect(target(["[::1]:443:c.test:"], "::1") == .target(host: "c.test", port: nil, entry: "[::1]:443:c.test:"))
        // No match: another host, another port, a prefix of the name, no separator; an entry naming nothing is skipped.
        for miss in ["b.test:443:c.test:", "a.test:80:c.test:", "a.tes:443:c.test:", "a.test", "a.test.:443:c.test:", "a.test:443::"] {
            #expect(target([miss]) == nil, "\(miss)")
        }
        #expect(target(["a.test:443::", "::c.test:"]) == .target(host: "c.test", port: nil, entry: "::c.test:"))
        #expect(target(["a.test:443:b.test:99999", "::c.test:"]) == .invalid)
        #expect(target(["a.test:443:b.test:x"]) == .invalid)
    }

    @Test func altSvcTakesAnUnexpiredH1OrH2AlternativeH2SourceFirst() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("altsvc-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        func alternative(_ lines: [String], _ host: String = "a.test", _ port: Int = 443) throws -> AltSvcFile.Alternative? {
            try lines.joined(separator: "\n").write(toFile: scratch, atomically: true, encoding: .utf8)
            return AltSvcFile.alternative(in: scratch, host: host, port: port)
        }
        let later = "\"20991231 00:00:00\" 0 0", past = "\"20200101 00:00:00\" 0 0"
        #expect(try alternative(["# comment", "h1 a.test 443 h1 b.test 8443 \(later)", "h2 a.test 443 h2 c.test 1 \(later)"])
                == .init(alpn: "h2", host: "c.test", port: 1))
        #expect(try alternative(["h2 A.TEST. 443 h2 [::1] 8443 \(later)"]) == .init(alpn: "h2", host: "::1", port: 8443))
        #expect(try alternative(["h2 a.test 443 h2 b.test 8443 \(past)"]) == nil, "expired")
        #expect(try alternative(["h2 a.test 443 h3 b.test 8443 \(later)"]) == nil, "no HTTP/3 in this libcurl")
        #expect(try alternative(["h2 a.test 443 h2 b.test 8443 \(later)"], "a.test", 8443) == nil)
        #expect(try alternative(["h2 a.test 443 h2 b.test"]) == nil, "a short line")
        #expect(AltSvcFile.alternative(in: scratch + ".absent", host: "a.test", port: 443) == nil)
    }

    @Test func hstsUpgradesAListedUnexpiredHostAndTheSubdomainsOfADottedOne() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hsts-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try ["# libcurl's HSTS cache", "a.test \"20991231 00:00:00\"", ".b.test \"unlimited\"", "old.test \"20200101 00:00:00\""]
            .joined(separator: "\n").write(toFile: scratch, atomically: true, encoding: .utf8)
        for (host, upgrades) in [("a.test", true), ("A.TEST.", true), ("x.a.test", false), ("b.test", true), ("x.b.test", true),
                                 ("xb.test", false), ("old.test", false), ("c.test", false)] {
            #expect(HSTSFile.upgrades(host, in: scratch) == upgrades, "\(host)")
        }
        #expect(!HSTSFile.upgrades("a.test", in: scratch + ".absent"))
    }
}
