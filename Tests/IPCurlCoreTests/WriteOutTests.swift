import CurlKit
import Foundation
import HTTPDNS
import IPCurlCore
import Testing

@Suite struct WriteOutTests {
    private var report: TransferReport {
        var report = TransferReport(url: "https://a.test/")
        report.responseCode = 204
        report.remoteIP = "::1"
        report.remotePort = 8443
        report.microseconds["time_total"] = 1_234_567
        report.microseconds["time_connect"] = 42
        report.exitCode = 0
        report.dnsSource = "cache"
        report.microseconds["dns_time"] = 1_500
        return report
    }

    private func text(_ format: String) -> String { WriteOut(format, report: report).segments.map(\.text).joined() }

    @Test func variablesUseCurlNamesAndFormats() {
        #expect(text("%{http_code} %{response_code} %{remote_ip} %{remote_port}") == "204 204 ::1 8443")
        #expect(text("%{time_total} %{time_connect} %{time_appconnect}") == "1.234567 0.000042 0.000000")
        #expect(text("%{url_effective} %{exitcode} [%{errormsg}]") == "https://a.test/ 0 []")
        #expect(text("%{size_download}") == "0")
    }

    @Test func dnsVariablesSayWhereTheAddressesCameFrom() {
        #expect(text("%{dns_source} %{dns_time}") == "cache 0.001500")
        #expect(text("[%{dns_source}]") != "[]")
        #expect(WriteOut("[%{dns_source}] %{dns_time}", report: TransferReport(url: "x")).segments.first?.text == "[] 0.000000")
    }

    @Test func escapesAndPercent() {
        #expect(text("a\\nb\\tc\\rd\\\\e 100%% \\q %x") == "a\nb\tc\rd\\e 100% \\q %x")
    }

    @Test func codeBelowHundredIsZeroPadded() {
        #expect(WriteOut("%{http_code}", report: TransferReport(url: "x")).segments.first?.text == "000")
    }

    @Test func streamSwitchesAndUnknownVariables() {
        let rendered = WriteOut("a%{stderr}b%{nope}%{nope}%{stdout}c", report: report)
        #expect(rendered.segments == [.init(toStandardError: false, text: "a"), .init(toStandardError: true, text: "b"),
                                      .init(toStandardError: false, text: "c")])
        #expect(rendered.unknownVariables == ["nope"])
    }
}

@Suite struct ResolveListingTests {
    private func item(_ host: String, _ addresses: [String], ttl: UInt32 = 60) throws -> ResolveListing.Item {
        let answer = ResolverAnswer(host: host, addresses: addresses.compactMap { IPAddress($0) }, ttl: ttl,
                                    source: .doh(server: "https://d.test:443/dns-query"))
        return .init(host: host, result: .success(Resolution(entry: ResolveEntry(answer, port: 8443), answer: answer)))
    }

    @Test func plainAndCurlFormats() throws {
        let items = [try item("a.test", ["127.0.0.2", "::1"]),
                     ResolveListing.Item(host: "x.test", result: .failure(.couldntResolveHost))]
        #expect(ResolveListing.render(items, port: 8443, format: .plain) == "a.test:8443:127.0.0.2,[::1]\n")
        #expect(ResolveListing.render(items, port: 8443, format: .curl) == "--resolve a.test:8443:127.0.0.2,[::1]\n")
    }

    @Test func jsonIsValidAndEscaped() throws {
        let failure = CurlError.couldntResolveHost.with(message: "quote \" backslash \\ newline \n tab \t bell \u{7}")
        let items = [try item("a.test", ["::1"], ttl: 7), ResolveListing.Item(host: "x.test", result: .failure(failure))]
        let json = ResolveListing.render(items, port: 8443, format: .json)
        let parsed = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(parsed[0]["entry"] as? String == "a.test:8443:[::1]")
        #expect(parsed[0]["ttl"] as? Int == 7)
        #expect(parsed[1]["error"] as? String == failure.message)
        #expect(parsed[1]["exitcode"] as? Int == 6)
    }
}

@Suite struct FormDataTests {
    @Test func joinsWithAmpersandAndStripsNewlinesFromFiles() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ipcurl-form-\(UUID().uuidString)").path
        try "a=1\r\nb=2\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try FormData.join(["x=1", "@" + path, "y=\n2"]) == Array("x=1&a=1b=2&y=\n2".utf8))
    }

    @Test func missingFileIsExit26() {
        #expect(throws: CurlError.readError) { try FormData.join(["@/nonexistent/file"]) }
    }
}
