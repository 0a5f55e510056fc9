import Foundation
import Testing

/// `--json` (joined without `&`, JSON's Content-Type and Accept unless -H sets them) and `-H @FILE`, each against
/// curl 7.88.1: the echo backend reports the same method, headers and body.
@Suite struct JSONAndHeaderFileTests: LabSuite {
    let fixture: LabFixture
    let files: TemporaryDirectory
    init() throws {
        fixture = try LabFixture()
        files = try TemporaryDirectory()
        try "X-F: 1\r\nX-G: two words\n\n".write(toFile: files.path + "/headers", atomically: true, encoding: .utf8)
        try "{\"from\":\"file\"}\n".write(toFile: files.path + "/body.json", atomically: true, encoding: .utf8)
    }

    @Test(arguments: [
        ["--json", "{\"a\":1}"], ["--json", "{\"a\":1}", "--json", "{\"b\":2}"], ["-d", "x", "--json", "{\"a\":1}"],
        ["--json", "{\"a\":1}", "-d", "x", "--json", "y"], ["--json", "@DIR/body.json"], ["--json", "a", "-G"],
        ["-H", "Content-Type: text/q", "--json", "a"], ["-H", "accept: text/x", "--json", "a"],
        ["-H", "@DIR/headers"], ["-H", "@DIR/headers", "--json", "1", "-H", "X-H: 3"],
    ])
    func requestsMatchCurl(arguments: [String]) throws {
        let resolved = arguments.map { $0.replacingOccurrences(of: "DIR", with: files.path) }
        try oracle.compare(["-A", "same"] + resolved + [oracle.lab.api("a.test", "echo")])
    }

    @Test func anUnreadableHeaderFileIsExit26() throws {
        let run = try oracle.ours(["-sS", "-H", "@" + files.path + "/absent", oracle.lab.api("a.test", "echo")])
        #expect(run.status == 26, "\(run.stderr)")
    }
}
