import CCurl
@testable import CurlKit
import Testing

@Suite struct CurlURLTests {
    @Test func defaultPortsAndIPv6Hosts() throws {
        let https = try CurlURL("https://A.test/x")
        #expect(https.scheme == "https" && https.port == 443 && https.host == "A.test")
        #expect(try CurlURL("http://a.test/").port == 80)
        #expect(try CurlURL("a.test:8080/p").text == "http://a.test:8080/p")
        let v6 = try CurlURL("https://[::1]:8443/")
        #expect(v6.host == "::1" && v6.port == 8443)
    }

    @Test func redactedFormDropsCredentialsAndQuery() throws {
        let url = try CurlURL("https://user:secret@doh.test/dns-query?token=abc#frag")
        #expect(url.hasCredentials)
        #expect(url.redacted == "https://doh.test:443/dns-query")
        #expect(!url.redacted.contains("secret") && !url.redacted.contains("abc"))
    }

    /// The user info of URL text as typed, whatever libcurl makes of it: after any number of slashes, without a
    /// scheme, and in a URL libcurl rejects because the password holds `/`, `?`, `#` or `@`.
    @Test(arguments: [
        ("https://user:pw@h.test/x", "user:pw"), ("http:/u:p@127.0.0.7:1", "u:p"), ("http:///u:p@127.0.0.7:1", "u:p"),
        ("u:p@127.0.0.7:1", "u:p"), ("http:u:p@h.test:1", "http:u:p"), ("socks5h://u:p@h.test:1080", "u:p"),
        ("https://user:ab/SEKRET==@127.0.0.1:1/dns-query", "user:ab/SEKRET=="), ("https://user:p?w#x@h.test/", "user:p?w#x"),
        ("https://u:p@ss@h.test/", "u:p@ss"), ("https://@h.test/", ""),
        ("https://mastodon.test/@user", nil), ("https://h.test/dns-query?mail=a@b", nil), ("[::1]:8080", nil), ("", nil),
    ] as [(String, String?)])
    func userInfoIsFoundInEveryForm(text: String, userInfo: String?) {
        let found = CurlURL.userInfoBytes(in: text).map { String(decoding: Array(text.utf8)[$0], as: UTF8.self) }
        #expect(found == userInfo)
        if let userInfo, !userInfo.isEmpty { #expect(!CurlURL.withoutUserInfo(text).contains(userInfo)) }
    }

    @Test func aMessageQuotesAURLWithoutUserInfoQueryOrFragment() {
        #expect(CurlURL.redacted(text: "https://user:ab/SEKRET==@127.0.0.1:1/dns-query?token=x#f") == "https://127.0.0.1:1/dns-query")
        #expect(CurlURL.redacted(text: "https://mastodon.test/@user?x=1") == "https://mastodon.test/@user")
        #expect(CurlURL.withoutUserInfo("http:/u:p@h.test:1/?q=1") == "http:/h.test:1/?q=1")
    }

    @Test(arguments: ["http://[::1/", "https://a.test:99999/", "", "https://a b/", "http://"])
    func malformedURLsExit3(text: String) {
        #expect(throws: CurlError.malformedURL) { try CurlURL(text) }
    }
}

@Suite struct CurlErrorTests {
    @Test func exitCodesAreCurls() {
        let codes: [(CurlError, Int32)] = [
            (.usage("x"), 2), (.malformedURL, 3), (.couldntResolveHost, 6), (.couldntConnect, 7), (.writeError, 23),
            (.operationTimedOut, 28), (.sslConnectError, 35), (.peerFailedVerification, 60), (.caCertBadFile, 77),
        ]
        for (error, code) in codes { #expect(error.exitCode == code) }
    }

    @Test func equalityIgnoresTheMessage() {
        #expect(CurlError.couldntConnect.with(message: "a") == CurlError.couldntConnect)
        #expect(CurlError.couldntConnect != CurlError.couldntResolveHost)
        #expect(CurlError(CURLE_PEER_FAILED_VERIFICATION, message: "").message.isEmpty == false)
        #expect(CurlError.usage("bad").description == "(2) bad")
    }
}

@Suite struct EasyHandleTests {
    @Test func keepsEveryListItWasGiven() throws {
        let handle = try EasyHandle()
        try handle.set(CURLOPT_RESOLVE, list: ["a.test:443:127.0.0.1"])
        try handle.set(CURLOPT_HTTPHEADER, list: ["X-A: 1", "X-B: 2"])
        try handle.set(CURLOPT_RESOLVE, list: ["b.test:443:127.0.0.2"])
        #expect(handle.listStrings(CURLOPT_RESOLVE) == ["b.test:443:127.0.0.2"])
        #expect(handle.listStrings(CURLOPT_HTTPHEADER) == ["X-A: 1", "X-B: 2"])
    }

