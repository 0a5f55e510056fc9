import Foundation

/// A one-request HTTP/1.1 server on loopback that sends its response's headers and the first part of the body,
/// then holds the rest until ``release()``: the moment a test changes the file system under a download in
/// progress, without depending on timing.
final class HeldBodyServer: @unchecked Sendable {
    let port: Int
    private let descriptor: Int32
    private let holding = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    /// Serves one request with `headers` (without `Content-Length`, which is added) and `body`, holding after its
    /// first `heldAfter` bytes.
    init(address: String = "127.0.0.4", headers: [String], body: Data, heldAfter: Int) throws {
        (descriptor, port) = try listeningSocket(address: address, backlog: 4)
        let head = (["HTTP/1.1 200 OK", "Content-Length: \(body.count)", "Connection: close"] + headers)
            .joined(separator: "\r\n") + "\r\n\r\n"
        let listening = descriptor
        Thread { [holding, released] in
            let client = accept(listening, nil, nil)
            guard client >= 0 else { return }
            defer { close(client) }
            var request = Data(), chunk = [UInt8](repeating: 0, count: 4096)
            while request.range(of: Data("\r\n\r\n".utf8)) == nil {
                let count = read(client, &chunk, chunk.count)
                guard count > 0 else { return }
                request.append(contentsOf: chunk[0..<count])
            }
            writeAll(Data(head.utf8) + body.prefix(heldAfter), to: client)
            holding.signal()
            _ = released.wait(timeout: .now() + 60)
            writeAll(body.dropFirst(heldAfter), to: client)
        }.start()
    }

    /// Waits until the first part of the body has been sent; `false` when no request came within `seconds`.
    func waitUntilHolding(seconds: Double = 20) -> Bool { holding.wait(timeout: .now() + seconds) == .success }

    /// Sends the rest of the body and closes the connection.
    func release() { released.signal() }

    deinit {
        released.signal()
        shutdown(descriptor, Int32(SHUT_RDWR))  // wakes an accept still waiting
        close(descriptor)
    }
}
