#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import IPCurlCore
import Testing

/// A clock a test moves by hand (nanoseconds), for the progress lines' redraw rules.
final class ManualClock { var now: UInt64 = 0 }

/// Everything `body` writes through a ``DescriptorWriter`` on a pipe, as text (the progress lines' tests).
func captured(_ body: (DescriptorWriter) -> Void) -> String {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    body(DescriptorWriter(descriptor: fds[1]))
    close(fds[1])
    var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
    while case let count = read(fds[0], &buffer, buffer.count), count > 0 { bytes += buffer[0..<count] }
    close(fds[0])
    return String(decoding: bytes, as: UTF8.self)
}
