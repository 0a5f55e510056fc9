import CurlKit
import Foundation
@testable import IPCurlCore
import Testing

/// curl's redirect and retry rules, and the `-o` file's temporary-file life cycle.
@Suite struct TransferRulesTests {
    @Test func methodSwitchesAsCurlDoes() {
        var rules = RedirectRules()
        #expect(rules.switchesToGet(status: 301, method: "POST") && rules.switchesToGet(status: 302, method: "POST"))
        #expect(!rules.switchesToGet(status: 301, method: "PUT"), "301/302 only change POST")
        #expect(rules.switchesToGet(status: 303, method: "PUT") && !rules.switchesToGet(status: 303, method: "HEAD"))
        #expect(!rules.switchesToGet(status: 307, method: "POST") && !rules.switchesToGet(status: 308, method: "POST"))
        rules.keepPost301 = true
        rules.keepPost303 = true
        #expect(!rules.switchesToGet(status: 301, method: "POST") && rules.switchesToGet(status: 302, method: "POST"))
        #expect(!rules.switchesToGet(status: 303, method: "POST") && rules.switchesToGet(status: 303, method: "GET"))
        #expect(RedirectRules.isFollowed(status: 307) && RedirectRules.isFollowed(status: 304) && !RedirectRules.isFollowed(status: 200))
    }

    @Test func credentialsStayWithTheOrigin() throws {
        let origin = try CurlURL("https://a.test/x")
        var rules = RedirectRules()
        #expect(rules.sendsCredentials(to: try CurlURL("https://A.TEST:443/y"), origin: origin))
        #expect(!rules.sendsCredentials(to: try CurlURL("https://b.test/y"), origin: origin))
        #expect(!rules.sendsCredentials(to: try CurlURL("https://a.test:8443/y"), origin: origin))
        #expect(!rules.sendsCredentials(to: try CurlURL("http://a.test/y"), origin: origin))
        rules.trusted = true
        #expect(rules.sendsCredentials(to: try CurlURL("https://b.test/y"), origin: origin))
        #expect(FetchRun.isCredentialHeader("Authorization: Bearer x") && FetchRun.isCredentialHeader("cookie;"))
        #expect(FetchRun.isCredentialHeader("COOKIE : a=b") && !FetchRun.isCredentialHeader("X-Authorization: x"))
    }

    @Test func locationUserInfoGoesOnlyWhereCredentialsMay() throws {
        let origin = try CurlURL("https://a.test/x")
        var rules = RedirectRules()
        let other = try CurlURL("https://user:pw@b.test/y"), same = try CurlURL("https://user:pw@a.test/y")
        #expect(rules.userInfo(for: other, origin: origin, remembered: other) == nil, "another host: no user info")
        #expect(rules.userInfo(for: same, origin: origin, remembered: same) == "user:pw")
        // Remembered user info goes on to later hops of its own server only, unless trusted.
        #expect(rules.userInfo(for: try CurlURL("https://a.test/z"), origin: origin, remembered: same) == "user:pw")
        #expect(rules.userInfo(for: try CurlURL("https://a.test/z"), origin: origin, remembered: other) == nil)
        rules.trusted = true
        #expect(rules.userInfo(for: other, origin: origin, remembered: other) == "user:pw")
        #expect(rules.userInfo(for: try CurlURL("https://c.test/z"), origin: origin, remembered: same) == "user:pw")
        #expect(rules.userInfo(for: try CurlURL("https://c.test/z"), origin: origin, remembered: nil) == nil)
    }

    @Test func userInfoIsReplacedInTheRequestedURL() throws {
        let url = try CurlURL("https://us%3Aer:p%40w@b.test:8443/y?q=1")
        #expect(url.text(withUserInfo: nil) == "https://b.test:8443/y?q=1")
        #expect(url.text(withUserInfo: url.userInfo) == url.text)
        let plain = try CurlURL("https://b.test/y")
        #expect(plain.text(withUserInfo: "u:p%40") == "https://u:p%40@b.test/y")
        #expect(plain.text(withUserInfo: "u") == "https://u@b.test/y")
    }

