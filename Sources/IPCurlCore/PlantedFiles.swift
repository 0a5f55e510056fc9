#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CurlKit
import HTTPDNS

/// What another user may have planted where ipcurl writes a file a command line names, refused as Linux refuses it
/// in a sticky world-writable directory (`/tmp`) when its sysctls are on, and whatever they say: ipcurl's own
/// ways of writing (a rename over a link's target, an existing file opened without `O_CREAT`, libcurl's cookie jar
/// written at the end of the run) are not all ones the kernel checks.
///
/// - `fs.protected_symlinks`: a symlink in a sticky world-writable directory is followed only when it belongs to the
///   running user or to the directory's owner. Every link the walk of the path meets is checked, its directories
///   as well as its last component, link after link (at most 40, the kernel's `ELOOP` limit).
/// - `fs.protected_fifos`: a FIFO or socket there that belongs to neither is not written.
/// - `fs.protected_regular`: a regular file there that belongs to neither is not written in place (``Writing``):
///   `--trace`, `--stderr` and `-C` refuse it, while `-o`, `-D` and the cookie jar replace it by a new file of the
///   running user (``ReplacementOwner``).
///
/// Devices are written (only a privileged user can make one) and a directory is left to `open` to refuse. Every
/// refusal is exit 23 with one line naming the path.
/// - SeeAlso: `Documentation/admin-guide/sysctl/fs.rst` in the Linux sources.
public enum PlantedFiles {
    /// How an existing regular file at the path would be written.
    public enum Writing: Sendable {
        /// Opened and written, keeping its inode and owner.
        case inPlace
        /// Replaced by a new file of the running user (renamed over it).
        case byReplacement
    }

    /// The refusal to write `path` when a link on its way or the file at its end was planted (see the type); `nil`
    /// when it may be written.
    public static func refusal(toWrite path: String, _ writing: Writing) -> CurlError? {
        switch check(path, writing) {
        case .refused(let reason): refusal(path, reason)
        case .allowed: nil
        }
    }

