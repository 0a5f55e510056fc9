import Foundation
import Testing

/// Differences kept on purpose ([docs/differences.md](../../../docs/differences.md#files-named-by-options)): a file an
/// option names that cannot be read or created stops ipcurl with curl's exit code and one line before anything is
/// sent, where curl 7.88.1 warns and sends the request. The lab's hit counter shows which tool reached the server.
@Suite struct UnreadableInputTests: LabSuite {
    let fixture: LabFixture
    let scratch: TemporaryDirectory
    init() throws {
        fixture = try LabFixture()
        scratch = try TemporaryDirectory()
    }

    /// The options (`FILE` is a path that cannot be read, or written under a missing directory), ipcurl's exit code
    /// and its one line.
    static let cases: [([String], Int32, String)] = [
        (["-H", "@FILE"], 26, "ipcurl: (26) Failed to open FILE: No such file or directory"),
        (["--data-urlencode", "a@FILE"], 26, "ipcurl: (26) Failed to open FILE: No such file or directory"),
        (["-w", "@FILE"], 26, "ipcurl: (26) Failed to open FILE: No such file or directory"),
        (["--trace-ascii", "FILE"], 23, "ipcurl: Failed to create/open output: FILE"),
        (["--trace", "FILE"], 23, "ipcurl: Failed to create/open output: FILE"),
    ]

    @Test(arguments: cases)
    func ipcurlStopsBeforeSendingWhereCurlSends(options: [String], status: Int32, line: String) throws {
        let path = scratch.path + "/absent/file"
        let filled = options.map { $0.replacingOccurrences(of: "FILE", with: path) }
        let key = "unreadable-\(UInt64.random(in: 0...UInt64.max))"
        let url = lab.api("a.test", "flaky?key=\(key)&fails=1")
        let mine = try oracle.ours(["-sS"] + filled + [url])
        #expect(mine.status == status)
        #expect(mine.stderr == line.replacingOccurrences(of: "FILE", with: path) + "\n")
        #expect(try lab.hits(key) == 0)
        let curls = try oracle.theirs(["-q", "-sS"] + filled + [url])
        #expect(curls.status == 0, "curl sends the request anyway: \(curls.stderr)")
        #expect(try lab.hits(key) == 1)
    }

    @Test func anUnterminatedQuoteInAConfigFileStopsWhereCurlSendsTheRestOfTheLine() throws {
        let config = scratch.path + "/open-quote"
        try "request = PUT\r\ndata = \"abc\r\n".write(toFile: config, atomically: true, encoding: .utf8)
        let key = "open-quote-\(UInt64.random(in: 0...UInt64.max))"
        let mine = try oracle.ours(["-sS", "-K", config, lab.api("a.test", "flaky?key=\(key)&fails=1")])
        #expect(mine.status == 2)
        #expect(mine.stderr == "ipcurl: \(config):2: unterminated quoted value (see 'ipcurl --help')\n")
        #expect(try lab.hits(key) == 0)
        // curl sends the rest of the line, CR and LF included, as the body
        let curls = try oracle.theirs(["-q", "-sS", "-K", config, lab.api("a.test", "echo")])
        #expect(curls.status == 0, "\(curls.stderr)")
        let echo = try Echo(curls.stdout)
        #expect(echo.method == "PUT" && echo.bodyLength == "abc\r\n".utf8.count)
    }
}
