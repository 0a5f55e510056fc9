import Foundation

/// A TCP listener on an address nothing should ever connect to: the address a misbehaving HTTPDNS answer hides
/// (after a comma, a colon, a newline, a duplicate JSON key, or behind a host name). It never accepts on its own,
/// so a connection stays in the kernel backlog until ``connections()`` takes it and counts it.
final class TrapListener: @unchecked Sendable {
    let address: String
    let port: Int
    private let descriptor: Int32
    private let lock = NSLock()
    private var seen = 0

    init(address: String, port: Int) throws {
        self.address = address
        self.port = port
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, address, &addr.sin_addr)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw LabError("cannot listen on \(address):\(port)")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// How many connections have reached the trap so far (taking and closing those waiting).
    func connections() -> Int {
        lock.lock()
        defer { lock.unlock() }
        while case let client = accept(descriptor, nil, nil), client >= 0 {
            close(client)
            seen += 1
        }
        return seen
    }

    deinit { close(descriptor) }
}
