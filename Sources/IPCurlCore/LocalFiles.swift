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
    public static func read(_ path: String) throws(CurlError) -> [UInt8] {
        let descriptor = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CurlError.readError.with(message: "Failed to open \(path): \(String(cString: strerror(errno)))")
        }
        defer { if descriptor != 0 { close(descriptor) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, into: $0) }
            if count == 0 { return bytes }
            if count < 0 {
                throw CurlError.readError.with(message: "Failed to read \(path): \(String(cString: strerror(errno)))")
            }
            bytes += chunk[0..<count]
        }
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
