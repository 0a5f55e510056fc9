#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CurlKit

/// Standard input as an upload (`-T -`): streamed as it arrives (chunked, length unknown), while the first
/// ``bound`` bytes are kept so the body can be sent again after a 307/308 redirect or a retry. A body that
/// outgrew the bound cannot be replayed, and asking for it is exit 65 with a clear message.
/// - SeeAlso: curl's `-T/--upload-file -`, `CURLE_SEND_FAIL_REWIND`.
public final class StdinReplay {
    /// How much of stdin is kept for a replay (64 MiB).
    public static let bound = 64 << 20
    private var kept: [UInt8] = []
    private var ended = false
    /// Whether more than ``bound`` bytes were read, so the start is gone.
    public private(set) var overflowed = false
    private let descriptor: Int32

    /// Reads `descriptor` (stdin by default).
    public init(descriptor: Int32 = 0) { self.descriptor = descriptor }

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
        let got = LocalFiles.read(descriptor, into: buffer)
        guard got >= 0 else { throw CurlError.readError.with(message: "Failed to read stdin") }
        if got == 0 { ended = true }
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

    private final class Reader: RequestBody {
        let source: StdinReplay
        var position = 0

        init(_ source: StdinReplay) { self.source = source }

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
