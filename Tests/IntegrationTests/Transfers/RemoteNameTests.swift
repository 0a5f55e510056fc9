import Foundation
import Testing

/// `-J/--remote-header-name`, `--output-dir` and `--remote-name-all`, against curl 7.88.1: the same exit code and
/// the same files with the same contents, each tool writing into a directory of its own.
@Suite struct RemoteNameTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    private func files(in directory: String) throws -> [String: String] {
        var found: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue {
                found[name] = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            }
        }
        return found
    }

    @Test(arguments: [
        ["-OJ", "API/attachment?name=x%20y.txt"], ["-OJ", "API/attachment?name=..%2F..%2Fetc%2Fz.txt"],
        ["-OJ", "API/attachment?name=q.bin&raw=1"], ["-OJ", "API/echo"], ["-O", "API/attachment?name=ignored"],
        ["--remote-name-all", "API/echo?n=1", "API/attachment?name=a", "-o", "first"],
        ["-OJ", "API/attachment?name=twice", "-OJ", "API/attachment?name=twice"],
        ["-o", "named", "API/echo"], ["--create-dirs", "-o", "deep/er/file", "API/echo"],
    ])
    func savedFilesMatchCurl(arguments: [String]) throws {
        let ours = try TemporaryDirectory(), theirs = try TemporaryDirectory()
        let resolved = arguments.map { $0.replacingOccurrences(of: "API", with: oracle.lab.https("a.test", "/api")) }
        let mine = try oracle.ours(["-s", "-A", "same", "--output-dir", ours.path] + resolved)
        let curls = try oracle.theirs(["-s", "-A", "same", "--output-dir", theirs.path] + resolved)
        #expect(mine.status == curls.status, "\(arguments): \(mine.stderr) / \(curls.stderr)")
        #expect(try files(in: ours.path) == (try files(in: theirs.path)), "\(arguments)")
    }

    @Test func aServerNamedFileNeverReplacesAnExistingOne() throws {
        let directory = try TemporaryDirectory()
        try "mine\n".write(toFile: directory.path + "/keep.txt", atomically: true, encoding: .utf8)
        let run = try oracle.ours(["-sS", "--output-dir", directory.path, "-OJ", oracle.lab.api("a.test", "attachment?name=keep.txt")])
        #expect(run.status == 23 && run.stderr.contains("Refusing to overwrite"), "\(run.stderr)")
        #expect(try String(contentsOfFile: directory.path + "/keep.txt", encoding: .utf8) == "mine\n")
    }

    /// A dangling symlink at the name counts as a file there: it is not followed, not replaced.
    @Test func aServerNamedFileNeverReplacesADanglingSymlink() throws {
        let directory = try TemporaryDirectory()
        let link = directory.path + "/keep.txt", nowhere = directory.path + "/absent/target"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: nowhere)
        let run = try oracle.ours(["-sS", "--output-dir", directory.path, "-OJ", oracle.lab.api("a.test", "attachment?name=keep.txt")])
        #expect(run.status == 23 && run.stderr == "ipcurl: (23) Refusing to overwrite \(link): File exists\n", "\(run.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == nowhere)
        #expect(!FileManager.default.fileExists(atPath: nowhere))
    }

    enum Planted: String, CaseIterable { case file, danglingSymlink }

    /// A file (or a dangling symlink) that appears at the server's name after the first byte, while the body is
    /// still arriving, is kept: the download ends in 23 with one line and leaves nothing behind.
    @Test(arguments: Planted.allCases)
    func aServerNamedFileCreatedDuringTheTransferIsKept(planted: Planted) throws {
        let directory = try TemporaryDirectory()
        let server = try HeldBodyServer(headers: ["Content-Disposition: attachment; filename=\"late.txt\""],
                                        body: Data(repeating: UInt8(ascii: "x"), count: 100_000), heldAfter: 40_000)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ipcurlBinary())
        process.arguments = ["-sS", "--resolve", "a.test:\(server.port):127.0.0.4", "--output-dir", directory.path,
                             "-OJ", "http://a.test:\(server.port)/download"]
        var environment = CurlOracle.environment()
        environment["IPCURL_CACHE_DIR"] = directory.path + "/.cache"
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let name = directory.path + "/late.txt", nowhere = directory.path + "/absent/target"
        #expect(server.waitUntilHolding())
        // The first bytes are in the temporary file: the check made on the first byte is behind.
        let writing = { ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).contains { $0.hasPrefix(".late.txt.ipcurl-") } }
        for _ in 0..<400 where !writing() { Thread.sleep(forTimeInterval: 0.05) }
        #expect(writing())
        switch planted {
        case .file: try "planted\n".write(toFile: name, atomically: false, encoding: .utf8)
        case .danglingSymlink: try FileManager.default.createSymbolicLink(atPath: name, withDestinationPath: nowhere)
        }
        server.release()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 23 && stderr == "ipcurl: (23) Refusing to overwrite \(name): File exists\n", "\(stderr)")
        switch planted {
        case .file: #expect(try String(contentsOfFile: name, encoding: .utf8) == "planted\n")
        case .danglingSymlink:
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: name) == nowhere)
            #expect(!FileManager.default.fileExists(atPath: nowhere))
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != ".cache" }
        #expect(left == ["late.txt"], "nothing half-written is kept: \(left)")
    }
}

/// Outputs that name one file twice, against curl 7.88.1: `-D f -o f` leaves the body, `-o a -o b` with one URL
/// writes a only, `-O -o x` uses the remote name.
@Suite struct SharedOutputNameTests {
    let oracle: CurlOracle
    init() throws { oracle = CurlOracle(lab: try Lab.current()) }

    @Test(arguments: [["-D", "DIR/f", "-o", "DIR/f"], ["-o", "DIR/a", "-o", "DIR/b"], ["-O", "-o", "DIR/x", "--output-dir", "DIR"]])
    func filesMatchCurl(arguments: [String]) throws {
        let ours = try TemporaryDirectory(), theirs = try TemporaryDirectory()
        let url = oracle.lab.api("a.test", "echo")
        let mine = try oracle.ours(["-s", "-A", "same"] + arguments.map { $0.replacingOccurrences(of: "DIR", with: ours.path) } + [url])
        let curls = try oracle.theirs(["-s", "-A", "same"] + arguments.map { $0.replacingOccurrences(of: "DIR", with: theirs.path) } + [url])
        #expect(mine.status == curls.status)
        let names = { (path: String) in try FileManager.default.contentsOfDirectory(atPath: path).sorted() }
        #expect(try names(ours.path) == names(theirs.path), "\(arguments)")
        for name in try names(ours.path) {
            #expect(try String(contentsOfFile: ours.path + "/" + name, encoding: .utf8)
                    == String(contentsOfFile: theirs.path + "/" + name, encoding: .utf8), "\(arguments) \(name)")
        }
    }
}
