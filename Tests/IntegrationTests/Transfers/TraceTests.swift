import Foundation
import Testing

/// `--trace`, `--trace-ascii`, `--trace-time` and `--stderr`, against curl 7.88.1 over plain HTTP (no TLS
/// records, so the dumps are deterministic): the same blocks, byte counts and dump lines, Info lines and the
/// Date header aside; credentials are redacted where curl dumps them.
@Suite struct TraceTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    /// The dump without `== Info` lines (each tool reports its own steps) and without the Date header's block.
    private func comparable(_ dump: String) -> [String] {
        var kept: [String] = [], skipping = false
        let lines = dump.split(separator: "\n").map(String.init)
        for (index, line) in lines.enumerated() where !line.contains("== Info:") {
            if line.hasPrefix("<=") || line.hasPrefix("=>") {
                skipping = index + 1 < lines.count && lines[index + 1].contains("Date: ")
            }
            if !skipping { kept.append(line) }
        }
        return kept
    }

    @Test(arguments: ["--trace", "--trace-ascii"])
    func dumpsMatchCurl(option: String) throws {
        let directory = try TemporaryDirectory()
        let url = "http://a.test:\(oracle.lab.httpPort)/api/echo"
        let common = ["-s", "-A", "same", "-d", "a=1&b=two", "-o", "/dev/null"]
        let mine = try oracle.ours(common + [option, directory.path + "/ours", url])
        let curls = try oracle.theirs(common + [option, directory.path + "/theirs", url])
        #expect(mine.status == 0 && curls.status == 0, "\(mine.stderr)")
        let ours = try String(contentsOfFile: directory.path + "/ours", encoding: .utf8)
        let theirs = try String(contentsOfFile: directory.path + "/theirs", encoding: .utf8)
        #expect(comparable(ours) == comparable(theirs))
        #expect(ours.contains("=> Send data, 9 bytes (0x9)"))
    }

    @Test func credentialsAreRedactedAndTimesStamped() throws {
        let directory = try TemporaryDirectory()
        let url = "http://a.test:\(oracle.lab.httpPort)/api/status?code=200"  // a response that does not echo the request
        let run = try oracle.ours(["-s", "-u", "user:hunter2", "-H", "Cookie: c=secret", "--trace-ascii", directory.path + "/t",
                                   "--trace-time", "-o", "/dev/null", url])
        #expect(run.status == 0, "\(run.stderr)")
        let dump = try String(contentsOfFile: directory.path + "/t", encoding: .utf8)
        #expect(dump.contains("Authorization: [redacted]") && dump.contains("Cookie: [redacted]"))
        #expect(!dump.contains("hunter2") && !dump.contains("secret") && !dump.contains("dXNlcjpodW50ZXIy"))
        let stamped = dump.split(separator: "\n").filter { $0.contains("=> Send header") }
        #expect(stamped.count == 1 && stamped[0].dropFirst(2).hasPrefix(":") && stamped[0].prefix(16).last == " ")
    }

    @Test(arguments: ["--trace", "--trace-ascii"])
    func stampedDumpsMatchCurl(option: String) throws {
        let directory = try TemporaryDirectory()
        let url = "http://a.test:\(oracle.lab.httpPort)/api/echo"
        let common = ["-s", "-A", "same", "-d", "a=1&b=two", "-o", "/dev/null", "--trace-time"]
        let mine = try oracle.ours(common + [option, directory.path + "/ours", url])
        let curls = try oracle.theirs(common + [option, directory.path + "/theirs", url])
        #expect(mine.status == 0 && curls.status == 0, "\(mine.stderr)")
        // curl stamps every event line with HH:MM:SS.uuuuuu and a blank, and no dump line; so must ipcurl.
        let stamp = try NSRegularExpression(pattern: #"^[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]{6} (?=[=<])"#)
        func unstamped(_ path: String) throws -> (String, Int) {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            var stamped = 0
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                let line = String(line)
                guard let match = stamp.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { return line }
                stamped += 1
                return String(line.dropFirst(match.range.length))
            }
            return (lines.joined(separator: "\n"), stamped)
        }
        let (ours, ourStamps) = try unstamped(directory.path + "/ours")
        let (theirs, theirStamps) = try unstamped(directory.path + "/theirs")
        #expect(theirStamps > 0 && ourStamps == ours.split(separator: "\n").filter { $0.hasPrefix("==") || $0.hasPrefix("=>") || $0.hasPrefix("<=") }.count)
        #expect(comparable(ours) == comparable(theirs))
    }

    @Test func stderrGoesToAFileAsCurls() throws {
        let directory = try TemporaryDirectory()
        let run = try oracle.ours(["-sS", "--stderr", directory.path + "/err", "http://127.0.0.1:1/"])
        let curls = try oracle.theirs(["-sS", "--stderr", directory.path + "/curl", "http://127.0.0.1:1/"])
        #expect(run.status == 7 && run.stderr.isEmpty)
        #expect(curls.status == 7 && curls.stderr.isEmpty)
        let ours = try String(contentsOfFile: directory.path + "/err", encoding: .utf8)
        let theirs = try String(contentsOfFile: directory.path + "/curl", encoding: .utf8)
        #expect(ours.hasPrefix("ipcurl: (7)"))
        #expect(ours.dropFirst("ipcurl".count) == theirs.dropFirst("curl".count), "\(ours) against \(theirs)")
        // `--stderr -` is stdout, as in curl.
        let dash = try oracle.ours(["-sS", "--stderr", "-", "http://127.0.0.1:1/"])
        #expect(dash.status == 7 && dash.stderr.isEmpty && dash.stdout.hasPrefix("ipcurl: (7)"), "\(dash.stdout)\(dash.stderr)")
    }
}
