import CurlKit
import Foundation
import Testing

/// The method the problem statement calls naive: the IP in the URL and a `Host:` header beside it, sent through
/// the same curl layer ipcurl uses. SNI then carries the IP, the shared-IP server picks its default certificate,
/// and verification runs against the IP.
@Suite struct NaiveMethodTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    private func naiveHandle(insecure: Bool) throws -> (EasyHandle, Box) {
        let handle = try EasyHandle()
        try TransportOptions(caFile: lab.ca, insecure: insecure).apply(to: handle)
        try handle.set(url: "https://\(lab.ip):\(lab.httpsPort)/")
        try handle.set(headers: ["Host: a.test"])
        let box = Box()
        handle.onBody = { box.bytes += $0; return true }
        return (handle, box)
    }

    @Test func naiveRequestFailsVerification() throws {
        let (handle, box) = try naiveHandle(insecure: false)
        #expect(throws: CurlError.peerFailedVerification) { try handle.perform() }
        #expect(box.bytes.isEmpty)
    }

    @Test func naiveRequestWithoutVerificationReachesTheWrongVhost() throws {
        let (handle, box) = try naiveHandle(insecure: true)
        try handle.perform()
        // nginx routes by the Host header, but the TLS handshake carried no SNI (an IP is never sent as SNI),
        // so the server could only present its default certificate.
        #expect(String(decoding: box.bytes, as: UTF8.self).hasPrefix("vhost=a.test host=a.test sni= "))
    }

    @Test func ipcurlSucceedsWhereTheNaiveMethodFails() throws {
        let result = try ipcurl(lab.resolverArguments + [lab.https("a.test")])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("vhost=a.test host=a.test sni=a.test"))
    }

    @Test func resolveListKeepsLibcurlOnTheIPWithVerificationOnTheName() throws {
        let handle = try EasyHandle()
        try TransportOptions(caFile: lab.ca).apply(to: handle)
        try handle.set(url: lab.https("b.test"))
        try handle.set(resolveEntries: ["b.test:\(lab.httpsPort):\(lab.ip)"])
        let box = Box()
        handle.onBody = { box.bytes += $0; return true }
        try handle.perform()
        #expect(handle.primaryIP == lab.ip)
        #expect(String(decoding: box.bytes, as: UTF8.self).hasPrefix("vhost=b.test host=b.test sni=b.test"))
        #expect(handle.resolveEntries == ["b.test:\(lab.httpsPort):\(lab.ip)"])
    }
}

final class Box: @unchecked Sendable {
    var bytes: [UInt8] = []
}
