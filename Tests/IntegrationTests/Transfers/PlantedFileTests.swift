import Foundation
import Testing

/// Links, FIFOs and files another user planted in a sticky world-writable directory where root writes: Linux's
/// `fs.protected_symlinks`, `fs.protected_fifos` and `fs.protected_regular`, applied by ipcurl whatever the sysctls
/// say, by every writer of a file a command line names. Needs root and a second uid (65534); under `CI=true` a run
/// without root fails instead of skipping.
@Suite struct PlantedFileTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    static let asRoot = getuid() == 0
    static let inCI = ProcessInfo.processInfo.environment["CI"] == "true"

    private var pinned: [String] { ["--resolve", "a.test:\(lab.httpsPort):\(lab.ip)", "--cacert", lab.ca] }
    private var url: String { lab.https("a.test", "/files/text.txt") }

    /// Each option that writes a file the command line names.
    enum Writer: String, CaseIterable, CustomTestStringConvertible {
        case output = "-o", dumpHeader = "-D", outputDir = "--output-dir", resume = "-C -", trace = "--trace"
        case traceASCII = "--trace-ascii", stderr = "--stderr", cookieJar = "-c", checkReport = "check -o"

        var testDescription: String { rawValue }

        /// Whether it writes an existing regular file in place (as curl opens it), rather than replacing it by a
        /// new file (`-o`'s temporary file, libcurl's for the cookie jar).
        var writesInPlace: Bool { [.resume, .trace, .traceASCII, .stderr].contains(self) }
    }

    /// The command line that has `writer` write `path` (`--output-dir` with `-O`: the URL names it `text.txt`).
    private func arguments(_ writer: Writer, _ path: String) -> [String] {
        switch writer {
        case .output: pinned + ["-sS", "-o", path, url]
        case .dumpHeader: pinned + ["-sS", "-D", path, "-o", "/dev/null", url]
        case .outputDir: pinned + ["-sS", "--output-dir", (path as NSString).deletingLastPathComponent, "-O", url]
        case .resume: pinned + ["-sS", "-C", "-", "-o", path, url]
        case .trace: pinned + ["-sS", "--trace", path, "-o", "/dev/null", url]
        case .traceASCII: pinned + ["-sS", "--trace-ascii", path, "-o", "/dev/null", url]
        case .stderr: pinned + ["-v", "--stderr", path, "-o", "/dev/null", url]
        case .cookieJar: pinned + ["-sS", "-c", path, "-o", "/dev/null", url]
        case .checkReport: ["check"] + pinned + ["-o", path, url]
        }
    }

    /// A 1777 directory in a scratch directory uid 65534 can reach, and a private directory beside it, which a
    /// planted link aims at.
    private struct Scene {
        let scratch: TemporaryDirectory
        var shared: String { scratch.path + "/shared" }
        var victim: String { scratch.path + "/victim" }

        init() throws {
            scratch = try TemporaryDirectory()
            chmod(scratch.path, 0o755)
            mkdir(shared, 0o755)
            chmod(shared, 0o1777)
            mkdir(victim, 0o700)
        }

        var victimFiles: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: victim)) ?? []).sorted() }
    }

    /// `result` is exit 23 with one line naming `name`.
    private func expectRefused(_ result: Run, naming name: String, _ comment: Comment? = nil) {
        #expect(result.status == 23, "exit \(result.status): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("ipcurl: ") && lines[0].contains(name), "\(result.stderr)")
    }

    @Test(.enabled(if: asRoot || inCI, "needs root to plant a FIFO of another user"), arguments: Writer.allCases)
    func aFIFOPlantedInAStickyDirectoryIsNotWritten(writer: Writer) throws {
        try #require(Self.asRoot, "needs root (uid 0) to plant a FIFO of uid 65534")
        let scene = try Scene()
        let fifo = scene.shared + "/text.txt"
        #expect(mkfifo(fifo, 0o666) == 0)
        chown(fifo, 65534, 65534)
        let planter = try FIFOReader(fifo, into: scene.scratch.path + "/read-by-planter")
        let refused = try ipcurl(arguments(writer, fifo))
        let leaked = planter.finish()
        expectRefused(refused, naming: "text.txt")
        #expect(leaked.isEmpty, "the planter read: \(leaked.prefix(200))")

        chown(fifo, 0, 0)  // the running user's own FIFO there is written, as any FIFO elsewhere
        let owner = try FIFOReader(fifo, into: scene.scratch.path + "/read-by-owner")
        let written = try ipcurl(arguments(writer, fifo))
        let read = owner.finish()
        #expect(written.status == 0, "\(written.stderr)")
        #expect(!read.isEmpty)
    }

    /// Not only the last component: a link met anywhere on the way (`shared/dirlink/text.txt`) is checked, as the
    /// kernel checks every link a lookup follows.
    @Test(.enabled(if: asRoot || inCI, "needs root to plant a link of another user"), arguments: Writer.allCases)
    func aSymlinkPlantedOnThePathIsNotFollowed(writer: Writer) throws {
        try #require(Self.asRoot, "needs root (uid 0) to plant a link of uid 65534")
        let scene = try Scene()
        let link = scene.shared + "/dirlink"
        #expect(symlink(scene.victim, link) == 0)
        lchown(link, 65534, 65534)
        let refused = try ipcurl(arguments(writer, link + "/text.txt"))
        expectRefused(refused, naming: "dirlink")
        #expect(scene.victimFiles.isEmpty, "written through the link: \(scene.victimFiles)")

        lchown(link, 0, 0)  // the running user's own link is followed
        let followed = try ipcurl(arguments(writer, link + "/text.txt"))
        #expect(followed.status == 0, "\(followed.stderr)")
        #expect(scene.victimFiles == ["text.txt"])
    }

    @Test(.enabled(if: asRoot || inCI, "needs root to plant a link of another user"), arguments: Writer.allCases)
    func aFinalSymlinkPlantedInAStickyDirectoryIsNotFollowed(writer: Writer) throws {
        try #require(Self.asRoot, "needs root (uid 0) to plant a link of uid 65534")
        let scene = try Scene()
        let victim = scene.victim + "/precious.conf"
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let link = scene.shared + "/text.txt"
        #expect(symlink(victim, link) == 0)
        lchown(link, 65534, 65534)
        expectRefused(try ipcurl(arguments(writer, link)), naming: "text.txt")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(scene.victimFiles == ["precious.conf"])
    }

    /// A regular file of another user there (mode 666, so its owner could read what lands in it) is not written in
    /// place, as `fs.protected_regular` refuses curl's `O_CREAT` open of it: `--trace`, `--stderr` and `-C -` are
    /// exit 23 and leave it as it was; `-o`, `-D`, `check -o` and the cookie jar (libcurl's temporary file) replace
    /// it by a file of the running user.
    @Test(.enabled(if: asRoot || inCI, "needs root to plant a file of another user"), arguments: Writer.allCases)
    func aFilePlantedInAStickyDirectoryIsNeitherWrittenInPlaceNorHandedBack(writer: Writer) throws {
        try #require(Self.asRoot, "needs root (uid 0) to plant a file of uid 65534")
        let scene = try Scene()
        let planted = scene.shared + "/text.txt"
        try "planted\n".write(toFile: planted, atomically: false, encoding: .utf8)
        chown(planted, 65534, 65534)
        chmod(planted, 0o666)
        let result = try ipcurl(arguments(writer, planted))
        var info = stat()
        #expect(lstat(planted, &info) == 0)
        if writer.writesInPlace {
            expectRefused(result, naming: "text.txt")
            #expect(try String(contentsOfFile: planted, encoding: .utf8) == "planted\n")
            #expect(info.st_uid == 65534)
        } else {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(info.st_uid == 0 && info.st_mode & 0o002 == 0, "owner \(info.st_uid), mode \(String(info.st_mode & 0o7777, radix: 8))")
        }
    }

    /// libcurl writes the cookie jar when the run ends, and opens a name that is not a regular file with `fopen`,
    /// following a link: in a sticky world-writable directory ipcurl takes the jar's name before the first
    /// transfer, so a link planted while the transfer runs can't aim root's jar at a file of the planter's choice.
    @Test(.enabled(if: asRoot || inCI, "needs root and uid 65534"))
    func aCookieJarCannotBePlantedWhileTheTransferRuns() throws {
        try #require(Self.asRoot, "needs root (uid 0) to run as uid 65534")
        let scene = try Scene()
        let jar = scene.shared + "/jar.txt"
        let server = try HeldBodyServer(headers: ["Set-Cookie: session=the-secret-value"],
                                        body: Data(repeating: UInt8(ascii: "x"), count: 100_000), heldAfter: 40_000)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ipcurlBinary())
        process.arguments = ["-sS", "--resolve", "a.test:\(server.port):127.0.0.4", "-c", jar, "-o", "/dev/null",
                             "http://a.test:\(server.port)/download"]
        var environment = CurlOracle.environment()
        environment["IPCURL_CACHE_DIR"] = scene.scratch.path + "/cache"
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        #expect(server.waitUntilHolding())
        let planting = try run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/ln", "-s",
                                                    scene.victim + "/chosen-by-the-planter", jar])
        server.release()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(planting.status != 0, "uid 65534 planted a link at the jar's name")
        #expect(scene.victimFiles.isEmpty, "the jar went where the link pointed: \(scene.victimFiles)")
        var info = stat()
        #expect(lstat(jar, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_uid == 0)
        #expect(try String(contentsOfFile: jar, encoding: .utf8).contains("the-secret-value"))
    }
}

/// A reader of a FIFO, as the user who planted it would run one (`cat FIFO > FILE`, for at most a minute).
private final class FIFOReader {
    private let process = Process()
    private let fifo: String, captured: String

    init(_ fifo: String, into captured: String) throws {
        (self.fifo, self.captured) = (fifo, captured)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["60", "/bin/sh", "-c", "exec cat \"$0\" > \"$1\"", fifo, captured]
        try process.run()
    }

    /// What the reader got once every writer is gone. A reader still waiting for a writer gets one that writes
    /// nothing (opened without blocking once the reader is there, then closed), so it ends with what it read.
    func finish() -> String {
        while process.isRunning {
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 {
                close(writer)
                break
            }
            usleep(10_000)  // the reader has not opened the FIFO yet
        }
        process.waitUntilExit()
        return (try? String(contentsOfFile: captured, encoding: .utf8)) ?? ""
    }
}
