#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CurlKit

/// Where response bytes go: stdout, or the file named by `-o`/`-O`/`-D`.
///
/// A regular file is written to a temporary file beside it (`.NAME.ipcurl-XXXXXX`, created on the first
/// byte) and renamed over `NAME` only by ``commit()``, so a failed, retried or interrupted transfer never
/// clobbers an existing file and never leaves a partial one; SIGINT/SIGTERM remove the temporary file
/// (``SignalCleanup``). A path that exists and is not a regular file (`/dev/null`, a FIFO) is written directly.
/// - SeeAlso: curl's `-o/--output`, `--create-dirs`, `-D/--dump-header`.
final class OutputFile {
    private let path: String?
    private let createDirectories: Bool
    private var writer: DescriptorWriter?
    private var descriptor: Int32 = -1
    private var temporary: (path: String, token: Int)?
    /// The first write or open error; it ends the transfer with exit 23.
    private(set) var failure: CurlError?

    /// `nil` or `-` is stdout.
    init(path: String?, createDirectories: Bool = false) {
        self.path = path == "-" ? nil : path
        self.createDirectories = createDirectories
    }

    deinit { discard() }

    /// The file name for `%{filename_effective}`; empty for stdout.
    var name: String { path ?? "" }

    /// Writes `bytes`, opening the file on first use; `false` (and ``failure``) when it cannot.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let writer = openIfNeeded() else { return false }
        guard writer.write(bytes) else {
            failure = CurlError.writeError.with(message: "Failure writing output to \(path ?? "stdout")")
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
        closeDescriptor()
        guard let temporary, let path else { return }
        self.temporary = nil
        SignalCleanup.unregister(temporary.token)
        guard rename(temporary.path, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw CurlError.writeError.with(message: "Failed to rename \(temporary.path) to \(path): \(reason)")
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
        if createDirectories { Self.makeParents(of: path) }
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        } else {
            let slash = path.lastIndex(of: "/")
            let directory = slash.map { String(path[...$0]) } ?? ""
            let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
            var template = Array("\(directory).\(base).ipcurl-XXXXXX".utf8CString)
            descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if descriptor >= 0 {
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
                let temp = String(cString: template)
                temporary = (temp, SignalCleanup.register(path: temp))
                let mask = umask(0)
                umask(mask)
                fchmod(descriptor, 0o666 & ~mask)
            }
        }
        guard descriptor >= 0 else {
            failure = CurlError.writeError.with(message: "Failed to open the file \(path): \(String(cString: strerror(errno)))")
            return nil
        }
        writer = DescriptorWriter(descriptor: descriptor)
        return writer
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
