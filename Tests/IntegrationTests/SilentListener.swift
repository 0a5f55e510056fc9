import Foundation

/// A TCP listener on loopback that completes handshakes (via the kernel backlog) but never reads or answers:
/// the server that makes TLS, and therefore `--max-time`, wait.
final class SilentListener: @unchecked Sendable {
    let port: Int
    private let descriptor: Int32

    init(address: String = "127.0.0.4") throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, address, &addr.sin_addr)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw LabError("cannot listen on \(address)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: addr.sin_port))
    }

    deinit { close(descriptor) }
}
