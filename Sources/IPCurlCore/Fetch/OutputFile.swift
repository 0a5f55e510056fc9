#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystem
import CurlKit
import HTTPDNS

/// Where response bytes go: stdout, or the file named by `-o`/`-O`/`-D`.
///
/// A regular file is written to a temporary file beside it (`.NAME.ipcurl-PID-XXXXXX`, created on the first
/// byte) and renamed over `NAME` only by ``commit()``, so a failed, retried or interrupted transfer never
/// clobbers an existing file and never leaves a partial one; the terminating signals remove the temporary file
/// (``SignalCleanup``), and the temporary files a killed process (SIGKILL) left in the directory are removed by
/// the next one created there, once that process is gone. The replacement keeps an existing file's mode and
/// owner, except for a file another user may have planted in a sticky or world-writable directory, which is
/// replaced by one of the running user's (``ReplacementOwner``); a symlink stays a link (its target is replaced);
/// a file with other hard links whose owner is kept is rewritten in place at commit. A path that exists and is
/// not a regular file (`/dev/null`, a FIFO) is written directly. Links, FIFOs and files another user planted in a
/// sticky world-writable directory are refused by ``PlantedFiles``, anywhere on the path.
///
/// Where curl could write but no temporary file can take the name, the file is written in place, as curl does,
/// and ``note`` says that it is not kept whole: a directory this user cannot write (no temporary file beside the
/// file) and a target that cannot be renamed over (`EBUSY`: a bind-mounted file, as in containers). A name too
/// long for the temporary name's additions keeps a shortened one.
/// - SeeAlso: curl's `-o/--output`, `--create-dirs`, `-D/--dump-header`.
final class OutputFile {
    private var path: String?
    private let createDirectories: Bool
    /// Set by ``retarget(to:)``: a name the server chose never replaces an existing file or symlink (curl's
    /// `-J`), neither one there at the first byte nor one that appears before ``commit()``.
    private var refusesExisting = false
    private var writer: DescriptorWriter?
    private var descriptor: Int32 = -1
    private var temporary: (path: String, token: Int)?
    /// Where the temporary file lands: the path itself, or a symlink's target (the link stays a link).
    private var target = ""
    /// An existing file with other hard links is rewritten in place at commit, so every name sees the new body.
    private var rewritesInPlace = false
    /// The first write or open error; it ends the transfer with exit 23.
    private(set) var failure: CurlError?
    /// Flush the file (`fsync`) before the rename and the directory after it, so the new content survives a crash
    /// (reports that other programs poll); off for transfers, as in curl.
    var syncsToDisk = false
    /// Receives one `-v` line (without `* ` and newline) when the file is written in place.
    var note: ((String) -> Void)?
    /// `--no-clobber`: an existing file is kept and the body goes to the first free `NAME.1` ... `NAME.99`, as
    /// curl numbers them; the name chosen is never replaced either (as ``retarget(to:)``'s).
    var keepsExisting = false
    /// The temporary file could not be made: bytes go straight into the target (opened, truncated, on the first
    /// byte, and again on a retry).
    private var writesDirectly = false
    /// Whether the named file itself was opened for writing (`-C`, a file that is not regular, no temporary file
    /// possible): what a failed transfer wrote stays there.
    private var openedInPlace = false

    /// `nil` or `-` is stdout.
    /// `appends`: `-C` resumes into the file itself, appending (as curl does), so no temporary file is used.
    init(path: String?, createDirectories: Bool = false, appends: Bool = false) {
        self.path = path == "-" ? nil : path
        self.createDirectories = createDirectories
        self.appends = appends
    }

    private let appends: Bool

