import Foundation

/// A TCP listener on loopback that completes handshakes (via the kernel backlog) but never reads or answers:
/// the server that makes TLS, and therefore `--max-time`, wait.
final class SilentListener: @unchecked Sendable {
    let port: Int
    private let descriptor: Int32

    init(address: String = "127.0.0.4") throws {
        (descriptor, port) = try listeningSocket(address: address, backlog: 16)
    }

    deinit { close(descriptor) }
}

/// A TCP socket listening on `address`:`port` (0: a free port) with `backlog`, and the port it got.
func listeningSocket(address: String, port: Int = 0, backlog: Int32, reuseAddress: Bool = false) throws -> (Int32, Int) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var one: Int32 = 1
    if reuseAddress { setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = in_port_t(UInt16(port).bigEndian)
    inet_pton(AF_INET, address, &addr.sin_addr)
    let bound = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(descriptor, backlog) == 0 else {
        close(descriptor)
        throw LabError("cannot listen on \(address):\(port)")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return (descriptor, Int(UInt16(bigEndian: addr.sin_port)))
}

/// Writes all of `bytes` to `client`, stopping early only when the peer is gone.
func writeAll<Bytes: ContiguousBytes>(_ bytes: Bytes, to client: Int32) {
    bytes.withUnsafeBytes { buffer in
        var sent = 0
        while sent < buffer.count {
            let count = write(client, buffer.baseAddress! + sent, buffer.count - sent)
            if count <= 0 { return }
            sent += count
        }
    }
}
