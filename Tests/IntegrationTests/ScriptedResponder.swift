import Foundation

/// A plain-HTTP server on loopback that answers every request with the same bytes, written as given: the server
/// that sends what nginx and the echo backend refuse to (control bytes, bytes that are not UTF-8, in a header or a
/// `Location`). It reads each request's head (kept for ``heads``), answers, closes the connection, and stops when the
/// value goes away.
final class ScriptedResponder: @unchecked Sendable {
    let port: Int
    let address: String
    private let descriptor: Int32
    private let response: [UInt8]
    private let received = Received()

    init(address: String = "127.0.0.4", response: [UInt8]) throws {
        self.address = address
        self.response = response
        (descriptor, port) = try listeningSocket(address: address, backlog: 16)
        let thread = Thread { [descriptor, response, received] in Self.serve(descriptor, response, received) }
        thread.start()
    }

    /// `http://ADDRESS:PORT/PATH`.
    func url(_ path: String = "/") -> String { "http://\(address):\(port)\(path)" }

    /// The head (request line and header lines) of every request answered so far, in order.
    var heads: [Data] { received.heads }

    private static func serve(_ listener: Int32, _ response: [UInt8], _ received: Received) {
        while case let client = accept(listener, nil, nil), client >= 0 {
            var head: [UInt8] = [], byte: UInt8 = 0
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]), read(client, &byte, 1) == 1 { head.append(byte) }
            received.append(Data(head))
            writeAll(response, to: client)
            close(client)
        }
    }

    /// The request heads, under a lock: the serving thread adds them while a test reads.
    private final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Data] = []
        var heads: [Data] { lock.withLock { list } }
        func append(_ head: Data) { lock.withLock { list.append(head) } }
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))  // wakes the accept loop, which then ends
        close(descriptor)
    }
}
