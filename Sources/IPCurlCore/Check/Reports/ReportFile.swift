#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CurlKit
import HTTPDNS

/// Writes a finished report so that a reader polling the file (node_exporter's textfile collector, a CI step) sees
/// the old content or the new, never half of either: the text goes to a temporary file beside the target
/// (`.NAME.ipcurl-XXXXXX`, removed on SIGINT/SIGTERM by ``SignalCleanup``), is flushed with `fsync`, and is renamed
/// over the target. An existing file keeps its mode; a symlink keeps pointing where it did (its target is replaced);
/// a path that exists and is not a regular file (`/dev/stdout`, a FIFO) is written directly. `-` is stdout.
public enum ReportFile {
    /// Writes `text` to `path` (`-` for stdout); a failure is `CurlError.writeError` (exit 23) naming the path.
    public static func write(_ text: String, to path: String) throws(CurlError) {
        try write(text, to: path, standardOutput: .standardOutput)
    }

    /// ``write(_:to:)`` with `-` meaning `standardOutput`.
    static func write(_ text: String, to path: String, standardOutput: DescriptorWriter) throws(CurlError) {
        if path == "-" {
            guard standardOutput.write(text) else { throw failure("stdout") }
            return
        }
        var info = stat()
        let exists = stat(path, &info) == 0
        if exists, (info.st_mode & S_IFMT) != S_IFREG {
            let descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
            guard descriptor >= 0 else { throw failure(path) }
            defer { close(descriptor) }
            guard DescriptorWriter(descriptor: descriptor).write(text) else { throw failure(path) }
            return
        }
        let target = exists ? resolved(path) : path
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { String(target[...$0]) } ?? ""
        let base = slash.map { String(target[target.index(after: $0)...]) } ?? target
        let created = SignalCleanup.deferringSignals { () -> (Int32, String, Int)? in
            guard let (descriptor, temporary) = createTemporary(prefix: "\(directory).\(base).ipcurl-") else { return nil }
            return (descriptor, temporary, SignalCleanup.register(path: temporary))
        }
        guard let (descriptor, temporary, token) = created else { throw failure(path) }
        defer { SignalCleanup.unregister(token) }
        if exists { fchmod(descriptor, info.st_mode & 0o7777) }
        let written = DescriptorWriter(descriptor: descriptor).write(text) && fsync(descriptor) == 0
        let saved = errno
        guard close(descriptor) == 0, written else {
            if !written { errno = saved }
            let error = failure(path)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, target) == 0 else {
            let error = failure(path)
            unlink(temporary)
            throw error
        }
        syncDirectory(directory.isEmpty ? "." : directory)
    }

    /// Creates `prefix` + six random characters with `O_EXCL` (mode 0666 less the umask), retrying a taken name.
    private static func createTemporary(prefix: String) -> (Int32, String)? {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for _ in 0..<100 {
            let name = prefix + String((0..<6).map { _ in alphabet.randomElement()! })
            let descriptor = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 { return (descriptor, name) }
            if errno != EEXIST { return nil }
        }
        return nil
    }

    /// Flushes the directory entry of the rename, so the new name survives a crash; best effort.
    private static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// The path with symlinks resolved, so the rename replaces the link's target and keeps the link.
    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// Exit 23 with `errno`'s text, naming `path` on one line.
    private static func failure(_ path: String) -> CurlError {
        CurlError.writeError.with(message: "Failed to write the report to \(Printable.escaped(path)): \(String(cString: strerror(errno)))")
    }
}
