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

    @Test func failedAddressesAreWhatTheFailureProvesAndAProxyFailureProvesNothing() {
        func failed(_ error: CurlError, at ip: String, sent: Int = 0, proxy: Bool = false) -> [String] {
            AddressFailover.failedAddresses(after: error, at: ip, requestBytesSent: sent, pinned: addresses, throughProxy: proxy)
                .map(\.description)
        }
        #expect(failed(.peerFailedVerification, at: "10.0.0.2") == ["10.0.0.1", "10.0.0.2"], "and what libcurl tried first")
        #expect(failed(.sslConnectError, at: "::1") == ["::1"])
        #expect(failed(.peerFailedVerification, at: "192.0.2.9") == addresses.map(\.description), "a SOCKS proxy's address")
        #expect(failed(.peerFailedVerification, at: "10.0.0.2", proxy: true) == ["10.0.0.1", "10.0.0.2"], "TLS is the target's")
        #expect(failed(.couldntConnect, at: "") == addresses.map(\.description))
        #expect(failed(.operationTimedOut, at: "10.0.0.1") == addresses.map(\.description))
        #expect(failed(.couldntConnect, at: "127.0.0.1", proxy: true).isEmpty, "the connection was the proxy's")
        #expect(failed(.operationTimedOut, at: "127.0.0.1", proxy: true).isEmpty)
        #expect(failed(.peerFailedVerification, at: "10.0.0.1", sent: 75).isEmpty)
        #expect(failed(.receiveError, at: "10.0.0.1").isEmpty && failed(.couldntResolveHost, at: "").isEmpty)
        #expect(AddressFailover.condemns(addresses, failed: addresses.reversed()))
        #expect(!AddressFailover.condemns(addresses, failed: Array(addresses.dropLast())))
        #expect(!AddressFailover.condemns([], failed: addresses), "no answer, nothing to drop")
    }
}