    @Test func refusedConnectionBecomesExit7WithErrorBufferText() throws {
        let handle = try EasyHandle()
        try handle.set(CURLOPT_URL, "http://127.0.0.1:9/")
        do {
            try handle.perform()
            Issue.record("connecting to port 9 should fail")
        } catch {
            #expect(error == .couldntConnect)
            #expect(error.message.contains("127.0.0.1"))
        }
    }

    /// libcurl quotes a proxy it cannot parse whole, in a buffer of 255 bytes: the message keeps the URL without
    /// its user info, a long one cut short included.
    @Test(arguments: [8, 400])
    func aProxyLibcurlRejectsIsQuotedWithoutItsUserInfo(length: Int) throws {
        let handle = try EasyHandle()
        try handle.set(CURLOPT_URL, "http://127.0.0.1:9/")
        try handle.set(proxy: "http://user:ab/SEKRET" + String(repeating: "x", count: length) + "@127.0.0.1:9")
        do {
            try handle.perform()
            Issue.record("a proxy URL with a / in its password does not parse")
        } catch {
            #expect(error.exitCode == 5 && error.message.hasPrefix("Unsupported proxy syntax in 'http://127.0.0.1:9"), "\(error.message)")
            #expect(!error.message.contains("user") && !error.message.contains("SEKRET"), "\(error.message)")
        }
    }

    @Test func bodyStreamsFromTheReadCallbackInChunks() throws {
        let body = BytesBody(Array(repeating: 7, count: 100_000))
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try body.read(into: $0) }
            if count == 0 { break }
            #expect(count <= 16_384)
            total += count
        }
        #expect(total == 100_000 && body.length == 100_000)
    }

    @Test func multiHandleRunsAllAndReportsEach() throws {
        let first = try EasyHandle()
        try first.set(CURLOPT_URL, "http://127.0.0.1:9/")
        let second = try EasyHandle()
        try second.set(CURLOPT_URL, "http://127.0.0.1:7/")
        let results = try MultiHandle().perform([first, second])
        #expect(results.count == 2 && results.allSatisfy { $0 == .couldntConnect })
    }

    @Test func driveKeepsAtMostTheConcurrencyOnTheLoopAndFinishesEvery() throws {
        let multi = try MultiHandle()
        var made = 0, finished = 0, mostAtOnce = 0
        try multi.drive(concurrency: 3, next: {
            guard made < 10 else { return nil }
            made += 1
            mostAtOnce = max(mostAtOnce, multi.count + 1)
            let easy = try? EasyHandle()
            try? easy?.set(CURLOPT_URL, "http://127.0.0.1:9/\(made)")
            return easy
        }, finished: { _, error in
            finished += 1
            #expect(error == .couldntConnect)
        })
        #expect(made == 10 && finished == 10)
        #expect(mostAtOnce == 3, "slots are refilled up to the limit, never past it")
        #expect(multi.count == 0)
    }

