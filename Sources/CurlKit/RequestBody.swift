#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A request body that libcurl pulls chunk by chunk through `CURLOPT_READFUNCTION`.
/// - SeeAlso: `CURLOPT_READFUNCTION`, `CURLOPT_POSTFIELDSIZE_LARGE`, `CURLOPT_INFILESIZE_LARGE`.
public protocol RequestBody: AnyObject {
    /// The total size when known up front (sent as Content-Length), `nil` for chunked.
    var length: Int64? { get }
    /// Copies the next bytes into `buffer`; returns how many, or 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Starts over from the first byte, when libcurl must send the body again (a reused connection that
    /// turned out dead, an auth round trip); `false` when the source cannot (a pipe).
    /// - SeeAlso: `CURLOPT_SEEKFUNCTION`.
    func rewind() -> Bool
}

/// Thrown by ``RequestBody/read(into:)`` when no byte is waiting yet (a non-blocking stdin, `-T .`): libcurl pauses
/// the upload and goes on with the transfer, and the progress callback resumes it, as curl does.
/// - SeeAlso: `CURL_READFUNC_PAUSE`, `curl_easy_pause`, `CURLOPT_XFERINFOFUNCTION`.
public struct RequestBodyWouldBlock: Error {
    public init() {}
}

/// A body already in memory, such as `-d name=value` from the command line.
/// - SeeAlso: `CURLOPT_READFUNCTION`, `CURLOPT_SEEKFUNCTION`, `CURLOPT_POSTFIELDSIZE_LARGE`.
public final class BytesBody: RequestBody {
    private let bytes: [UInt8]
    private var offset = 0

    /// Wraps `bytes`; they are sent verbatim.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var length: Int64? { Int64(bytes.count) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }

    public func rewind() -> Bool {
        offset = 0
        return true
    }
}