    /// The size of the file at `path` now (0 when there is none): where `-C -` resumes.
    static func currentSize(of path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    deinit { discard() }

    /// The file name for `%{filename_effective}`; empty for stdout.
    var name: String { path ?? "" }

    /// Writes to `newPath` instead (`-J`: the name from `Content-Disposition`), refusing to replace an existing
    /// file there; only before the first byte.
    func retarget(to newPath: String) {
        guard writer == nil, path != nil else { return }
        path = newPath
        refusesExisting = true
    }

    /// Writes `bytes`, opening the file on first use; `false` (and ``failure``) when it cannot.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let writer = openIfNeeded() else { return false }
        guard writer.write(bytes) else {
            failure = CurlError.writeError.with(message: "Failure writing output to \(path.map(Printable.escaped) ?? "stdout")")
            return false
        }
        return true
    }

    /// Makes the output final: renames the temporary file over the target, creating an empty file when the
    /// transfer succeeded without a byte, as curl does.
    func commit() throws(CurlError) {
        guard path != nil, openIfNeeded() != nil else {
            if let failure { throw failure }
            return
        }
        if syncsToDisk, temporary != nil, fsync(descriptor) != 0 {
            let reason = String(cString: strerror(errno))
            throw CurlError.writeError.with(message: "Failure writing output to \(Printable.escaped(target)): \(reason)")
        }
        if syncsToDisk, writesDirectly, fsync(descriptor) != 0 {
            let reason = String(cString: strerror(errno))
            throw CurlError.writeError.with(message: "Failure writing output to \(Printable.escaped(target)): \(reason)")
        }
        closeDescriptor()
        guard let temporary else { return }
        self.temporary = nil
        defer { SignalCleanup.unregister(temporary.token) }
        if refusesExisting { return try placeWithoutReplacing(temporary.path) }
        var moved = !rewritesInPlace && Self.replace(target, with: temporary.path)
        if !moved, !rewritesInPlace, case let failure = errno, failure == EBUSY || failure == EXDEV {
            note?("Writing \(Printable.escaped(path ?? target)) in place: it cannot be renamed over (\(String(cString: strerror(failure))));"
                  + " it is not replaced in one step")
            rewritesInPlace = true
        }
        if rewritesInPlace { moved = SignalCleanup.deferringSignals { Self.copy(temporary.path, over: target) } }
        guard moved else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw CurlError.writeError.with(message: "Failed to replace \(Printable.escaped(target)): \(reason)")
        }
        if rewritesInPlace { unlink(temporary.path) }
        if syncsToDisk { Self.syncDirectory(of: target) }
    }

    /// Puts `temporary` at `target` atomically. An existing target is swapped with it (`RENAME_EXCHANGE`) and its
    /// old content unlinked under the temporary name: renaming over an existing file makes ext4 start writing the
    /// new file back there and then (its replace-via-rename heuristic, `auto_da_alloc`), about 15-25 ms for 64 MiB,
    /// which a plain rename onto the name would cost every download that replaces a file. Readers see the old or
    /// the new file, never neither. Where exchange is unsupported (or the target is gone), a plain rename.
    private static func replace(_ target: String, with temporary: String) -> Bool {
        if csystem_rename_exchange(temporary, target) == 0 {
            unlink(temporary)
            return true
        }
        return rename(temporary, target) == 0
    }

    /// Puts the temporary file at ``target`` only if nothing is there, not even a dangling symlink (`-J`): a name
    /// taken since the first byte keeps what took it, and the download is dropped with the refusal of a name taken
    /// before. `RENAME_NOREPLACE`, or where the file system lacks it (`EINVAL`, `ENOSYS`: NFS, older kernels)
    /// `link(2)`, which refuses an existing name as well.
    private func placeWithoutReplacing(_ temporary: String) throws(CurlError) {
        var placed = csystem_rename_noreplace(temporary, target) == 0
        if !placed, errno == EINVAL || errno == ENOSYS {
            placed = link(temporary, target) == 0
            if placed { unlink(temporary) }
        }
        guard placed else {
            let failure = errno
            unlink(temporary)
            if failure == EEXIST { throw refusal }
            throw CurlError.writeError.with(message: "Failed to create \(Printable.escaped(target)): \(String(cString: strerror(failure)))")
        }
        if syncsToDisk { Self.syncDirectory(of: target) }
    }

    /// `-J`'s error for a name that is taken, as curl words it.
    private var refusal: CurlError {
        CurlError.writeError.with(message: "Refusing to overwrite \(Printable.escaped(path ?? target)): File exists")
    }

    /// Flushes the directory entry of the rename, so the new name survives a crash; best effort.
    private static func syncDirectory(of path: String) {
        let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "."
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// Copies `source` into the existing file `destination` (same inode, so hard links and bind mounts follow):
    /// the new bytes are written over the old ones and the file is cut to their length at the end, so it is never
    /// seen empty or shorter than both bodies. The caller defers the terminating signals meanwhile.
    private static func copy(_ source: String, over destination: String) -> Bool {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return false }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CLOEXEC)
        guard output >= 0 else { return false }
        defer { close(output) }
        let writer = DescriptorWriter(descriptor: output)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var length: off_t = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { LocalFiles.read(input, into: $0) }
            if count < 0 { return false }
            if count == 0 { return ftruncate(output, length) == 0 }
            guard chunk.withUnsafeBytes({ writer.write(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }) else { return false }
            length += off_t(count)
        }
    }

    /// Drops whatever was written to the temporary file; the next write starts a new one (a retry).
    func discard() {
        closeDescriptor()
        if let temporary {
            unlink(temporary.path)
            SignalCleanup.unregister(temporary.token)
        }
        temporary = nil
        if path != nil { writer = nil }
    }

    /// What ``removeAfterFailure(resumed:)`` did.
    enum Removal: Equatable {
        /// The file was removed.
        case removed(String)
        /// The file is not a regular file and stays.
        case notRegular(String)
        /// `unlink` failed.
        case failed(String)
    }

    /// `--remove-on-error` after a failed transfer (and ``discard()``), as curl 7.88 removes the file it opened: the
    /// named file, when this output opened it in place or `resumed` (`-C` at an offset past 0, which curl opens
    /// before the transfer). A file that is not regular stays. `nil` when there was nothing to remove; a replacement's
    /// temporary file is gone with ``discard()`` already.
    func removeAfterFailure(resumed: Bool) -> Removal? {
        guard let path, openedInPlace || (appends && resumed) else { return nil }
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .notRegular(path) }
        return unlink(path) == 0 ? .removed(path) : .failed(path)
    }

    /// `path`, or when something is there `path.1` ... `path.99`, the first name nothing holds; `nil` when all do.
    private static func firstFreeName(_ path: String) -> String? {
        var info = stat()
        if lstat(path, &info) != 0 { return path }
        return (1...99).lazy.map { "\(path).\($0)" }.first { lstat($0, &info) != 0 }
    }

    private func closeDescriptor() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    private func openIfNeeded() -> DescriptorWriter? {
        if let writer { return writer }
        guard failure == nil else { return nil }
        guard let path else {
            writer = .standardOutput
            return writer
        }
        // Before --create-dirs makes a directory through a link someone else planted.
        if let planted = PlantedFiles.refusal(toWrite: path, .byReplacement) {
            failure = planted
            return nil
        }
        if createDirectories { Self.makeParents(of: path) }
        var info = stat()
        if keepsExisting, !refusesExisting {
            refusesExisting = true
            guard let free = Self.firstFreeName(path) else {
                failure = CurlError.writeError.with(message: "Failed to open the file \(Printable.escaped(path)).99: it exists (--no-clobber)")
                return nil
            }
            self.path = free
            return openIfNeeded()
        }
        if refusesExisting, lstat(path, &info) == 0 {
            failure = refusal
            return nil
        }
        let exists = stat(path, &info) == 0
        // A name the server chose is created, never truncated: only this process's own file is written over.
        let creation = refusesExisting ? O_CREAT | O_EXCL : O_CREAT | O_TRUNC
        if appends {
            descriptor = openInPlace(path, O_WRONLY | O_APPEND | O_CREAT)
        } else if exists, (info.st_mode & S_IFMT) != S_IFREG {
            descriptor = openInPlace(path, O_WRONLY | O_TRUNC)
        } else {
            target = exists ? Self.resolved(path) : path
            let keepsOwner = exists && ReplacementOwner.keepsOwner(of: info, at: target)
            // Rewriting a hard-linked file in place keeps its owner: not for one that may have been planted.
            rewritesInPlace = exists && info.st_nlink > 1 && keepsOwner
            if writesDirectly {
                descriptor = openInPlace(target, O_WRONLY | creation)
            } else if let failure = createTemporary(replacing: exists ? info : nil, keepsOwner: keepsOwner) {
                descriptor = openInPlace(target, O_WRONLY | creation)
                if descriptor >= 0 {
                    note?("Writing \(Printable.escaped(path)) in place: no temporary file beside it (\(String(cString: strerror(failure))));"
                          + " a failed or interrupted transfer leaves it partial")
                }
            }
        }
        openedInPlace = descriptor >= 0 && temporary == nil
        guard descriptor >= 0 else {
            failure = failure ?? (refusesExisting && errno == EEXIST ? refusal
                : CurlError.writeError.with(message: "Failed to open the file \(Printable.escaped(path)): \(String(cString: strerror(errno)))"))
            return nil
        }
        // Written in place, the name holds this process's file: a retry truncates it.
        if writesDirectly { refusesExisting = false }
        writer = DescriptorWriter(descriptor: descriptor)
        return writer
    }

    /// Opens `path` to be written in place, by ``PlantedFiles``'s rule for it: -1 with ``failure`` set when the
    /// rule refuses it, -1 with `errno` when `open` fails.
    private func openInPlace(_ path: String, _ flags: Int32) -> Int32 {
        do throws(CurlError) { return try PlantedFiles.open(path, flags) } catch {
            failure = error
            return -1
        }
    }

    /// Creates the temporary file beside ``target`` (registered for clean-up), giving it the mode and, when
    /// `keepsOwner` (``ReplacementOwner``), the owner of the file it replaces (`existing`), never wider. Where none
    /// can be made but curl could still write the file
    /// itself (no write permission on the directory, a read-only directory mount, a name too long), switches to
    /// writing in place and returns the `errno` that made it.
    private func createTemporary(replacing existing: stat?, keepsOwner: Bool) -> Int32? {
        let (directory, base) = TemporaryName.split(target)
        TemporaryName.removeLeftovers(in: directory)
        var template = Array(TemporaryName.template(directory: directory, base: base).utf8CString)
        let created = SignalCleanup.deferringSignals { () -> (Int32, Int32, (String, Int)?) in
            let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard made >= 0 else { return (made, errno, nil) }
            TemporaryName.holdWhileWriting(made)
            let temp = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return (made, 0, (temp, SignalCleanup.register(path: temp)))
        }
        descriptor = created.0
        guard descriptor >= 0 else {
            errno = created.1  // for the caller's message
            guard [EACCES, EPERM, EROFS, ENAMETOOLONG].contains(created.1) else { return nil }
            writesDirectly = true
            return created.1
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        temporary = created.2
        if let existing, keepsOwner {
            // The replacement keeps the existing file's owner and mode: never wider than before.
            _ = fchown(descriptor, existing.st_uid, existing.st_gid)
            fchmod(descriptor, existing.st_mode & 0o7777)
        } else {
            let mask = umask(0)
            umask(mask)
            fchmod(descriptor, existing.map { ReplacementOwner.mode(replacing: $0, umask: mask) } ?? 0o666 & ~mask)
        }
        return nil
    }

    /// The path with symlinks resolved, so renaming replaces the link's target and keeps the link.
    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// `--create-dirs`: every missing directory above `path`, mode 0750 as curl makes them.
    private static func makeParents(of path: String) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        let parts = path.split(separator: "/").dropLast()
        for part in parts {
            prefix += part
            mkdir(prefix, 0o750)
            prefix += "/"
        }
    }
}
