import Foundation
import Testing

/// The lab's two real DNS-over-HTTPS servers. Both serve the test. zone (Tests/Lab/test.zone): unbound from
/// its auth-zone, kresd (knot-resolver) as a caching resolver that forwards every query to unbound.
enum DoHServer: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case unbound, kresd

    var testDescription: String { rawValue }

    func url(_ lab: Lab) -> String {
        switch self {
        case .unbound: lab.dohURL
        case .kresd: lab.kresdDoHURL
        }
    }

    /// The resolver options selecting this server (and the lab CA, which signed both servers' certificate).
    func arguments(_ lab: Lab) -> [String] { ["--doh", url(lab), "--cacert", lab.ca] }

    /// Drops `names` from the server's cache, so that the next answer carries the zone's full TTL. unbound
    /// answers from the zone and has nothing to drop; kresd counts the TTLs of cached answers down.
    func forget(_ names: [String], _ lab: Lab) throws {
        guard self == .kresd else { return }
        let output = try kresdControl(lab, names.map { "cache.clear('\($0)', true)" }.joined(separator: "\n"))
        guard output.components(separatedBy: "['count'] =").count == names.count + 1 else {
            throw LabError("kresd did not clear \(names): \(output)")
        }
    }
}

/// Runs Lua `commands` (one a line) on kresd's control socket (lab.env's `LAB_KRESD_CONTROL`) and returns what
/// kresd printed. kresd answers every line, then closes the connection once it has read our end of input.
func kresdControl(_ lab: Lab, _ commands: String) throws -> String {
    let path = try lab.value("LAB_KRESD_CONTROL")
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw LabError("socket(AF_UNIX): errno \(errno)") }
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let pathBytes = Array(path.utf8)
    guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw LabError("socket path too long: \(path)") }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard connected == 0 else { throw LabError("cannot connect to kresd's control socket \(path): errno \(errno)") }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let request = Array((commands + "\n").utf8)
    var sent = 0
    while sent < request.count {
        let wrote = request[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard wrote > 0 else { throw LabError("write to kresd's control socket: errno \(errno)") }
        sent += wrote
    }
    shutdown(descriptor, Int32(SHUT_WR))
    var output: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let got = read(descriptor, &buffer, buffer.count)
        if got <= 0 { break }
        output += buffer[..<got]
    }
    return String(decoding: output, as: UTF8.self)
}

/// The DoH provider (RFC 8484 wire format) end to end against both real DoH servers.
@Suite struct DoHServerTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    @Test(arguments: DoHServer.allCases)
    func aAndAAAAInOneEntry(_ server: DoHServer) throws {
        let result = try ipcurl(["resolve"] + server.arguments(lab) + ["a.test"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "a.test:443:127.0.0.2,[::1]\n")
    }

    @Test(arguments: DoHServer.allCases)
    func cnameChainEndsAtTheTargetsAddresses(_ server: DoHServer) throws {
        let result = try ipcurl(["resolve"] + server.arguments(lab) + ["cname.test"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "cname.test:443:127.0.0.2,[::1]\n")
    }

    @Test(arguments: DoHServer.allCases)
    func nxdomainIsExit6(_ server: DoHServer) throws {
        let result = try ipcurl(["resolve", "--no-fallback"] + server.arguments(lab) + ["nosuch.test"])
        #expect(result.status == 6)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "ipcurl: (6) Could not resolve host: nosuch.test (\(server.url(lab)): DNS answer: NXDOMAIN for nosuch.test)\n",
                "\(result.stderr)")
    }

    @Test(arguments: DoHServer.allCases)
    func answerTTLIsReported(_ server: DoHServer) throws {
        try server.forget(["a.test", "b.test"], lab)
        let result = try ipcurl(["resolve", "--format", "json"] + server.arguments(lab) + ["a.test", "b.test"])
        #expect(result.status == 0, "\(result.stderr)")
        let items = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        try #require(items.count == 2)
        #expect(items.allSatisfy { $0["source"] as? String == "doh" }, "\(result.stdout)")
        // Zone TTLs: a.test 60, b.test 300. Nothing else asks kresd for b.test, so its answer is fresh;
        // a.test may have been cached again by a concurrent test since the forget.
        let a = try #require(items[0]["ttl"] as? Int), b = try #require(items[1]["ttl"] as? Int)
        #expect(a > 0 && a <= 60, "a.test ttl \(a)")
        #expect(b > 250 && b <= 300, "b.test ttl \(b)")
    }

    @Test(arguments: DoHServer.allCases)
    func fullRequestGoesIPDirect(_ server: DoHServer) throws {
        let result = try ipcurl(server.arguments(lab) + ["-sS", "-v", lab.https("a.test")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("vhost=a.test host=a.test sni=a.test "), "\(result.stdout)")
        #expect(result.stderr.contains("* HTTPDNS a.test: 127.0.0.2, ::1 (doh \(server.url(lab)), ttl "), "\(result.stderr)")
        #expect(result.stderr.contains("* RESOLVE a.test:\(lab.httpsPort):127.0.0.2,[::1]\n"))
    }

    /// kresd answers a cached name with the TTL left, and ipcurl reports that, not the zone's.
    @Test func kresdCountsCachedTTLsDown() throws {
        let server = DoHServer.kresd
        func ttl() throws -> Int {
            let result = try ipcurl(["resolve", "--format", "json"] + server.arguments(lab) + ["v6.test"])
            #expect(result.status == 0, "\(result.stderr)")
            let items = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            #expect(items.first?["source"] as? String == "doh")
            return try #require(items.first?["ttl"] as? Int)
        }
        try server.forget(["v6.test"], lab)  // only this test asks kresd for v6.test
        let fresh = try ttl()
        #expect(fresh > 50 && fresh <= 60, "fresh ttl \(fresh)")
        Thread.sleep(forTimeInterval: 2.2)
        let cached = try ttl()
        #expect(cached < fresh && cached >= fresh - 10, "fresh ttl \(fresh), cached ttl \(cached)")
    }
}
