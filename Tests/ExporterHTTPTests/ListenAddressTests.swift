@testable import ExporterHTTP
import Foundation
import Testing

/// Listen addresses as Go's net.Listen takes them, and the errors a bad one or a taken port gives.
@Suite struct ListenAddressTests {
    private static let ipv6Loopback: Bool = {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return fd >= 0 && withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        } == 0
    }()

    @Test(arguments: [
        ("9115", "listen 9115: missing port in address"),
        ("[::1", "listen [::1: missing ']' in address"),
        ("[::1]", "listen [::1]: missing port in address"),
        ("[::1]x:80", "listen [::1]x:80: unexpected text after ']' in address"),
        ("a:b:80", "listen a:b:80: too many colons in address"),
        (":99999", "listen :99999: invalid port \"99999\""),
        (":http", "listen :http: unknown port \"http\""),
    ])
    func aMalformedAddressIsRefused(text: String, message: String) {
        #expect(throws: HTTPServerError(message)) { _ = try ListenAddress(text) }
    }

    @Test(arguments: [
        (":9115", nil, 9115), ("127.0.0.1:0", "127.0.0.1", 0), ("[::1]:8080", "::1", 8080), ("localhost:", "localhost", 0),
    ] as [(String, String?, UInt16)])
    func addressesParseAsGoReadsThem(text: String, host: String?, port: UInt16) throws {
        let address = try ListenAddress(text)
        #expect(address.host == host && address.port == port)
    }

    @Test func aTakenPortIsRefusedWithTheSystemsReason() throws {
        let first = try HTTPServer(listenAddress: "127.0.0.1:0") { _ in HTTPResponse(status: 200, body: "") }
        defer { first.stop(graceMilliseconds: 0) }
        #expect(throws: HTTPServerError("listen 127.0.0.1:\(first.port): Address already in use")) {
            _ = try HTTPServer(listenAddress: "127.0.0.1:\(first.port)") { _ in HTTPResponse(status: 200, body: "") }
        }
    }

    @Test func aNameListensOnItsIPv4Address() throws {
        let echo = Echo()
        let server = try HTTPServer(listenAddress: "localhost:0", handler: echo.handle)
        defer { server.stop(graceMilliseconds: 0) }
        let result = try curl(["http://127.0.0.1:\(server.port)/"])
        #expect(result.status == 200 && result.body.contains("remote 127.0.0.1:"))
    }

    @Test(.enabled(if: ipv6Loopback)) func anIPv6LiteralListensThere() throws {
        let echo = Echo()
        let server = try HTTPServer(listenAddress: "[::1]:0", handler: echo.handle)
        defer { server.stop(graceMilliseconds: 0) }
        let result = try curl(["-g", "http://[::1]:\(server.port)/"])
        #expect(result.status == 200 && result.body.contains("remote [::1]:"))
    }

    @Test(.enabled(if: ipv6Loopback)) func anEmptyHostListensOnEveryAddressOfBothFamilies() throws {
        let echo = Echo()
        let server = try HTTPServer(listenAddress: ":0", handler: echo.handle)
        defer { server.stop(graceMilliseconds: 0) }
        let v4 = try curl(["http://127.0.0.1:\(server.port)/"])
        #expect(v4.status == 200 && v4.body.contains("remote 127.0.0.1:"))
        let v6 = try curl(["-g", "http://[::1]:\(server.port)/"])
        #expect(v6.status == 200 && v6.body.contains("remote [::1]:"))
    }
}
