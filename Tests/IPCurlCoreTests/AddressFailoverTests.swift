import CurlKit
import HTTPDNS
@testable import IPCurlCore
import Testing

@Suite struct AddressFailoverTests {
    let addresses = ["10.0.0.1", "10.0.0.2", "::1", "10.0.0.3"].map { IPAddress($0)! }

    @Test func tlsFailuresMoveOnAndDropWhatLibcurlAlreadyTried() {
        let next = AddressFailover.remaining(after: .peerFailedVerification, at: "10.0.0.2", requestBytesSent: 0, addresses: addresses)
        #expect(next?.map(\.description) == ["::1", "10.0.0.3"])
        let handshake = AddressFailover.remaining(after: .sslConnectError, at: "::1", requestBytesSent: 0, addresses: addresses)
        #expect(handshake?.map(\.description) == ["10.0.0.1", "10.0.0.2", "10.0.0.3"])
    }

    @Test func nothingIsRepeatedOnceTheRequestLeftOrForOtherErrors() {
        #expect(AddressFailover.remaining(after: .peerFailedVerification, at: "10.0.0.1", requestBytesSent: 75, addresses: addresses) == nil)
        #expect(AddressFailover.remaining(after: .couldntConnect, at: "10.0.0.1", requestBytesSent: 0, addresses: addresses) == nil)
        #expect(AddressFailover.remaining(after: .operationTimedOut, at: "10.0.0.1", requestBytesSent: 0, addresses: addresses) == nil)
        #expect(AddressFailover.remaining(after: .caCertBadFile, at: "10.0.0.1", requestBytesSent: 0, addresses: addresses) == nil)
        #expect(AddressFailover.remaining(after: .peerFailedVerification, at: "10.0.0.3", requestBytesSent: 0,
                                          addresses: [IPAddress("10.0.0.3")!]) == nil, "no address left")
        #expect(AddressFailover.remaining(after: .peerFailedVerification, at: "", requestBytesSent: 0, addresses: addresses) == nil)
    }
}
