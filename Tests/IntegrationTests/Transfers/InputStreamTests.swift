import Foundation
import Testing

/// Inputs that are streams, compared with curl 7.88.1 where curl's behaviour is the goal: a bash process
/// substitution `<(cmd)` for every option that reads a file, a list of files in one `-F` part (the bytes sent,
/// boundaries aside), and the cases where ipcurl sends what curl cannot (a stdin part to several URLs, a streamed
/// body replayed after a 307).
@Suite struct InputStreamTests: LabSuite {
    let fixture: LabFixture
    let files: TemporaryDirectory
    init() throws {
        fixture = try LabFixture()
        files = try TemporaryDirectory()
        try "first file\n".write(toFile: files.path + "/a.txt", atomically: true, encoding: .utf8)
        try Data([0, 1, 2, 0xFF]).write(to: URL(fileURLWithPath: files.path + "/b.bin"))
    }

    /// Both tools run by bash with `options` (which may hold `<(cmd)`) after their own resolver arguments.
    private func viaBash(_ options: String, _ urls: [String]) throws -> (ours: Run, theirs: Run) {
        let pins = ["--resolve", "a.test:\(lab.httpsPort):\(lab.ip)", "--cacert", lab.ca, "-A", "streams"]
        let script = "\"$@\" \(options)"
        let ours = try run("/bin/bash", ["-c", script, "bash", ipcurlBinary(), "--no-fallback"] + pins + ["-s"] + urls,
                           environment: CurlOracle.environment(["IPCURL_CACHE_DIR": files.path + "/cache"]))
        let theirs = try run("/bin/bash", ["-c", script, "bash", "/usr/bin/curl", "-q"] + pins + ["-s"] + urls,
                             environment: CurlOracle.environment())
        return (ours, theirs)
    }

    @Test(arguments: [
        ("-d @<(printf 'procsub body')", "echo"), ("--data-binary @<(printf 'a\\0b')", "echo"),
        ("--json @<(printf '{\"k\":1}')", "echo"), ("--data-urlencode q@<(printf 'a b')", "echo"),
        ("-H @<(printf 'X-Sub: 1\\n')", "echo"), ("--http1.1 -T <(printf 'put body')", "echo/"),
        ("-F f=@<(printf 'part')", "form"), ("-F 'f=<'<(printf 'field')", "form"),
        ("-d @<(printf once)", "echo echo"), ("--http1.1 -T <(printf once)", "echo/ echo/"),
    ])
    func processSubstitutionIsReadAsAStream(options: String, paths: String) throws {
        let urls = paths.split(separator: " ").map { lab.https("a.test", "/api/\($0)") }
        let (ours, theirs) = try viaBash(options, urls)
        #expect(ours.status == 0 && ours.status == theirs.status, "\(ours.stderr) / \(theirs.stderr)")
        #expect(ours.stdout == theirs.stdout)
        let first = ours.stdout.components(separatedBy: "}{").first ?? ""
        #expect(!first.contains("\"body_length\":0,") || options.hasPrefix("-H"), "the stream arrived empty: \(ours.stdout)")
    }

    @Test func aStdinPartGoesToEveryURL() throws {
        // curl 7.88 sends the part to the first URL only: the second gets it read to the end (a listed difference).
        let url = lab.https("a.test", "/api/form")
        for part in ["f=@-", "f=<-", "f=@/dev/stdin"] {
            let ours = try ipcurl(lab.resolverArguments + ["-s", "-F", part, url, url, url], stdin: Data("once".utf8))
            let single = try run("/usr/bin/curl", ["-q", "--resolve", "a.test:\(lab.httpsPort):\(lab.ip)", "--cacert", lab.ca,
                                                   "-s", "-F", part, url], stdin: Data("once".utf8))
            #expect(ours.status == 0 && single.status == 0)
            #expect(ours.stdout == String(repeating: single.stdout, count: 3), "\(part): \(ours.stdout)")
        }
    }

    @Test(arguments: ["f=@DIR/a.txt,DIR/b.bin", "f=@DIR/a.txt;type=text/a,DIR/b.bin;type=text/b",
                      "f=@\"DIR/a.txt\";headers=\"X-P: 1\", DIR/b.bin;filename=n.bin", "f=@-,DIR/a.txt"])
    func aFileListIsSentAsCurlSendsIt(part: String) throws {
        let argument = part.replacingOccurrences(of: "DIR", with: files.path)
        let url = lab.https("a.test", "/api/form")
        var sent: [[UInt8]] = []
        for tool in ["ipcurl", "curl"] {
            let trace = files.path + "/\(tool).trace"
            let options = ["-s", "--http1.1", "--trace", trace, "-F", argument, "-F", "g=1", url]
            let result = tool == "ipcurl" ? try ipcurl(lab.resolverArguments + options, stdin: Data("stdin part".utf8))
                : try run("/usr/bin/curl", ["-q", "--resolve", "a.test:\(lab.httpsPort):\(lab.ip)", "--cacert", lab.ca] + options,
                          stdin: Data("stdin part".utf8))
            #expect(result.status == 0, "\(tool): \(result.stderr)")
            sent.append(Self.unbounded(try Self.sentData(trace)))
        }
        #expect(sent[0] == sent[1], "\(String(decoding: sent[0], as: UTF8.self))\n---\n\(String(decoding: sent[1], as: UTF8.self))")
        let text = String(decoding: sent[0], as: UTF8.self)
        #expect(text.contains("Content-Type: multipart/mixed; boundary={BOUNDARY}"), "\(text)")
        #expect(text.contains(part.hasPrefix("f=@-") ? "stdin part" : "first file"))
    }

    @Test func aStreamedBodyIsReplayedAfterA307() throws {
        // curl 7.88 cannot rewind a stream (exit 65); ipcurl keeps it as it keeps `-T -` (a listed difference).
        let body = Data("replayed stream".utf8)
        try body.write(to: URL(fileURLWithPath: files.path + "/body"))
        let digest = try sha256(ofFile: files.path + "/body")
        for options in [["-T", "/dev/stdin"], ["-F", "f=@/dev/stdin"], ["--data-binary", "@/dev/stdin"]] {
            let to = options[0] == "-F" ? "/api/form" : "/api/echo"
            let url = lab.https("a.test", "/api/redirect?code=307&to=\(to)")
            let ours = try ipcurl(lab.resolverArguments + ["-sS", "-L"] + options + [url], stdin: body)
            #expect(ours.status == 0, "\(options): \(ours.stderr)")
            #expect(ours.stdout.contains(digest), "\(options): \(ours.stdout)")
        }
    }

    /// The bytes of every "=> Send data" section of a `--trace` file.
    static func sentData(_ path: String) throws -> [UInt8] {
        var bytes: [UInt8] = [], sending = false
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix("=>") || line.hasPrefix("<=") || line.hasPrefix("==") {
                sending = line.hasPrefix("=> Send data")
                continue
            }
            guard sending, let colon = line.firstIndex(of: ":") else { continue }
            let hex = line[line.index(colon, offsetBy: 2)...].prefix(48)
            bytes += hex.split(separator: " ").compactMap { $0.count == 2 ? UInt8($0, radix: 16) : nil }
        }
        return bytes
    }

    /// `bytes` with libcurl's random multipart boundaries written as `{BOUNDARY}`.
    static func unbounded(_ bytes: [UInt8]) -> [UInt8] {
        Array(String(decoding: bytes, as: UTF8.self).replacing(#/-{24}[0-9a-f]{16}/#, with: "{BOUNDARY}").utf8)
    }
}
