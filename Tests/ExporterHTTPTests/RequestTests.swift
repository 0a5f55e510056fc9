import ExporterHTTP
import Foundation
import Testing

/// A plain-HTTP server driven by the real curl: what the handler sees, limits, and requests at once.
@Suite struct RequestTests {
    @Test func handlerSeesTheDecodedPathQueryAndHeaders() throws {
        let echo = Echo()
        let server = try HTTPServer(listenAddress: "127.0.0.1:0", handler: echo.handle)
        defer { server.stop(graceMilliseconds: 0) }
        let url = "http://127.0.0.1:\(server.port)/pro%20be?target=https%3A%2F%2Fa.test%2F&module=http_2xx"
            + "&module=second&plus=a+b&empty&x=%E2%9C%93"
        let result = try curl(["-H", "X-Probe: one", "-H", "x-other: two", url])
        #expect(result.exit == 0 && result.status == 200)
        #expect(result.header("X-Echo") == "yes")
        #expect(result.header("Content-Type") == "text/plain; charset=utf-8")
        let lines = result.body.split(separator: "\n").map(String.init)
        #expect(lines.first == "method GET")
        #expect(lines.contains("path /pro be"))
        #expect(lines.filter { $0.hasPrefix("query ") } == [
            "query target=https://a.test/", "query module=http_2xx", "query module=second", "query plus=a b",
            "query empty=", "query x=✓",
        ])
        #expect(lines.contains("first module=http_2xx"))
        #expect(lines.contains("header X-Probe: one") && lines.contains("header x-other: two"))
        #expect(lines.contains("x-probe one"))
        #expect(lines.contains { $0.hasPrefix("remote 127.0.0.1:") })
        #expect(lines.contains("user -"))
    }

    @Test func requestAccessorsMatchAsDocumented() {
        let request = HTTPRequest(method: "GET", path: "/probe", query: [("module", "a"), ("module", "b")],
                                  headers: [("X-Prometheus-Scrape-Timeout-Seconds", "9")])
        #expect(request.parameter("module") == "a")
        #expect(request.parameter("Module") == nil)
        #expect(request.header("x-prometheus-scrape-timeout-seconds") == "9")
        #expect(request.header("absent") == nil)
    }

    @Test func aSmallBodyIsReadAndTheHandlerAnswers() throws {
        let echo = Echo()
        let server = try HTTPServer(listenAddress: "127.0.0.1:0", handler: echo.handle)
        defer { server.stop(graceMilliseconds: 0) }
        let result = try curl(["-d", "reload=1", "http://127.0.0.1:\(server.port)/-/reload"])
        #expect(result.status == 200 && result.body.hasPrefix("method POST\npath /-/reload\n"))
    }

    @Test func aBodyPastTheLimitIsRefusedWithoutTheHandler() throws {
        let echo = Echo()
        let server = try HTTPServer(listenAddress: "127.0.0.1:0", handler: echo.handle)
        defer { server.stop(graceMilliseconds: 0) }
        let big = String(repeating: "x", count: 100_000)
        let file = NSTemporaryDirectory() + "/exporterhttp-body-\(UUID().uuidString)"
        try big.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let declared = try curl(["--data-binary", "@" + file, "http://127.0.0.1:\(server.port)/-/reload"])
        #expect(declared.status == 413)
        // Chunked, so no length is declared: the connection closes once the limit is passed.
        let chunked = try curl(["-H", "Transfer-Encoding: chunked", "--data-binary", "@" + file,
                                "http://127.0.0.1:\(server.port)/-/reload"])
        #expect(chunked.status == 0 && chunked.exit != 0)
        #expect(echo.calls == 0)
    }

    @Test func anOversizedHeaderIsRefusedWithoutTheHandler() throws {
        let echo = Echo()
        let server = try HTTPServer(listenAddress: "127.0.0.1:0", handler: echo.handle)
        defer { server.stop(graceMilliseconds: 0) }
        let result = try curl(["-H", "X-Big: " + String(repeating: "y", count: 40_000), "http://127.0.0.1:\(server.port)/"])
        #expect(result.status == 431)
        #expect(echo.calls == 0)
    }

    @Test func sixteenRequestsAreHandledAtOnce() throws {
        let barrier = Barrier(parties: 16)
        let server = try HTTPServer(listenAddress: "127.0.0.1:0") { _ in
            barrier.arriveAndWait() ? HTTPResponse(status: 200, body: "all arrived") : HTTPResponse(status: 504, body: "alone")
        }
        defer { server.stop(graceMilliseconds: 0) }
        let running = try (0..<16).map { index in try RunningCurl(["http://127.0.0.1:\(server.port)/probe?n=\(index)"]) }
        let results = running.map { $0.finish() }
        #expect(results.map(\.status) == Array(repeating: 200, count: 16))
        #expect(results.allSatisfy { $0.body == "all arrived" })
    }

    @Test func aHandlerSlowerThanTheIdleTimeoutStillAnswers() throws {
        let server = try HTTPServer(listenAddress: "127.0.0.1:0", idleTimeoutSeconds: 1) { _ in
            usleep(2_500_000)  // longer than the idle timeout: the handler's own time must not count
            return HTTPResponse(status: 200, body: "late but whole")
        }
        defer { server.stop(graceMilliseconds: 0) }
        let result = try curl(["http://127.0.0.1:\(server.port)/"])
        #expect(result.status == 200 && result.body == "late but whole")
    }

    @Test func aLargeResponseArrivesWhole() throws {
        let body = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let server = try HTTPServer(listenAddress: "127.0.0.1:0") { _ in
            HTTPResponse(status: 200, contentType: "application/octet-stream", body: body)
        }
        defer { server.stop(graceMilliseconds: 0) }
        let file = NSTemporaryDirectory() + "/exporterhttp-large-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try curl(["-o", file, "http://127.0.0.1:\(server.port)/metrics"])
        #expect(result.status == 200 && result.header("Content-Length") == "\(body.count)")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: file))) == body)
    }

    @Test func anOutOfRangeStatusBecomes500() throws {
        let server = try HTTPServer(listenAddress: "127.0.0.1:0") { _ in HTTPResponse(status: 42, body: "odd") }
        defer { server.stop(graceMilliseconds: 0) }
        #expect(try curl(["http://127.0.0.1:\(server.port)/"]).status == 500)
    }
}
