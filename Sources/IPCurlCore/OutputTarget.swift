#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CurlKit

/// Where the response goes: stdout, or a file named by `-o` that is opened only when the first byte arrives,
/// so a transfer that fails before any data (bad certificate, no route) leaves an existing file untouched.
/// - SeeAlso: curl's `-o/--output`.
final class OutputTarget {
    private let path: String?
    private var stream: DescriptorWriter?
    private var descriptor: Int32 = -1
    private(set) var failure: CurlError?

    init(path: String?) {
        self.path = path
        if path == nil { stream = .standardOutput }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Writes `bytes`, opening the file on first use; `false` (and ``failure``) when it cannot.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let stream = openIfNeeded() else { return false }
        guard stream.write(bytes) else {
            failure = CurlError.writeError.with(message: "Failure writing output to destination")
            return false
        }
        return true
    }

    /// Creates the file for an empty but successful body, as curl does.
    func finish() throws(CurlError) {
        if openIfNeeded() == nil, let failure { throw failure }
    }

    private func openIfNeeded() -> DescriptorWriter? {
        if let stream { return stream }
        guard let path, failure == nil else { return nil }
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            failure = CurlError.writeError.with(message: "Failed to open the file \(path): \(String(cString: strerror(errno)))")
            return nil
        }
        stream = DescriptorWriter(descriptor: descriptor)
        return stream
    }
}
