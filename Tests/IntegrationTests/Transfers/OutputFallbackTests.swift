import Foundation
import Testing

/// `-o` wherever curl can write: a directory this user can't write, a bind-mounted target, names of 241-255 bytes.
/// Each writes the file (in place where no temporary file can take the name, and `-v` says so), as curl does.
@Suite struct OutputFallbackTests: LabSuite {
    let fixture: LabFixture
    let pinned: [String]
    init() throws {
        fixture = try LabFixture()
        pinned = ["--resolve", "a.test:\(fixture.lab.httpsPort):\(fixture.lab.ip)", "--cacert", fixture.lab.ca]
    }

    static let asRoot = getuid() == 0

    private func leftovers(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.contains(".ipcurl-") }
    }

    private var text: String { get throws { try lab.value("LAB_WWW") + "/text.txt" } }

    /// As `nobody` in a directory only root may write: an existing writable file there is written in place.
    @Test(.enabled(if: asRoot, "needs root to run as another user"))
    func aFileInADirectoryTheUserCannotWriteIsWrittenInPlace() throws {
        let scratch = try TemporaryDirectory()
        chmod(scratch.path, 0o755)
        let ca = scratch.path + "/ca.pem", out = scratch.path + "/out.txt", absent = scratch.path + "/absent.txt"
        try FileManager.default.copyItem(atPath: lab.ca, toPath: ca)
        try "old\n".write(toFile: out, atomically: false, encoding: .utf8)
        chmod(ca, 0o644)
        chmod(out, 0o666)
        let arguments = ["--resolve", "a.test:\(lab.httpsPort):\(lab.ip)", "--cacert", ca, lab.https("a.test", "/files/text.txt")]
        func asNobody(_ tool: String, _ rest: [String]) throws -> Run {
            try run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", tool] + rest,
                    environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "IPCURL_CACHE_DIR": scratch.path + "/cache"])
        }
        let written = try asNobody(ipcurlBinary(), ["-v", "-o", out] + arguments)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: out, andPath: try text))
        #expect(written.stderr.contains("* Writing \(out) in place: no temporary file beside it (Permission denied)"), "\(written.stderr)")
        let curl = try asNobody("/usr/bin/curl", ["-sS", "-o", absent] + arguments)
        let refused = try asNobody(ipcurlBinary(), ["-v", "-o", absent] + arguments)
        #expect(curl.status == 23 && refused.status == 23, "a file neither may create: \(refused.stderr)")
        #expect(refused.stderr.hasSuffix("\nipcurl: (23) Failed to open the file \(absent): Permission denied\n"))
        #expect(!refused.stderr.contains("in place"), "nothing was written in place")
        #expect(leftovers(scratch.path).isEmpty)
    }

    /// A file bind-mounted over the target (as containers mount single files) can't be renamed over (EBUSY).
    @Test(.enabled(if: asRoot, "needs root for a private mount namespace"))
    func aBindMountedTargetIsWrittenInPlace() throws {
        let scratch = try TemporaryDirectory()
        let source = scratch.path + "/mounted.txt", out = scratch.path + "/out.txt"
        try "old\n".write(toFile: source, atomically: false, encoding: .utf8)
        try "".write(toFile: out, atomically: false, encoding: .utf8)
        let script = "mount --bind \"$0\" \"$1\" && shift && exec \"$@\""
        let result = try run("/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, source, out, ipcurlBinary()]
            + pinned + ["-v", "-o", out, lab.https("a.test", "/files/text.txt")],
            environment: ["IPCURL_CACHE_DIR": scratch.path + "/cache"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("* Writing \(out) in place: it cannot be renamed over (Device or resource busy)"), "\(result.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: source, andPath: try text), "the mounted file holds the body")
        #expect(leftovers(scratch.path).isEmpty)
    }

    /// A name of up to 255 bytes keeps a temporary file (with a shortened name), so it is still replaced whole.
    @Test(arguments: [241, 250, 255])
    func aLongNameIsStillReplacedWhole(length: Int) throws {
        let scratch = try TemporaryDirectory()
        let name = String(repeating: "é", count: length / 2) + (length % 2 == 1 ? "n" : "")
        #expect(name.utf8.count == length)
        let out = scratch.path + "/" + name
        try "old\n".write(toFile: out, atomically: false, encoding: .utf8)
        let reader = try FileHandle(forReadingFrom: URL(fileURLWithPath: out))
        defer { try? reader.close() }
        let result = try ipcurl(pinned + ["-v", "-o", out, lab.https("a.test", "/files/text.txt")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("in place"), "\(result.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: out, andPath: try text))
        #expect(String(decoding: try reader.readToEnd() ?? Data(), as: UTF8.self) == "old\n", "swapped, not truncated")
        #expect(leftovers(scratch.path).isEmpty)
    }
}
