import Foundation
import Testing

/// `--retry` against the echo backend's flaky endpoint, which fails a key's first N requests.
@Suite struct RetryTests: LabSuite {
    let fixture: LabFixture
    init() throws {
        fixture = try LabFixture()
    }

    private func key() -> String { "k\(UInt64.random(in: 0...UInt64.max))" }

    @Test(arguments: [503, 429, 408, 500, 502, 504])
    func transientStatusesAreRetried(status: Int) throws {
        let key = key()
        let result = try ipcurl(aliyun + ["--retry", "3", "--retry-delay", "0.05",
                                          lab.api("a.test", "flaky?key=\(key)&fails=2&code=\(status)")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "failure 1\nfailure 2\nok after 2 failures\n", "stdout cannot start over; as curl, every attempt's body is there")
        #expect(try lab.hits(key) == 3)
        let warnings = result.stderr.split(separator: "\n")
        #expect(warnings.first == "ipcurl: warning: Problem : HTTP error. Will retry in 0 seconds. 3 retries left.")
        #expect(warnings.count == 2)
    }

    @Test func outOfRetriesTheLastAnswerStands() throws {
        let key = key()
        let result = try ipcurl(aliyun + ["--retry", "1", "--retry-delay", "0.05", "-o", "/dev/null", "-w", "%{http_code}",
                                          lab.api("a.test", "flaky?key=\(key)&fails=5&code=503")])
        #expect(result.status == 0 && result.stdout == "503")
        #expect(try lab.hits(key) == 2)
        let failing = try ipcurl(aliyun + ["-f", "--retry", "1", "--retry-delay", "0.05",
                                           lab.api("a.test", "flaky?key=\(key)X&fails=5&code=503")])
        #expect(failing.status == 22)
    }

    @Test func permanentFailuresAreNotRetried() throws {
        let key = key()
        let result = try ipcurl(aliyun + ["--retry", "3", "--retry-delay", "0.05", lab.api("a.test", "flaky?key=\(key)&fails=1&code=404")])
        let hits = try lab.hits(key)
        #expect(result.status == 0 && hits == 1 && result.stderr.isEmpty)
        let all = try ipcurl(aliyun + ["-f", "--retry", "3", "--retry-all-errors", "--retry-delay", "0.05",
                                       lab.api("a.test", "flaky?key=\(key)B&fails=1&code=404")])
        let allHits = try lab.hits(key + "B")
        #expect(all.status == 0 && allHits == 2, "--retry-all-errors retries the 22")
    }

    @Test func retryAfterIsHonoured() throws {
        let key = key()
        let started = Date()
        let result = try ipcurl(aliyun + ["--retry", "1", "--retry-delay", "0.05",
                                          lab.api("a.test", "flaky?key=\(key)&fails=1&code=429&retry_after=1")])
        #expect(result.status == 0 && result.stderr.contains("Will retry in 1 seconds"))
        #expect(Date().timeIntervalSince(started) >= 1.0, "waited the server's Retry-After, not --retry-delay")
        let tooLong = try ipcurl(aliyun + ["--retry", "1", "--retry-max-time", "1", "-o", "/dev/null", "-w", "%{http_code}",
                                           lab.api("a.test", "flaky?key=\(key)Z&fails=1&code=503&retry_after=30")])
        let tooLongHits = try lab.hits(key + "Z")
        #expect(tooLong.stdout == "503" && tooLongHits == 1, "Retry-After beyond --retry-max-time: no retry")
    }

    @Test func refusedConnectionsOnlyWithRetryConnrefused() throws {
        let target = ["--resolve", "a.test:\(lab.httpsPort):127.0.0.9", lab.https("a.test")]
        let plain = try ipcurl(aliyun + ["--retry", "1", "--retry-delay", "0.05"] + target)
        #expect(plain.status == 7 && !plain.stderr.contains("Will retry"))
        let retried = try ipcurl(aliyun + ["--retry", "1", "--retry-delay", "0.05", "--retry-connrefused"] + target)
        #expect(retried.status == 7 && retried.stderr.contains("Problem : connection refused. Will retry in 0 seconds. 1 retry left."))
    }

    @Test func aRetryStartsTheOutputFileOver() throws {
        let scratch = try TemporaryDirectory()
        let key = key()
        let out = scratch.path + "/out.txt"
        let result = try ipcurl(aliyun + ["--retry", "2", "--retry-delay", "0.05", "-o", out,
                                          lab.api("a.test", "flaky?key=\(key)&fails=1&code=500")])
        #expect(result.status == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "ok after 1 failures\n")
    }
}