    /// Opens `path` to write it in place (`flags` as for `open(2)`; `O_CLOEXEC` is added) after ``refusal(toWrite:_:)``
    /// with ``Writing/inPlace``, and checks that what was opened is what was checked, so nothing planted between the
    /// check and the open is written: an existing file is opened without `O_CREAT` and `O_TRUNC` and truncated
    /// only once its descriptor is the file checked; a missing one is created with `O_EXCL` where the walk ended
    /// (a link's target). Throws the refusal; returns -1 with `errno` set when `open` itself fails.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o666) throws(CurlError) -> Int32 {
        for _ in 0..<3 {  // a name that changed between the check and the open is checked again
            let existing: stat?, end: WalkEnd
            switch check(path, .inPlace) {
            case .refused(let reason): throw refusal(path, reason)
            case .allowed(let found, let walkedTo): (existing, end) = (found, walkedTo)
            }
            guard let existing else {
                guard flags & O_CREAT != 0 else {
                    errno = ENOENT
                    return -1
                }
                guard case .reached(let last) = end else {
                    errno = end.failure  // a directory on the way is missing: nothing is created
                    return -1
                }
                let descriptor = systemOpen(last, flags | O_EXCL | O_CLOEXEC, mode)
                if descriptor < 0, errno == EEXIST, flags & O_EXCL == 0 { continue }
                return descriptor
            }
            if flags & O_EXCL != 0 {
                errno = EEXIST
                return -1
            }
            let descriptor = systemOpen(path, flags & ~(O_CREAT | O_TRUNC) | O_CLOEXEC, 0)
            if descriptor < 0, errno == ENOENT { continue }
            if descriptor < 0 { return -1 }
            var opened = stat()
            guard fstat(descriptor, &opened) == 0, opened.st_dev == existing.st_dev, opened.st_ino == existing.st_ino else {
                close(descriptor)
                continue
            }
            if flags & O_TRUNC != 0, opened.st_mode & S_IFMT == S_IFREG, ftruncate(descriptor, 0) != 0 {
                let failure = errno
                close(descriptor)
                errno = failure
                return -1
            }
            return descriptor
        }
        throw refusal(path, "it changed while it was being opened")
    }

    /// `-c`: libcurl writes the cookie jar when the run ends, replacing a regular file and opening anything else
    /// with `fopen`, through links. Checked now by the rule for a replacement; in a sticky world-writable directory
    /// a missing jar is created empty now (as the running user's, which nobody else may remove there), so nothing
    /// can be planted at its name before libcurl writes it.
    public static func claimCookieJar(_ path: String) throws(CurlError) {
        if let refusal = refusal(toWrite: path, .byReplacement) { throw refusal }
        let directory = walk(path).directory
        var folder = stat(), file = stat()
        guard lstat(path, &file) != 0, errno == ENOENT, stat(directory, &folder) == 0, isShared(folder) else { return }
        let descriptor = systemOpen(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        if descriptor >= 0 { close(descriptor) }
        // Whatever took the name first, it is checked again.
        if let refusal = refusal(toWrite: path, .byReplacement) { throw refusal }
    }

    private enum Verdict {
        /// `existing`: the status of the file at the path (links followed), `nil` when there is none; `end`: where
        /// the walk ended.
        case allowed(existing: stat?, end: WalkEnd)
        case refused(String)
    }

    /// Where the walk of a path ended: at its last component, links on the way resolved, or before it, at a
    /// component `lstat` failed on with `errno` `failure` (a missing directory).
    private enum WalkEnd {
        case reached(String)
        case stopped(failure: Int32)

        var failure: Int32 {
            if case .stopped(let failure) = self { return failure }
            return 0
        }
    }

    private static func check(_ path: String, _ writing: Writing) -> Verdict {
        let walked = walk(path)
        if let reason = walked.refusal { return .refused(reason) }
        var file = stat()
        guard stat(path, &file) == 0 else { return .allowed(existing: nil, end: walked.end) }
        var folder = stat()
        guard stat(walked.directory, &folder) == 0, isShared(folder), isForeign(file.st_uid, in: folder) else {
            return .allowed(existing: file, end: walked.end)
        }
        switch file.st_mode & S_IFMT {
        case S_IFREG where writing == .inPlace:
            return .refused("a file another user made in a sticky world-writable directory is not written in place"
                            + " (as fs.protected_regular)")
        case S_IFIFO, S_IFSOCK:
            return .refused("a FIFO another user made in a sticky world-writable directory is not written (as fs.protected_fifos)")
        default:
            return .allowed(existing: file, end: walked.end)
        }
    }

    /// The walk of `path`, component by component as the kernel walks it: the directory its last component is in
    /// and where the walk ended, links resolved as far as they name paths (a `/proc/PID/fd` link ends the walk
    /// there), and the reason to refuse the path when a link on the way was planted.
    private static func walk(_ path: String) -> (directory: String, end: WalkEnd, refusal: String?) {
        var pending = Array(path.split(separator: "/").reversed())
        var directory = path.hasPrefix("/") ? "/" : ".", end = WalkEnd.reached(path)
        var links = 0
        while let name = pending.popLast() {
            if name == "." { continue }
            // String + String: a String + Substring is the stdlib's unspecialized generic (ResolveEntry says why).
            let component = String(name)
            let candidate = directory == "/" ? "/" + component : directory == "." ? component : directory + "/" + component
            var entry = stat()
            guard lstat(candidate, &entry) == 0 else {
                // A missing last component is created there; nothing is created below a missing directory.
                end = pending.isEmpty ? .reached(candidate) : .stopped(failure: errno)
                break
            }
            guard entry.st_mode & S_IFMT == S_IFLNK else {
                if pending.isEmpty {
                    end = .reached(candidate)
                    break
                }
                directory = candidate
                continue
            }
            links += 1
            guard links <= 40 else { return (directory, end, String(cString: strerror(ELOOP))) }
            var folder = stat()
            guard stat(directory, &folder) == 0 else {
                end = .stopped(failure: errno)
                break
            }
            if isShared(folder), isForeign(entry.st_uid, in: folder) {
                return (directory, end, "\(Printable.escaped(candidate)) is a symlink another user made in a sticky"
                        + " world-writable directory: not followed (as fs.protected_symlinks)")
            }
            guard let target = readLink(candidate) else {
                end = .stopped(failure: errno)
                break
            }
            if target.hasPrefix("/") { directory = "/" }
            pending += target.split(separator: "/").reversed()
        }
        return (directory, end, nil)
    }

    /// A directory anyone may add names to, where nobody but their owner may remove them: sticky and world-writable.
    private static func isShared(_ directory: stat) -> Bool {
        directory.st_mode & (S_ISVTX | S_IWOTH) == (S_ISVTX | S_IWOTH)
    }

    /// Whether a name owned by `owner` in `directory` was made by someone else than the running user and the
    /// directory's owner.
    private static func isForeign(_ owner: uid_t, in directory: stat) -> Bool {
        owner != geteuid() && owner != directory.st_uid
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let count = readlink(path, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func refusal(_ path: String, _ reason: String) -> CurlError {
        CurlError.writeError.with(message: "Failed to open the file \(Printable.escaped(path)): \(reason)")
    }

    private static func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.open(path, flags, mode)
        #else
        Darwin.open(path, flags, mode)
        #endif
    }
}
