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
