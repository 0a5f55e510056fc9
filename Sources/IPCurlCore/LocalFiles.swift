#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CurlKit

/// Small POSIX helpers for local files named on the command line (`--cacert`, `-d @file`, `-w @file`); a file
/// that is not a regular one (a pipe, a FIFO, `/dev/stdin`, a process substitution) is read to its end.
public enum LocalFiles {
    /// Whether `path` names a readable regular file.
    public static func isReadableFile(_ path: String) -> Bool {
        var info = stat()
        return access(path, R_OK) == 0 && stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether `path` can be opened for reading: a regular file, a pipe, a FIFO, `/dev/stdin`, `/dev/fd/N`.
    public static func isReadable(_ path: String) -> Bool {
        access(path, R_OK) == 0
    }

    /// The size of the regular file at `path`, `nil` for anything else (a pipe, a device, a missing file).
    public static func regularFileSize(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Reads a whole file, or stdin for `-`; throws exit 26 as curl does when it cannot.
    public static func read(_ path: String) throws(CurlError) -> [UInt8] { try read(path, atMost: .max) }

    /// Reads a file, or stdin for `-`, but no more than `limit` bytes: a larger file, a FIFO that never ends or
    /// `/dev/zero` is read that far and no further, so a caller that allows `n` bytes asks for `n + 1` to tell.
    /// `check` sees the opened file's status before anything is read and may refuse it (``ownershipProblem(_:)``).
    /// Throws exit 26 as curl does when the file cannot be opened or read.
    public static func read(_ path: String, atMost limit: Int,
                            checking check: (stat) throws(CurlError) -> Void = { _ in }) throws(CurlError) -> [UInt8] {
        let descriptor = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CurlError.readError.with(message: "Failed to open \(path): \(String(cString: strerror(errno)))")
        }
        defer { if descriptor != 0 { close(descriptor) } }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw CurlError.readError.with(message: "Failed to read \(path): \(String(cString: strerror(errno)))")
        }
        try check(info)
        guard let bytes = readAll(descriptor, atMost: limit) else {
            throw CurlError.readError.with(message: "Failed to read \(path): \(String(cString: strerror(errno)))")
        }
        return bytes
    }

    /// Reads `descriptor` to its end, or until `limit` bytes have come: the bytes, `nil` on a read error (`errno`
    /// says which).
    static func readAll(_ descriptor: Int32, atMost limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<wanted])) }
            if count == 0 { break }
            guard count > 0 else { return nil }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    /// Why a file with status `info` is not this user's own, as ssh judges `~/.ssh/config`: it is owned by
    /// someone other than the effective user and root, or its group or others may write it; `nil` when it is.
    public static func ownershipProblem(_ info: stat) -> String? {
        let user = geteuid()
        if info.st_uid != user && info.st_uid != 0 { return "owned by uid \(info.st_uid), not by uid \(user) or root" }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            return "writable by its group or others (mode \(String(info.st_mode & 0o7777, radix: 8)))"
        }
        return nil
    }

    /// One `read(2)` into `buffer`, repeated when a signal interrupts it: the byte count, 0 at the end, -1 on error.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var count: Int
        repeat { count = Glibc.read(descriptor, buffer.baseAddress, buffer.count) } while count < 0 && errno == EINTR
        return count
    }
}

/// Ends the process with `code` once stdio's buffers are flushed, skipping the exit handlers: OpenSSL's and
/// libcurl's clean-up of memory the kernel takes back anyway costs about 1.5 M instructions per run. Everything
/// ipcurl writes (outputs, cache records, cookie jars) is complete and closed before this is called.
public func exitProcess(_ code: Int32) -> Never {
    fflush(nil)
    _exit(code)
}
