#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CurlKit

/// A piece of a request body: bytes already in memory, or a regular file read while sending.
public enum BodySegment: Sendable, Equatable {
    case bytes([UInt8])
    case file(path: String, size: Int64)

    var size: Int64 {
        switch self {
        case .bytes(let bytes): Int64(bytes.count)
        case .file(_, let size): size
        }
    }
}

/// Streams ``BodySegment``s to libcurl in order, opening each file only when its turn comes, so a 256 MiB
/// `--data-binary @file` or `-T file` never sits in memory. Rewindable: files are reopened.
/// - SeeAlso: `CURLOPT_READFUNCTION`, `CURLOPT_SEEKFUNCTION`.
final class SegmentedBody: RequestBody {
    private let segments: [BodySegment]
    private var index = 0
    private var offset = 0
    private var descriptor: Int32 = -1

    init(_ segments: [BodySegment]) { self.segments = segments }

    deinit { closeFile() }

    var length: Int64? { segments.reduce(0) { $0 + $1.size } }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while index < segments.count {
            let count: Int
            switch segments[index] {
            case .bytes(let bytes):
                count = min(buffer.count, bytes.count - offset)
                if count > 0 {
                    bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
                    offset += count
                }
            case .file(let path, let size):
                if descriptor < 0 {
                    descriptor = open(path, O_RDONLY | O_CLOEXEC)
                    guard descriptor >= 0 else { throw CurlError.readError.with(message: "Failed to open \(path)") }
                }
                // Exactly the size announced as Content-Length: a file that shrank is an error, growth is cut off.
                let wanted = min(buffer.count, Int(size) - offset)
                var got = 0
                if wanted > 0 {
                    got = LocalFiles.read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
                    guard got > 0 else {
                        throw CurlError.readError.with(message: "Failed to read \(path): it changed while being sent")
                    }
                }
                count = got
                offset += got
                if count == 0 { closeFile() }
            }
            if count > 0 { return count }
            index += 1
            offset = 0
        }
        return 0
    }

    func rewind() -> Bool {
        closeFile()
        index = 0
        offset = 0
        return true
    }

    private func closeFile() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }
}
