import Foundation
import Testing

/// `-w` against the real curl CLI: the same request through `curl --resolve` prints the same values.
@Suite struct WriteOutOracleTests: LabSuite {
    let fixture: LabFixture
    init() throws {
        fixture = try LabFixture()
    }

    /// Values that do not depend on timing or on which tool sent the request.
    static let stable = ["http_code", "response_code", "num_redirects", "url_effective", "redirect_url", "size_download",
                         "size_upload", "content_type", "remote_ip", "remote_port", "local_ip", "scheme", "http_version", "method",
                         "exitcode", "ssl_verify_result", "num_headers", "url", "filename_effective", "num_connects", "size_request",
                         "num_certs", "certs"]
    static var format: String { stable.map { "\($0)=%{\($0)}" }.joined(separator: "\\n") + "\\nct=%header{content-type}" }

    private func compare(_ arguments: [String], hosts: [String]) throws {
        let common = ["-s", "-A", "oracle/1", "-w", Self.format] + arguments
        let ours = try ipcurl(aliyun + common)
        let resolves = hosts.flatMap { ["--resolve", "\($0):\(lab.httpsPort):\(lab.ip)"] }
        let theirs = try run("/usr/bin/curl", ["--cacert", lab.ca] + resolves + common)
        #expect(ours.status == theirs.status)
        let mine = ours.stdout.split(separator: "\n"), curls = theirs.stdout.split(separator: "\n")
        #expect(mine.count == curls.count)
        for (line, expected) in zip(mine, curls) { #expect(line == expected, "\(arguments)") }
    }

    @Test func headerJSONMatchesCurl() throws {
        let url = lab.api("a.test", "set-cookie?a=1&b=2")
        let common = ["-s", "-o", "/dev/null", "-w", "%{header_json}", url]
        let ours = try ipcurl(aliyun + common)
        let theirs = try run("/usr/bin/curl", ["--cacert", lab.ca, "--resolve", "a.test:\(lab.httpsPort):\(lab.ip)"] + common)
        let undated = { (text: String) in text.split(separator: "\n").filter { !$0.hasPrefix("\"date\"") } }
        #expect(ours.status == 0 && undated(ours.stdout) == undated(theirs.stdout), "\(ours.stdout)")
        #expect(ours.stdout.contains("\"set-cookie\":[\"a=1; Path=/\",\"b=2; Path=/\"]"))
    }

    @Test func aFormatFileLosesItsLineEndingsAsCurlReadsIt() throws {
        let scratch = try TemporaryDirectory()
        let long = String(repeating: "x", count: 300) + "\r" + String(repeating: "y", count: 300) + "\ry\n"
        try "code=%{http_code}\r\nsize=%{size_download}\n\\n\nA\rB\n\(long)end\n".write(toFile: scratch.path + "/format", atomically: true, encoding: .utf8)
        let common = ["-s", "-o", "/dev/null", "-w", "@" + scratch.path + "/format", lab.api("a.test", "status?code=201")]
        let ours = try ipcurl(aliyun + common)
        let theirs = try run("/usr/bin/curl", ["--cacert", lab.ca, "--resolve", "a.test:\(lab.httpsPort):\(lab.ip)"] + common)
        #expect(ours.status == 0 && ours.stdout == theirs.stdout && ours.stdout.hasPrefix("code=201size="), "\(ours.stdout)")
    }

    @Test func singleRequestMatchesCurl() throws {
        try compare(["-o", "/dev/null", lab.api("a.test", "echo?x=1")], hosts: ["a.test"])
        // The backend reads the body before it answers (nginx's own 404 may not), so size_upload is not a race.
        try compare(["-d", "a=1", "-o", "/dev/null", lab.api("a.test", "status?code=404")], hosts: ["a.test"])
    }

    @Test func redirectChainMatchesCurl() throws {
        let chain = lab.redirect("a.test", 302, to: lab.redirect("b.test", 307, to: lab.api("b.test", "echo")))
        try compare(["-L", "-o", "/dev/null", chain], hosts: ["a.test", "b.test"])
        try compare(["-L", "-d", "x=1", "-o", "/dev/null", chain], hosts: ["a.test", "b.test"])
        try compare(["-o", "/dev/null", chain], hosts: ["a.test"])
    }

    @Test func failuresMatchCurl() throws {
        try compare(["-f", lab.https("a.test", "/status/404")], hosts: ["a.test"])
        try compare(["-L", "--max-redirs", "2", lab.api("a.test", "loop")], hosts: ["a.test"])
    }

    @Test func jsonHasCurlsKeysAndTimesAddUp() throws {
        let chain = lab.redirect("a.test", 302, to: lab.api("b.test", "echo"))
        let ours = try ipcurl(aliyun + ["-s", "-L", "-o", "/dev/null", "-w", "%{json}", chain])
        let theirs = try run("/usr/bin/curl", ["-s", "-L", "-o", "/dev/null", "-w", "%{json}", "--cacert", lab.ca,
                                               "--resolve", "a.test:\(lab.httpsPort):\(lab.ip)", "--resolve", "b.test:\(lab.httpsPort):\(lab.ip)", chain])
        let mine = try JSONSerialization.jsonObject(with: ours.stdoutBytes) as? [String: Any] ?? [:]
        let curls = try JSONSerialization.jsonObject(with: theirs.stdoutBytes) as? [String: Any] ?? [:]
        let expected = Set(curls.keys).union(["dns_source", "dns_time"])
        #expect(Set(mine.keys) == expected)
        #expect(mine["certs"] as? String == curls["certs"] as? String && (mine["num_certs"] as? Int) == 1)
        let total = mine["time_total"] as? Double ?? 0, redirect = mine["time_redirect"] as? Double ?? 0
        #expect(redirect > 0 && redirect < total && (mine["num_redirects"] as? Int) == 1)
        #expect((mine["time_namelookup"] as? Double ?? 1) <= (mine["time_connect"] as? Double ?? 0))
    }
}
