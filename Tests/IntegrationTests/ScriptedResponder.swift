import Foundation

/// A plain-HTTP server on loopback that answers every request with the same bytes, written as given: the server
/// that sends what nginx and the echo backend refuse to (control bytes, bytes that are not UTF-8, in a header or a
/// `Location`). It reads each request's head, answers, closes the connection, and stops when the value goes away.
final class ScriptedResponder: @unchecked Sendable {
    let port: Int
    let address: String
    private let descriptor: Int32
    private let response: [UInt8]

    init(address: String = "127.0.0.4", response: [UInt8]) throws {
        self.address = address
        self.response = response
        (descriptor, port) = try listeningSocket(address: address, backlog: 16)
        let thread = Thread { [descriptor, response] in Self.serve(descriptor, response) }
        thread.start()
    }

    /// `http://ADDRESS:PORT/PATH`.
    func url(_ path: String = "/") -> String { "http://\(address):\(port)\(path)" }

    private static func serve(_ listener: Int32, _ response: [UInt8]) {
        while case let client = accept(listener, nil, nil), client >= 0 {
            var head: [UInt8] = [], byte: UInt8 = 0
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]), read(client, &byte, 1) == 1 { head.append(byte) }
            writeAll(response, to: client)
            close(client)
        }
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))  // wakes the accept loop, which then ends
        close(descriptor)
    }
}