    @Test func transientFailuresAreRecognised() {
        var rules = RetryRules()
        rules.count = 3
        let http = { (status: Int) in RetryRules.Attempt(error: nil, status: status) }
        for status in [408, 429, 500, 502, 503, 504] { #expect(rules.reason(for: http(status)) == .http) }
        #expect(rules.reason(for: http(404)) == nil && rules.reason(for: http(200)) == nil && rules.reason(for: http(501)) == nil)
        #expect(rules.reason(for: .init(error: .operationTimedOut, status: 0)) == .timeout)
        let refused = RetryRules.Attempt(error: .couldntConnect, status: 0, osErrno: 111)
        #expect(rules.reason(for: refused) == nil)
        rules.connectionRefused = true
        #expect(rules.reason(for: refused) == .refused)
        #expect(rules.reason(for: .init(error: .peerFailedVerification, status: 0)) == nil)
        rules.allErrors = true
        #expect(rules.reason(for: .init(error: .peerFailedVerification, status: 0)) == .allErrors)
        #expect(rules.reason(for: http(404)) == nil, "not a failure without -f")
        #expect(rules.reason(for: .init(error: .httpReturnedError, status: 404)) == .allErrors)
        #expect(RetryRules().reason(for: .init(error: .writeError, status: 503)) == nil, "a 503 that failed to be written is not retried")
    }

    @Test func waitsDoubleHonourRetryAfterAndStopInTime() {
        var rules = RetryRules()
        let plain = RetryRules.Attempt(error: nil, status: 503)
        #expect(rules.wait(for: plain, reason: .http, retriesLeft: 2, backoffMS: 1000, elapsedMS: 0) == 1000)
        #expect(rules.nextBackoff(after: 1000) == 2000 && rules.nextBackoff(after: 500_000) == 600_000)
        #expect(rules.wait(for: plain, reason: .http, retriesLeft: 0, backoffMS: 1000, elapsedMS: 0) == nil)
        let later = RetryRules.Attempt(error: nil, status: 429, retryAfterSeconds: 7)
        #expect(rules.wait(for: later, reason: .http, retriesLeft: 1, backoffMS: 1000, elapsedMS: 0) == 7000)
        rules.delayMS = 250
        #expect(rules.wait(for: plain, reason: .http, retriesLeft: 1, backoffMS: 1000, elapsedMS: 0) == 250)
        #expect(rules.nextBackoff(after: 1000) == 1000, "a fixed --retry-delay does not double")
        rules.maxTimeMS = 5000
        #expect(rules.wait(for: later, reason: .http, retriesLeft: 1, backoffMS: 1000, elapsedMS: 0) == nil, "Retry-After past the budget")
        #expect(rules.wait(for: plain, reason: .http, retriesLeft: 1, backoffMS: 1000, elapsedMS: 5000) == nil)
    }

    @Test func outputFileIsRenamedOnlyOnCommit() throws {
        let directory = NSTemporaryDirectory() + "ipcurl-out-\(UInt32.random(in: 0...UInt32.max))"
        let path = directory + "/sub/out.txt"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let temporaries = { ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/sub")) ?? []).filter { $0.hasPrefix(".out.txt.ipcurl-") } }
        let output = OutputFile(path: path, createDirectories: true)
        #expect("abc".utf8.withContiguousStorageIfAvailable { output.write(UnsafeRawBufferPointer($0)) } == true)
        #expect(temporaries().count == 1 && !FileManager.default.fileExists(atPath: path))
        output.discard()
        #expect(temporaries().isEmpty && !FileManager.default.fileExists(atPath: path))
        #expect("second".utf8.withContiguousStorageIfAvailable { output.write(UnsafeRawBufferPointer($0)) } == true)
        try output.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second" && temporaries().isEmpty)
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0
        let mask = umask(0); umask(mask)
        #expect(mode == 0o666 & ~Int(mask))
        let devNull = OutputFile(path: "/dev/null")
        #expect("x".utf8.withContiguousStorageIfAvailable { devNull.write(UnsafeRawBufferPointer($0)) } == true)
        try devNull.commit()
        #expect(FileManager.default.fileExists(atPath: "/dev/null"), "a device is written directly, never renamed over")
    }
}
