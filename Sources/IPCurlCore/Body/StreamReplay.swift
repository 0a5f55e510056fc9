#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CurlKit

/// A stream as an upload (`-T -`, `-T .`, or `-T FILE` where FILE is a pipe, a FIFO, `/dev/stdin`): streamed as
/// it arrives (chunked, length unknown), while the first ``bound`` bytes are kept so the body can be sent again
/// after a 307/308 redirect or a retry. A body that outgrew the bound cannot be replayed, and asking for it is
/// exit 65 with a clear message. `-T .` reads stdin without blocking: while no byte is waiting, libcurl goes on
/// with the transfer (receiving, timing out) and asks again.
/// - SeeAlso: curl's `-T/--upload-file`, `CURLE_SEND_FAIL_REWIND`, `CURL_READFUNC_PAUSE`.
public final class StreamReplay {
    /// How much of the stream is kept for a replay (64 MiB).
    public static let bound = 64 << 20
    private var kept: [UInt8] = []
    private var ended = false
    /// Whether more than ``bound`` bytes were read, so the start is gone.
    public private(set) var overflowed = false
    private var descriptor: Int32
    /// The file opened at the first read (`-T FILE`), or `nil` for `descriptor`.
    private let path: String?
    /// `-T .`: stdin's flags before it was made non-blocking, restored at the end.
    private var blockingFlags: Int32?
    private let nonBlocking: Bool

    /// Reads `descriptor` (stdin by default); `nonBlocking` reads it as `-T .` does.
    public init(descriptor: Int32 = 0, nonBlocking: Bool = false) {
        (self.descriptor, path, self.nonBlocking) = (descriptor, nil, nonBlocking)
    }

    /// Reads the file at `path`, opened when the first byte is wanted.
    public init(path: String) { (descriptor, self.path, nonBlocking) = (-1, path, false) }

    deinit {
        if path != nil, descriptor >= 0 { close(descriptor) }
        if let blockingFlags { _ = fcntl(descriptor, F_SETFL, blockingFlags) }
    }

    /// A reader from the first byte, or exit 65 when the kept copy is incomplete.
    func reader() throws(CurlError) -> RequestBody {
        guard !overflowed else {
            throw CurlError.sendFailRewind.with(message:
                "cannot send the request body again: more than \(Self.bound >> 20) MiB were read from stdin and not kept")
        }
        return Reader(self)
    }

    fileprivate func chunk(at position: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if position < kept.count {
            let count = min(buffer.count, kept.count - position)
            kept.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + position, byteCount: count) }
            return count
        }
        guard !ended, position == kept.count || overflowed else { return 0 }
        try prepare()
        let got = LocalFiles.read(descriptor, into: buffer)
        if got < 0, errno == EAGAIN || errno == EWOULDBLOCK { throw RequestBodyWouldBlock() }
        // As curl's read callback: an error that is not EAGAIN (a directory's EISDIR) ends the body.
        if got <= 0 { ended = true; return 0 }
        if !overflowed {
            if kept.count + got <= Self.bound {
                kept += UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<got])
            } else {
                overflowed = true
                kept = []
            }
        }
        return got
    }

    /// Opens the file, or makes stdin non-blocking, before the first read.
    private func prepare() throws(CurlError) {
        if let path, descriptor < 0 {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw CurlError.readError.with(message: "Failed to open \(path): \(String(cString: strerror(errno)))")
            }
        }
        if nonBlocking, blockingFlags == nil {
            let flags = fcntl(descriptor, F_GETFL)
            if flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 { blockingFlags = flags }
        }
    }

    private final class Reader: RequestBody {
        let source: StreamReplay
        var position = 0

        init(_ source: StreamReplay) { self.source = source }

        var length: Int64? { nil }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let count = try source.chunk(at: position, into: buffer)
            position += count
            return count
        }

        func rewind() -> Bool {
            guard !source.overflowed else { return false }
            position = 0
            return true
        }
    }
}
