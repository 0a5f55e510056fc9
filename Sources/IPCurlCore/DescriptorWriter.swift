#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An unbuffered file descriptor writer: stdout, stderr or an output file. Writes go straight to `write(2)`,
/// so body bytes, headers and `-w` text leave in the order they were produced.
public final class DescriptorWriter {
    /// Standard output.
    public static let standardOutput = DescriptorWriter(descriptor: 1)
    /// Standard error.
    public static let standardError = DescriptorWriter(descriptor: 2)

    private let descriptor: Int32

    /// Wraps an open descriptor; the caller keeps ownership.
    public init(descriptor: Int32) { self.descriptor = descriptor }

    /// Writes every byte, retrying short writes and EINTR; returns `false` on a write error.
    @discardableResult
    public func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Writes a string's UTF-8 bytes.
    @discardableResult
    public func write(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }
}

extension DescriptorWriter: @unchecked Sendable {}  // immutable descriptor; write(2) is thread-safe
