import Foundation
import Testing

/// Who owns the file `-o` writes over an existing one, as root: in a sticky or world-writable directory, where
/// anyone may have planted the old file, the new one belongs to the running user and its mode never lets the old
/// owner write it; elsewhere the replacement keeps the old file's owner. Needs root and a second uid (65534);
/// under `CI=true` a run without root fails instead of skipping.
@Suite struct OutputOwnerTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    static let asRoot = getuid() == 0
    static let inCI = ProcessInfo.processInfo.environment["CI"] == "true"

    private var pinned: [String] { ["--resolve", "a.test:\(lab.httpsPort):\(lab.ip)", "--cacert", lab.ca] }
    private var text: String { get throws { try lab.value("LAB_WWW") + "/text.txt" } }

    /// Whether uid 65534 may write `path` (the kernel's answer, through `test -w` run as that user).
    private func writableByNobody(_ path: String) throws -> Bool {
        try run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/test", "-w", path]).status == 0
    }

    enum Planted: String, CaseIterable { case file, hardLinkedFile }

    @Test(.enabled(if: asRoot || inCI, "needs root to plant a file of another user"), arguments: Planted.allCases)
    func aFilePlantedInAStickyDirectoryIsNotHandedToItsOwner(planted: Planted) throws {
        try #require(Self.asRoot, "needs root (uid 0) to plant a file of uid 65534")
        let scratch = try TemporaryDirectory()
        chmod(scratch.path, 0o755)  // uid 65534 reaches the shared directory
        let shared = scratch.path + "/shared"
        mkdir(shared, 0o755)
        chmod(shared, 0o1777)
        let out = shared + "/out.txt"
        try "old\n".write(toFile: out, atomically: false, encoding: .utf8)
        if planted == .hardLinkedFile { link(out, shared + "/second-name.txt") }
        chown(out, 65534, 65534)
        chmod(out, 0o666)
        #expect(try writableByNobody(out))
        let result = try ipcurl(pinned + ["-sS", "-o", out, lab.https("a.test", "/files/text.txt")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: out, andPath: try text))
        var info = stat()
        #expect(lstat(out, &info) == 0 && info.st_uid == 0 && info.st_gid != 65534, "owner \(info.st_uid):\(info.st_gid)")
        #expect(info.st_mode & 0o7002 == 0, "mode \(String(info.st_mode & 0o7777, radix: 8))")
        #expect(!(try writableByNobody(out)), "uid 65534 can write the download")
    }

    /// In a directory only root may write, the old file's owner could not have planted it: the download keeps
    /// the owner and mode it replaces, as curl's in-place write keeps them.
    @Test(.enabled(if: asRoot || inCI, "needs root to give a file to another user"))
    func aFileInAPrivateDirectoryKeepsItsOwner() throws {
        try #require(Self.asRoot, "needs root (uid 0) to give a file to uid 65534")
        let scratch = try TemporaryDirectory()
        chmod(scratch.path, 0o755)
        let out = scratch.path + "/out.txt"
        try "old\n".write(toFile: out, atomically: false, encoding: .utf8)
        chown(out, 65534, 65534)
        chmod(out, 0o640)
        let result = try ipcurl(pinned + ["-sS", "-o", out, lab.https("a.test", "/files/text.txt")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: out, andPath: try text))
        var info = stat()
        #expect(lstat(out, &info) == 0 && info.st_uid == 65534 && info.st_gid == 65534, "owner \(info.st_uid):\(info.st_gid)")
        #expect(info.st_mode & 0o7777 == 0o640)
    }

    /// A symlink another user planted in a sticky world-writable directory is not followed, as Linux's
    /// `fs.protected_symlinks` refuses it (curl's `open` gets EACCES there): replacing the link's target by rename
    /// would otherwise let the planter aim root's download at any file. Exit 23, the target untouched; the running
    /// user's own link there is followed.
    @Test(.enabled(if: asRoot || inCI, "needs root to plant a link of another user"))
    func aSymlinkPlantedInAStickyDirectoryIsNotFollowed() throws {
        try #require(Self.asRoot, "needs root (uid 0) to plant a link of uid 65534")
        let scratch = try TemporaryDirectory()
        chmod(scratch.path, 0o755)
        let shared = scratch.path + "/shared"
        mkdir(shared, 0o755)
        chmod(shared, 0o1777)
        let victim = scratch.path + "/victim.conf"
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let planted = shared + "/out.txt"
        symlink(victim, planted)
        lchown(planted, 65534, 65534)
        let refused = try ipcurl(pinned + ["-sS", "-o", planted, lab.https("a.test", "/files/text.txt")])
        #expect(refused.status == 23, "\(refused.stderr)")
        #expect(refused.stderr.contains("out.txt") && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        var info = stat()
        #expect(lstat(planted, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)

        lchown(planted, 0, 0)
        let own = try ipcurl(pinned + ["-sS", "-o", planted, lab.https("a.test", "/files/text.txt")])
        #expect(own.status == 0, "\(own.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: victim, andPath: try text))
    }
}
