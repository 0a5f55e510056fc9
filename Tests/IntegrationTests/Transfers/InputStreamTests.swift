import Foundation
import Testing

/// Inputs that are streams, compared with curl 7.88.1 where curl's behaviour is the goal: a bash process
/// substitution `<(cmd)` for every option that reads a file, a list of files in one `-F` part (the bytes sent,
/// boundaries aside), and the cases where ipcurl sends what curl cannot (a stdin part to several URLs, a streamed
/// or FIFO body replayed after a 307 or 308 and on a retry).
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

    /// The stream options the replay tests send, each with the echo route that reports its body's digest.
    private static let streamOptions: [(options: [String], to: String)] = [
        (["-T", "/dev/stdin"], "/api/echo"), (["-F", "f=@/dev/stdin"], "/api/form"), (["--data-binary", "@/dev/stdin"], "/api/echo"),
    ]

    @Test(arguments: [307, 308])
    func aStreamedBodyIsReplayedAfterARedirectThatKeepsTheMethod(code: Int) throws {
        // curl 7.88 cannot rewind a stream (exit 65); ipcurl keeps it as it keeps `-T -` (a listed difference).
        let body = Data("replayed stream".utf8)
        try body.write(to: URL(fileURLWithPath: files.path + "/body"))
        let digest = try sha256(ofFile: files.path + "/body")
        for (options, to) in Self.streamOptions {
            let url = lab.https("a.test", "/api/redirect?code=\(code)&to=\(to)")
            let ours = try ipcurl(lab.resolverArguments + ["-sS", "-L"] + options + [url], stdin: body)
            #expect(ours.status == 0, "\(code) \(options): \(ours.stderr)")
            #expect(ours.stdout.contains(digest), "\(code) \(options): \(ours.stdout)")
        }
    }

    @Test func aStreamedBodyIsSentAgainOnARetry() throws {
        // The first attempt gets a 503 and the retry a 200: the trace shows the whole body sent by both.
        let body = "retried stream body"
        for (options, _) in Self.streamOptions {
            let key = "stream-retry-\(UInt64.random(in: 0...UInt64.max))"
            let trace = files.path + "/retry-\(key).trace"
            let ours = try ipcurl(lab.resolverArguments + ["-sS", "--http1.1", "--retry", "1", "--trace", trace] + options
                                  + [lab.api("a.test", "flaky?key=\(key)&fails=1&code=503")], stdin: Data(body.utf8))
            #expect(ours.status == 0 && ours.stdout == "failure 1\nok after 1 failures\n", "\(options): \(ours.stderr)")
            #expect(try lab.hits(key) == 2)
            let sent = String(decoding: try Self.sentData(trace), as: UTF8.self)
            #expect(sent.components(separatedBy: body).count - 1 == 2, "\(options): the body, sent twice: \(sent)")
        }
    }

    @Test func aFIFOBodyIsReplayedAfterA307() throws {
        // A FIFO can be read once: the body a 307 sends again is the copy ipcurl kept (or read up front).
        try "fifo body\n".write(toFile: files.path + "/fifo-body", atomically: true, encoding: .utf8)
        try "fifo body".write(toFile: files.path + "/fifo-data", atomically: true, encoding: .utf8)  // -d drops the line end
        for (option, to) in [("-T", "/api/echo"), ("--data-binary", "/api/echo"), ("-d", "/api/echo"), ("-F", "/api/form")] {
            let digest = try sha256(ofFile: files.path + (option == "-d" ? "/fifo-data" : "/fifo-body"))
            let fifo = files.path + "/fifo-\(UInt32.random(in: 0...UInt32.max))"
            let writer = try FIFOWriter(path: fifo)
            let value = option == "-T" ? fifo : option == "-F" ? "f=@" + fifo : "@" + fifo
            let url = lab.https("a.test", "/api/redirect?code=307&to=\(to)")
            let ours = try ipcurl(lab.resolverArguments + ["-sS", "-L", option, value, url])
            #expect(ours.status == 0, "\(option): \(ours.stderr)")
            #expect(ours.stdout.contains(digest), "\(option): \(ours.stdout)")
            withExtendedLifetime(writer) {}
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
