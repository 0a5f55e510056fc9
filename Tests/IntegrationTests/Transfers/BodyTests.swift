import Foundation
import Testing

/// Request bodies streamed through libcurl's read callback: the echo backend reports what arrived.
@Suite struct BodyTests: LabSuite {
    let fixture: LabFixture
    init() throws {
        fixture = try LabFixture()
    }

    @Test func sixteenMebibytesFromAFileAndFromStdinArriveIntact() throws {
        let scratch = try TemporaryDirectory()
        let path = try randomFile(scratch, "16m.bin", bytes: 16 << 20)
        let digest = try sha256(ofFile: path)
        let fromFile = try Echo(try ipcurl(aliyun + ["--data-binary", "@" + path, lab.api("a.test", "echo")]).stdout)
        #expect(fromFile.bodySHA256 == digest && fromFile.bodyLength == 16 << 20)
        #expect(fromFile.headers["x-lab-client-length"] == String(16 << 20), "a known Content-Length is sent")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let fromStdin = try Echo(try ipcurl(aliyun + ["--data-binary", "@-", lab.api("a.test", "echo")], stdin: data).stdout)
        #expect(fromStdin.bodySHA256 == digest && fromStdin.headers["x-lab-client-length"] == String(16 << 20))
        let upload = try Echo(try ipcurl(aliyun + ["-T", path, lab.api("a.test", "echo")]).stdout)
        #expect(upload.method == "PUT" && upload.bodySHA256 == digest && upload.headers["x-lab-client-length"] == String(16 << 20))
        let streamed = try Echo(try ipcurl(aliyun + ["--http1.1", "-T", "-", lab.api("a.test", "echo")], stdin: data).stdout)
        #expect(streamed.bodySHA256 == digest && streamed.headers["x-lab-client-te"] == "chunked", "stdin -T is chunked")
    }

    @Test func stdinUploadIsReplayedAfterA307() throws {
        let data = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let result = try ipcurl(aliyun + ["-L", "-T", "-", lab.redirect("a.test", 307, to: lab.api("replay.any.test", "echo"))], stdin: data)
        #expect(result.status == 0, "\(result.stderr)")
        let echo = try Echo(result.stdout)
        #expect(echo.method == "PUT" && echo.bodyLength == data.count)
    }

    @Test func dataOptionsJoinInCommandLineOrder() throws {
        let scratch = try TemporaryDirectory()
        let lines = scratch.path + "/lines.txt"
        try "one\r\ntwo\nthree".write(toFile: lines, atomically: true, encoding: .utf8)
        let result = try ipcurl(aliyun + ["-d", "a=1", "--data-binary", "b=2\n", "--data-urlencode", "c=x y&z", "-d", "@" + lines,
                                          "--data-raw", "@lit", lab.api("a.test", "echo")])
        let echo = try Echo(result.stdout)
        let expected = "a=1&b=2\n&c=x+y%26z&onetwothree&@lit"  // curl 7.88 encodes a space as +
        let digest = try run("/bin/sh", ["-c", "printf '%s' \"$0\" | sha256sum", expected]).stdout.prefix(64)
        #expect(echo.bodySHA256 == String(digest) && echo.method == "POST")
        #expect(echo.contentType == "application/x-www-form-urlencoded")
    }

    @Test func getPutsTheDataInTheQuery() throws {
        let echo = try Echo(try ipcurl(aliyun + ["-G", "-d", "a=1", "--data-urlencode", "q=hello world", lab.api("a.test", "echo?x=0")]).stdout)
        #expect(echo.method == "GET" && echo.query == "x=0&a=1&q=hello+world" && echo.bodyLength == 0)
    }

    @Test func formPartsAreMultipartWithTheFileStreamed() throws {
        let scratch = try TemporaryDirectory()
        let path = try randomFile(scratch, "part.bin", bytes: 100_000)
        let echo = try Echo(try ipcurl(aliyun + ["-F", "name=value", "-F", "file=@\(path);type=application/x-test",
                                                 lab.api("a.test", "echo")]).stdout)
        #expect(echo.method == "POST" && echo.contentType.hasPrefix("multipart/form-data; boundary="))
        #expect(echo.bodyLength > 100_000 && echo.headers["x-lab-client-length"] == String(echo.bodyLength))
        let missing = try ipcurl(aliyun + ["-F", "file=@/nonexistent/x", lab.api("a.test", "echo")])
        #expect(missing.status == 26 && missing.stderr.split(separator: "\n").count == 1)
    }

    @Test func conflictingBodiesAreAUsageError() throws {
        let result = try ipcurl(aliyun + ["-d", "a", "-F", "b=c", lab.api("a.test", "echo")])
        #expect(result.status == 2 && result.stderr.hasPrefix("ipcurl: ") && result.stderr.split(separator: "\n").count == 1)
    }

    @Test func passwordIsBlankedFromTheProcessList() throws {
        // /api/delay keeps the process alive long enough to read its /proc/PID/cmdline.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ipcurlBinary())
        process.arguments = aliyun + ["-o", "/dev/null", "-su", "bob:hunter2", lab.api("a.test", "delay?ms=1500")]
        var environment = ProcessInfo.processInfo.environment
        let scratch = try TemporaryDirectory()
        environment["IPCURL_CACHE_DIR"] = scratch.path
        process.environment = environment
        try process.run()
        var cmdline = ""
        for _ in 0..<40 {
            Thread.sleep(forTimeInterval: 0.05)
            cmdline = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/cmdline", encoding: .utf8)) ?? ""
            if !cmdline.contains("hunter2"), cmdline.contains("delay") { break }
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(cmdline.contains("delay") && !cmdline.contains("hunter2"), "\(cmdline)")
    }
}
