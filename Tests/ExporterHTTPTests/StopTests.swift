import ExporterHTTP
import Foundation
import Testing

/// stop(): the port closes at once, a request in flight finishes within the grace, and stop returns.
@Suite struct StopTests {
    /// Tries to connect until the port refuses (up to a bound); true once refused.
    private static func refuses(_ port: Int) -> Bool {
        for _ in 0..<2000 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            let error = errno
            close(fd)
            if rc != 0 && error == ECONNREFUSED { return true }
            usleep(5_000)
        }
        return false
    }

    /// A handler that blocks on /slow until released, and says when it got there.
    private final class Gate: @unchecked Sendable {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        func handle(_ request: HTTPRequest) -> HTTPResponse {
            guard request.path == "/slow" else { return HTTPResponse(status: 200, body: "quick") }
            entered.signal()
            _ = release.wait(timeout: .now() + 120)
            return HTTPResponse(status: 200, body: "finished")
        }
    }

    @Test func aRequestInFlightFinishesWhileThePortIsAlreadyClosed() throws {
        let gate = Gate()
        let server = try HTTPServer(listenAddress: "127.0.0.1:0", handler: gate.handle)
        let port = server.port
        let inFlight = try RunningCurl(["http://127.0.0.1:\(port)/slow"])
        #expect(gate.entered.wait(timeout: .now() + 60) == .success)
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            server.stop(graceMilliseconds: 60_000)
            stopped.signal()
        }
        #expect(Self.refuses(port))
        gate.release.signal()
        let result = inFlight.finish()
        #expect(result.status == 200 && result.body == "finished")
        #expect(result.header("Connection") == "close")
        #expect(stopped.wait(timeout: .now() + 60) == .success)
        #expect(try curl(["http://127.0.0.1:\(port)/"]).exit == 7)  // curl: couldn't connect
    }

    @Test func stopReturnsWhenAHandlerOutlivesTheGrace() throws {
        let gate = Gate()
        let server = try HTTPServer(listenAddress: "127.0.0.1:0", handler: gate.handle)
        let port = server.port
        let inFlight = try RunningCurl(["http://127.0.0.1:\(port)/slow"])
        #expect(gate.entered.wait(timeout: .now() + 60) == .success)
        server.stop(graceMilliseconds: 0)
        #expect(try curl(["http://127.0.0.1:\(port)/"]).exit == 7)
        gate.release.signal()
        #expect(inFlight.finish().status != 200)  // its response was dropped with the connection
    }

    @Test func stopTwiceIsHarmless() throws {
        let server = try HTTPServer(listenAddress: "127.0.0.1:0") { _ in HTTPResponse(status: 200, body: "") }
        server.stop(graceMilliseconds: 0)
        server.stop(graceMilliseconds: 0)
        #expect(try curl(["http://127.0.0.1:\(server.port)/"]).exit == 7)
    }
}
