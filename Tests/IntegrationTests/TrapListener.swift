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
        (descriptor, _) = try listeningSocket(address: address, port: port, backlog: 64, reuseAddress: true)
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
