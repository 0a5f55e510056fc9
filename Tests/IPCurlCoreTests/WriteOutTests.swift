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
        report.times.total = 1_234_567
        report.times.connect = 42
        report.exitCode = 0
        report.dnsSource = "cache"
        report.times.dns = 1_500
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
        #expect(text("a\\nb\\tc\\rd\\\\e 100%% \\q %x") == "a\nb\tc\rd\\\\e 100% \\q %x")  // curl 7.88 keeps an escaped backslash as two
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

    @Test func namesAreCaseInsensitiveAndOnErrorStopsOnSuccess() {
        #expect(text("%{HTTP_CODE} %{Url}") == "204 https://a.test/")
        #expect(text("a%{onerror}b") == "a")
        var failed = report
        failed.exitCode = 7
        failed.errorMessage = "refused"
        #expect(WriteOut("a%{onerror}b %{errormsg}", report: failed).segments.first?.text == "ab refused")
    }

    @Test func headerVariableTakesTheFirstValueOfTheFinalResponse() {
        var report = report
        for line in ["HTTP/1.1 100 Continue\r\n", "X-Early: 1\r\n", "\r\n",
                     "HTTP/1.1 200 OK\r\n", "X-Dup: first\r\n", "x-dup: second\r\n", "\r\n"] {
            report.responseHeaders.receive(line)
        }
        let rendered = WriteOut("[%header{X-DUP}] [%header{x-early}] [%header{}] %{num_headers} %header{open", report: report)
        #expect(rendered.segments.first?.text == "[first] [] [] 2 %header{open")
        #expect(rendered.unknownVariables.isEmpty)
    }

    @Test func jsonHasCurlsKeysTypesAndOrder() throws {
        var report = report
        report.curlVersion = "libcurl/7.88.1"
        report.contentType = "text/x; a=\"\u{1}\\\" é"
        let json = WriteOut("%{json}", report: report).segments.map(\.text).joined()
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let keys = ["certs", "content_type", "dns_source", "dns_time", "errormsg", "exitcode", "filename_effective",
                    "ftp_entry_path", "http_code", "http_connect", "http_version", "local_ip", "local_port", "method",
                    "num_connects", "num_certs", "num_headers", "num_redirects", "proxy_ssl_verify_result", "redirect_url",
                    "referer", "remote_ip", "remote_port", "response_code", "scheme", "size_download", "size_header",
                    "size_request", "size_upload", "speed_download", "speed_upload", "ssl_verify_result",
                    "time_appconnect", "time_connect", "time_namelookup", "time_pretransfer", "time_redirect",
                    "time_starttransfer", "time_total", "url", "url_effective", "urlnum", "curl_version"]
        #expect(Set(object.keys) == Set(keys))
        let positions = keys.map { json.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted() && !positions.contains(nil))
        #expect(object["http_code"] as? Int == 204 && json.contains("\"http_code\":204,"))
        #expect(json.contains("\"time_total\":1.234567,") && json.contains("\"time_appconnect\":0.000000,"))
        #expect(object["time_total"] as? Double == 1.234567)
        #expect(object["remote_ip"] as? String == "::1" && object["http_version"] as? String == "0")
        #expect(object["content_type"] as? String == report.contentType)
        for key in ["errormsg", "redirect_url", "referer", "scheme", "filename_effective", "ftp_entry_path"] {
            #expect(object[key] is NSNull, "\(key)")
        }
        #expect(object["method"] as? String == "GET" && object["curl_version"] as? String == "libcurl/7.88.1")
        #expect(json.hasSuffix("\"curl_version\":\"libcurl/7.88.1\"}"))
        var failed = report
        failed.exitCode = 6
        failed.errorMessage = "Could not resolve host: a.test"
        let failure = try #require(JSONSerialization.jsonObject(with: Data(WriteOut("%{json}", report: failed).segments[0].text.utf8)) as? [String: Any])
        #expect(failure["errormsg"] as? String == failed.errorMessage && failure["exitcode"] as? Int == 6)
    }
}

@Suite struct ResolveListingTests {
    private func item(_ host: String, _ addresses: [String], ttl: UInt32 = 60) throws -> ResolveListing.Item {
        let answer = ResolverAnswer(host: host, addresses: addresses.compactMap { IPAddress($0) }, ttl: ttl,
                                    source: .provider(.doh, server: "https://d.test:443/dns-query"))
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
