import CurlKit
import Foundation
import IPCurlCore
import Testing

@Suite struct ProviderChoiceTests {
    @Test func environmentForms() throws {
        #expect(try ProviderChoice(environment: "aliyun:139450") == ProviderChoice(.aliyun, ["139450"]))
        #expect(try ProviderChoice(environment: "dnspod") == ProviderChoice(.dnspod))
        #expect(try ProviderChoice(environment: "dnspod:1234") == ProviderChoice(.dnspod, ["1234"]))
        #expect(try ProviderChoice(environment: "doh") == ProviderChoice(.doh))
        #expect(try ProviderChoice(environment: "doh:https://1.1.1.1/dns-query") == ProviderChoice(.doh, ["https://1.1.1.1/dns-query"]))
        #expect(try ProviderChoice(environment: "doh-json:https://dns.google/resolve") == ProviderChoice(.dohJSON, ["https://dns.google/resolve"]))
        #expect(try ProviderChoice(environment: "command:/bin/my-dns --zone a") == ProviderChoice(.command, ["/bin/my-dns --zone a"]))
    }

    @Test(arguments: ["", "aliyun", "aliyun:", "doh:", "doh-json", "dnspod:", "command", "Aliyun:1", "system", "doh\n"])
    func badEnvironmentIsAUsageError(_ value: String) {
        #expect(throws: CurlError.usage("")) { try ProviderChoice(environment: value) }
    }

    @Test func usageMessageEscapesControlCharacters() {
        do {
            _ = try ProviderChoice(environment: "bad\nvalue")
            Issue.record("accepted")
        } catch {
            #expect(error.message.hasPrefix("IPCURL_DNS='bad\\x0avalue': expected"))
        }
    }
}

@Suite struct SecretTests {
    private func file(_ contents: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ipcurl-secret-\(UUID().uuidString)").path
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func fileWinsAndTrailingLineBreakIsDropped() throws {
        let path = try file("  s3cret-value\r\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        setenv("IPCURL_TEST_SECRET", "from-environment", 1)
        defer { unsetenv("IPCURL_TEST_SECRET") }
        #expect(try Secret.load(file: path, variable: "IPCURL_TEST_SECRET") == Secret(value: "s3cret-value", origin: path))
        #expect(try Secret.load(file: nil, variable: "IPCURL_TEST_SECRET")?.value == "from-environment")
        #expect(try Secret.load(file: nil, variable: "IPCURL_TEST_UNSET_SECRET") == nil)
    }

    @Test(arguments: ["", "\n", "two\nlines", "tab\tinside", "nul\u{0}inside"])
    func emptyOrMultiLineSecretsAreRefusedWithoutShowingThem(_ contents: String) throws {
        let path = try file(contents)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try Secret.load(file: path, variable: nil)
            Issue.record("accepted \(contents.debugDescription)")
        } catch {
            #expect(error == .usage(""))
            #expect(!error.message.contains("lines") && !error.message.contains("inside"))
        }
    }

    @Test func urlSafety() {
        #expect(Secret(value: "Ab9-._~", origin: "x").isURLSafe)
        for unsafe in ["a&b", "a b", "a=b", "a%", "a/b", "a?b", "é"] { #expect(!Secret(value: unsafe, origin: "x").isURLSafe) }
    }
}