    @Test func performAloneRemovesAnEarlierTransfersPinsFromTheLoop() throws {
        let loop = try MultiHandle()
        func transfer(_ url: String?, _ entries: [String]) throws -> EasyHandle {
            let easy = try EasyHandle()
            if let url { try easy.set(CURLOPT_URL, url) }
            try easy.set(resolveEntries: entries)
            return easy
        }
        let first = try transfer("http://pinned.invalid:9/", ["pinned.invalid:9:127.0.0.1"])
        #expect(throws: CurlError.couldntConnect) { try loop.performAlone(first) }
        let second = try transfer("http://other.invalid:9/", ["other.invalid:9:127.0.0.1"])
        #expect(throws: CurlError.couldntConnect) { try loop.performAlone(second) }
        #expect(second.listStrings(CURLOPT_RESOLVE) == ["-pinned.invalid:9", "other.invalid:9:127.0.0.1"],
                "the first transfer's pin is removed before the second's entries load")
        let third = try transfer("http://other.invalid:9/", ["other.invalid:9:127.0.0.1"])
        #expect(throws: CurlError.couldntConnect) { try loop.performAlone(third) }
        #expect(third.listStrings(CURLOPT_RESOLVE) == ["other.invalid:9:127.0.0.1"],
                "a refused connection came after the entries loaded: the same entries need nothing")
        let fourth = try transfer(nil, ["third.invalid:9:127.0.0.1"])
        #expect(throws: CurlError.malformedURL) { try loop.performAlone(fourth) }
        #expect(fourth.listStrings(CURLOPT_RESOLVE) == ["-other.invalid:9", "third.invalid:9:127.0.0.1"])
        let fifth = try transfer("http://fifth.invalid:9/", ["fifth.invalid:9:127.0.0.1"])
        #expect(throws: CurlError.couldntConnect) { try loop.performAlone(fifth) }
        #expect(fifth.listStrings(CURLOPT_RESOLVE) == ["-other.invalid:9", "-third.invalid:9", "fifth.invalid:9:127.0.0.1"],
                "a transfer without a URL ends before loading: its removal and its pin are removed by the next, once each")
    }

    @Test func runtimeFactsAndVersionGate() {
        #expect(CurlRuntime.versionNumber >= 0x074200)
        #expect(CurlRuntime.versionLine.hasPrefix("libcurl/"))
        #expect(throws: CurlError.notBuiltIn) { try CurlRuntime.require(0xFF0000, for: "the future") }
    }
}

/// The TLS and proxy setters: every option exists in the linked libcurl and takes the values curl's CLI gives it.
@Suite struct TLSAndProxySetterTests {
    @Test func everySetterIsAccepted() throws {
        let handle = try EasyHandle()
        try handle.set(caPath: "/etc/ssl/certs")
        try handle.set(tlsMinimum: .v1_2, maximum: .v1_3)
        try handle.set(tlsMinimum: nil, maximum: .v1_2)
        try handle.set(tlsMinimum: .v1_0, maximum: nil)
        try handle.set(clientCertificate: "client.pem", type: "P12")
        try handle.set(privateKey: "client.key", type: "DER")
        try handle.set(keyPassphrase: "pw")
        try handle.set(pinnedPublicKey: "sha256//AAAA")
        try handle.set(cipherList: "ECDHE-ECDSA-AES128-GCM-SHA256")
        try handle.set(tls13Ciphers: "TLS_AES_128_GCM_SHA256")
        try handle.set(verifiesCertificateStatus: true)
        try handle.set(proxy: "http://127.0.0.1:9")
        try handle.set(noProxy: "a.test")
        try handle.set(proxyUserPassword: "u:p")
        var options = TargetTLSOptions()
        options.minimumVersion = .v1_3
        options.certificate = "client.pem"
        options.pinnedPublicKey = "sha256//AAAA"
        try options.apply(to: try EasyHandle())
    }

    @Test func versionsAreOrderedAndNamedAsCurlsOptions() {
        #expect(TLSVersion.allCases.map(\.rawValue) == ["1.0", "1.1", "1.2", "1.3"])
        #expect(TLSVersion.v1_2 < .v1_3)
    }

    @Test func tlsExitCodesAreCurls() {
        #expect(CurlError.clientCertificateProblem.exitCode == 58 && CurlError.cipherProblem.exitCode == 59)
        #expect(CurlError.pinnedKeyMismatch.exitCode == 90 && CurlError.invalidCertificateStatus.exitCode == 91)
        #expect(CurlError.receiveError.exitCode == 56)
    }
}
