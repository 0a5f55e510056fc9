import Foundation
import Testing

/// Responses: decoding, big downloads, `-o` safety, `-O`, `-D`, `-I`, `-f` and the progress bar.
@Suite struct OutputTests: LabSuite {
    let fixture: LabFixture
    let www: String
    init() throws {
        fixture = try LabFixture()
        www = try fixture.lab.value("LAB_WWW")
    }

    private func leftovers(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.contains(".ipcurl-") }
    }

    @Test func gzipIsDecodedWithCompressed() throws {
        let scratch = try TemporaryDirectory()
        let out = scratch.path + "/text.txt"
        let result = try ipcurl(aliyun + ["--compressed", "-o", out, "-w", "%header{content-encoding} %{size_download}",
                                          lab.https("a.test", "/files/text.txt")])
        #expect(result.status == 0, "\(result.stderr)")
        let original = try Data(contentsOf: URL(fileURLWithPath: www + "/text.txt"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == original)
        let parts = result.stdout.split(separator: " ")
        #expect(parts.first == "gzip" && Int(parts.last ?? "") ?? .max < original.count, "\(result.stdout)")
        let plain = try ipcurl(aliyun + ["-w", "[%header{content-encoding}]", "-o", "/dev/null", lab.https("a.test", "/files/text.txt")])
        #expect(plain.stdout == "[]", "no --compressed: nothing is asked for")
    }

    @Test func sixtyFourMebibyteDownloadIsByteIdentical() throws {
        let scratch = try TemporaryDirectory()
        let out = scratch.path + "/big.bin"
        let result = try ipcurl(aliyun + ["-o", out, "-w", "%{size_download}", lab.https("b.test", "/files/big.bin")])
        #expect(result.status == 0 && result.stdout == String(64 << 20), "\(result.stderr)")
        let (got, want) = (try sha256(ofFile: out), try sha256(ofFile: www + "/big.bin"))
        #expect(got == want)
        #expect(leftovers(scratch.path).isEmpty)
    }

    @Test func anExistingOutputFileSurvivesEveryKindOfFailure() throws {
        let scratch = try TemporaryDirectory()
        let out = scratch.path + "/keep.txt"
        try "precious\n".write(toFile: out, atomically: true, encoding: .utf8)
        let failures: [(Int32, [String])] = [
            (22, ["-f", lab.https("a.test", "/status/404")]),
            (60, [lab.https("wrong.test")]),
            (28, ["-m", "1", lab.api("a.test", "drip?bytes=100000&chunk=100&ms=100")]),
            (7, ["--resolve", "a.test:\(lab.httpsPort):127.0.0.9", lab.https("a.test")]),
        ]
        for (status, arguments) in failures {
            let result = try ipcurl(aliyun + ["-o", out] + arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(try String(contentsOfFile: out, encoding: .utf8) == "precious\n", "\(arguments)")
        }
        #expect(leftovers(scratch.path).isEmpty)
        let success = try ipcurl(aliyun + ["-o", out, lab.https("a.test", "/files/empty.txt")])
        let replaced = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(success.status == 0 && replaced.isEmpty, "success replaces it")
    }

    @Test func replacingKeepsModeSymlinksAndHardLinks() throws {
        let scratch = try TemporaryDirectory()
        let manager = FileManager.default
        let secret = scratch.path + "/secret.txt", real = scratch.path + "/real.txt", link = scratch.path + "/link.txt"
        let peer = scratch.path + "/peer.txt"
        for path in [secret, real] { try "old\n".write(toFile: path, atomically: true, encoding: .utf8) }
        try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret)
        try manager.createSymbolicLink(atPath: link, withDestinationPath: real)
        try manager.linkItem(atPath: secret, toPath: peer)
        for path in [secret, link] {
            let result = try ipcurl(aliyun + ["-o", path, lab.https("a.test", "/files/empty.txt")])
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect((try manager.attributesOfItem(atPath: secret)[.posixPermissions] as? Int) == 0o600, "never wider than before")
        #expect(try manager.destinationOfSymbolicLink(atPath: link) == real, "the link stays a link")
        #expect((try Data(contentsOf: URL(fileURLWithPath: real))).isEmpty)
        #expect((try Data(contentsOf: URL(fileURLWithPath: peer))).isEmpty, "a hard link sees the new body")
        #expect(leftovers(scratch.path).isEmpty)
    }

    /// The finished file takes the name in one step: a reader that opened the old file keeps reading the old bytes
    /// (nothing was truncated under it), the name then holds the new body, and no temporary name is left.
    @Test func anExistingTargetIsReplacedWholeNotTruncated() throws {
        let scratch = try TemporaryDirectory()
        let out = scratch.path + "/page.html"
        let old = String(repeating: "old content\n", count: 1000)
        try old.write(toFile: out, atomically: true, encoding: .utf8)
        let reader = try FileHandle(forReadingFrom: URL(fileURLWithPath: out))
        defer { try? reader.close() }
        let result = try ipcurl(aliyun + ["-o", out, lab.https("a.test", "/files/text.txt")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: try reader.readToEnd() ?? Data(), as: UTF8.self) == old)
        let served = try ipcurl(aliyun + [lab.https("a.test", "/files/text.txt")])
        #expect(try String(contentsOfFile: out, encoding: .utf8) == served.stdout && !served.stdout.isEmpty)
        #expect(leftovers(scratch.path).isEmpty)
    }

    @Test func failGives22AndNoBodyFailWithBodyKeepsIt() throws {
        let fail = try ipcurl(aliyun + ["-f", lab.https("a.test", "/status/404")])
        #expect(fail.status == 22 && fail.stdout.isEmpty)
        #expect(fail.stderr == "ipcurl: (22) The requested URL returned error: 404\n")
        let withBody = try ipcurl(aliyun + ["--fail-with-body", lab.https("a.test", "/status/404")])
        #expect(withBody.status == 22 && withBody.stdout == "not found\n")
        let plain = try ipcurl(aliyun + [lab.https("a.test", "/status/404")])
        #expect(plain.status == 0 && plain.stdout == "not found\n")
    }

    @Test func remoteNameCreateDirsAndDumpHeader() throws {
        let scratch = try TemporaryDirectory()
        let process = try run("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", scratch.path, ipcurlBinary()]
            + aliyun + ["-O", "-D", "deep/dir/headers.txt", "--create-dirs", lab.https("a.test", "/files/text.txt")],
            environment: ["IPCURL_CACHE_DIR": scratch.path + "/cache"])
        #expect(process.status == 0, "\(process.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: scratch.path + "/text.txt", andPath: www + "/text.txt"))
        let headers = try String(contentsOfFile: scratch.path + "/deep/dir/headers.txt", encoding: .utf8)
        #expect(headers.hasPrefix("HTTP/2 200") && headers.lowercased().contains("content-length: "))
        let noName = try ipcurl(aliyun + ["-O", lab.https("a.test", "/")])
        #expect(noName.status == 23)
    }

    @Test func headSendsHeadAndPrintsHeaders() throws {
        let result = try ipcurl(aliyun + ["-I", lab.api("a.test", "echo")])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("HTTP/2 200") && result.stdout.hasSuffix("\r\n\r\n") && !result.stdout.contains("{"))
        let conflict = try ipcurl(aliyun + ["-I", "-d", "x", lab.api("a.test", "echo")])
        #expect(conflict.status == 2)
    }

    @Test func progressBarOnlyOnATerminal() throws {
        let scratch = try TemporaryDirectory()
        let quiet = try ipcurl(aliyun + ["-o", scratch.path + "/a", lab.https("b.test", "/files/big.bin")])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "stderr is a pipe: no progress")
        // script(1) gives ipcurl a pseudo-terminal; the bar must show the total and reach 100%.
        let command = ([ipcurlBinary()] + aliyun + ["-o", scratch.path + "/b", lab.https("b.test", "/files/big.bin")])
            .map { "'\($0)'" }.joined(separator: " ")
        let tty = try run("/usr/bin/script", ["-qec", command, "/dev/null"],
                          environment: ["IPCURL_CACHE_DIR": scratch.path + "/cache", "NO_COLOR": "1", "PATH": "/usr/bin:/bin"])
        #expect(tty.status == 0, "\(tty.stdout)")
        #expect(tty.stdout.contains("100.0%") && tty.stdout.contains("64.0 MiB"), "\(tty.stdout.suffix(300))")
        #expect(!tty.stdout.contains("\u{1b}["), "NO_COLOR: no escape sequences")
        let silent = try run("/usr/bin/script", ["-qec", command.replacingOccurrences(of: "'-o'", with: "'-s' '-o'"), "/dev/null"],
                             environment: ["IPCURL_CACHE_DIR": scratch.path + "/cache", "PATH": "/usr/bin:/bin"])
        #expect(silent.status == 0 && silent.stdout.isEmpty, "-s: nothing")
    }
}
