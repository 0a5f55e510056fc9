@testable import HTTPDNS
import Testing

/// What Alibaba's v2 answers are read as: plain and encrypted `data`, every field checked, vendor error codes
/// classified.
///
/// The encrypted answers below decrypt, outside this code, to `Self.plainData`:
/// `base64 -d <<< AAECAwQFBgcICQoLDA0ODyo9… | tail -c +17 | openssl enc -d -aes-128-cbc -K 000102…0f -iv 000102…0f`
/// and, for GCM, `python3 -c 'AESGCM(bytes(range(16))).decrypt(d[:12], d[12:], None)'` on the Base64-decoded bytes.
@Suite struct AliyunV2AnswerTests {
    static let plainData = #"{"cip":"1.2.3.4","answers":[{"dn":"www.aliyun.com","v4":{"ips":["1.1.1.1"],"ttl":60}}]}"#
    static let cbcData = "AAECAwQFBgcICQoLDA0ODyo9M52yoqL7dqL4jpCVd3mKxhi+8ROoERPLRLjlwJ876xoPc67FYeMiyrHQCb6M37n2sMnQRR/nQfayeYLLVJC5kEScZCe0Gog4WGdVnNij/Oe8dlaVXLHL59onz0nxMQ=="
    static let gcmData = "AAECAwQFBgcICQoL6E7EpxY5zXZ6/FOkBY1EKp8Ee4ggmpiElQPLdm9mxgKnnvmAg/eZgiydcJKup7T9ob040nKzFEFVbBui2W4sv7g/239xfeQvAW1dfQhOZHlSmrUWdMHgQDXVMS0n/Iahi999jY7slA=="

    static func api(_ mode: AliyunV2.Mode = .plain, key: String = AliyunV2RequestTests.aesKey) throws -> AliyunV2 {
        try AliyunV2(account: "100000", signingKey: nil, encryption: mode == .plain ? .plain : AliyunV2.Encryption(mode, hexKey: key))
    }

    static func read(_ body: String, status: Int = 200, mode: AliyunV2.Mode = .plain, names: [String] = ["www.aliyun.com"],
                     families: AddressFamilies = .both, key: String = AliyunV2RequestTests.aesKey) throws -> AliyunV2.Reply {
        let api = try api(mode, key: key)
        let query = try api.query(#require(AliyunV2.Names(names)), families: families)
        return api.read(HTTPDNSResponse(status: status, body: Array(body.utf8)), for: query)
    }

    static func answers(_ reply: AliyunV2.Reply) -> AliyunV2.Answers? {
        if case .answers(let answers) = reply { return answers } else { return nil }
    }

    static func unusable(_ reply: AliyunV2.Reply) -> String? {
        if case .unusable(let reason, _) = reply { return reason } else { return nil }
    }

    static func refused(_ reply: AliyunV2.Reply) -> AliyunV2.ServerError? {
        if case .refused(let error) = reply { return error } else { return nil }
    }

    static func addresses(_ family: AliyunV2.FamilyAnswer?) -> [String]? {
        if case .addresses(let list, _)? = family { return list.map(\.description) } else { return nil }
    }

    // MARK: Plain and encrypted

    @Test func aPlainAnswer() throws {
        let reply = try Self.read(#"{"code":"success","mode":0,"data":\#(Self.plainData)}"#)
        let answers = try #require(Self.answers(reply))
        #expect(answers.clientIP == IPAddress("1.2.3.4"))
        let name = try #require(answers.answer(for: "www.aliyun.com"))
        #expect(name.v4 == .addresses([IPAddress("1.1.1.1")!], ttl: 60))
        #expect(name.v6 == AliyunV2.FamilyAnswer.noAddress(code: nil), "asked, not answered: no IPv6 address")
    }

    @Test(arguments: [AliyunV2.Mode.cbc, .gcm])
    func anEncryptedAnswerMatchesTheVector(_ mode: AliyunV2.Mode) throws {
        let data = mode == .cbc ? Self.cbcData : Self.gcmData
        for shownMode in ["\(mode.rawValue)", "\"\(mode.rawValue)\""] {  // a number or a numeric string
            let reply = try Self.read(#"{"code":"success","mode":\#(shownMode),"data":"\#(data)"}"#, mode: mode)
            let answers = try #require(Self.answers(reply), "\(reply)")
            #expect(answers.clientIP == IPAddress("1.2.3.4"))
            #expect(Self.addresses(answers.answer(for: "www.aliyun.com")?.v4) == ["1.1.1.1"])
        }
    }

    @Test func theClientIPMayStandBesideData() throws {
        let data = #"{"answers":[{"dn":"www.aliyun.com","v4":{"ips":["1.1.1.1"],"ttl":60}}]}"#
        let reply = try Self.read(#"{"code":"success","cip":"2001:db8::7","mode":0,"data":\#(data)}"#)
        #expect(try #require(Self.answers(reply)).clientIP == IPAddress("2001:db8::7"))
        let neither = try Self.read(#"{"code":"success","data":\#(data)}"#)
        #expect(try #require(Self.answers(neither), "mode may be absent: plain").clientIP == nil)
    }

    @Test func theModeOfTheAnswerMayNotWeakenTheQuery() throws {
        let plain = #"{"code":"success","mode":0,"data":\#(Self.plainData)}"#
        for mode in [AliyunV2.Mode.cbc, .gcm] {
            #expect(Self.unusable(try Self.read(plain, mode: mode))?.contains("mode") == true, "a clear answer to \(mode)")
        }
        let cbcToGCM = try Self.read(#"{"code":"success","mode":1,"data":"\#(Self.cbcData)"}"#, mode: .gcm)
        #expect(Self.unusable(cbcToGCM)?.contains("mode") == true, "CBC has no integrity: not an answer to GCM")
        let gcmToCBC = try Self.read(#"{"code":"success","mode":2,"data":"\#(Self.gcmData)"}"#, mode: .cbc)
        #expect(Self.answers(gcmToCBC) != nil, "GCM is at least as strong as the CBC asked for")
        let encryptedToPlain = try Self.read(#"{"code":"success","mode":2,"data":"\#(Self.gcmData)"}"#)
        #expect(Self.unusable(encryptedToPlain) != nil, "no key to open it with")
    }

    @Test(arguments: [
        ("AAECAwQF$GCA", "Base64"), ("AAECAwQFBgc", "Base64"), ("AAECAw QF", "Base64"), ("AAEC-wQF", "Base64"), ("", "decrypt"),
    ])
    func badBase64IsRefused(_ data: String, _ reason: String) throws {
        for mode in [AliyunV2.Mode.cbc, .gcm] {
            let why = try #require(Self.unusable(try Self.read(#"{"code":"success","mode":\#(mode.rawValue),"data":"\#(data)"}"#, mode: mode)))
            #expect(why.contains(reason), "\(why)")
        }
    }

    @Test func aWrongTagOrKeyIsRefused() throws {
        var bytes = try #require(Base64.decode(Self.gcmData))
        bytes[bytes.count - 1] ^= 0x80
        let wrongTag = try Self.read(#"{"code":"success","mode":2,"data":"\#(Base64.encode(bytes))"}"#, mode: .gcm)
        #expect(Self.unusable(wrongTag)?.contains("cannot decrypt") == true)
        let wrongKey = String(repeating: "ab", count: 16)
        for (mode, data) in [(AliyunV2.Mode.cbc, Self.cbcData), (.gcm, Self.gcmData)] {
            let reply = try Self.read(#"{"code":"success","mode":\#(mode.rawValue),"data":"\#(data)"}"#, mode: mode, key: wrongKey)
            #expect(Self.unusable(reply) != nil, "\(mode) with the wrong key: \(reply)")
        }
        #expect(LibCrypto.errorQueueIsEmpty)
    }

    @Test func theDecryptedDataIsCheckedAsStrictlyAsPlainData() throws {
        let api = try Self.api(.gcm)
        let query = try api.query(#require(AliyunV2.Names(["a.test"])), families: .both)
        for (inner, reason) in [(#"{"answers":[],"answers":[]}"#, "duplicate"), ("[1]", "object"), ("{", "JSON"),
                                (#"{"answers":[{"dn":"evil.test","v4":{"ips":["1.1.1.1"]}}]}"#, "evil.test")] {
            let sealed = try api.encryption.seal(Array(inner.utf8))
            let body = #"{"code":"success","mode":2,"data":"\#(Base64.encode(sealed))"}"#
            let why = try #require(Self.unusable(api.read(HTTPDNSResponse(status: 200, body: Array(body.utf8)), for: query)))
            #expect(why.contains(reason), "\(why)")
        }
    }

    // MARK: Fields

    @Test func answersForNamesNotAskedAreRefused() throws {
        let body = #"{"code":"success","data":{"answers":[{"dn":"evil.test","v4":{"ips":["127.0.0.9"],"ttl":60}}]}}"#
        let why = try #require(Self.unusable(try Self.read(body)))
        #expect(why.contains("evil.test") && why.contains("not asked"), "\(why)")
        let twice = #"{"code":"success","data":{"answers":[{"dn":"www.aliyun.com","v4":{"ips":["1.1.1.1"]}},{"dn":"WWW.aliyun.com.","v4":{"ips":["1.1.1.2"]}}]}}"#
        #expect(Self.unusable(try Self.read(twice))?.contains("twice") == true)
    }

    @Test func aBatchAnswerIsReadPerName() throws {
        let body = #"""
        {"code":"success","mode":0,"data":{"cip":"1.2.3.4","answers":[
          {"dn":"b.test","v4":{"ips":["192.0.2.2"],"ttl":30},"v6":{"ips":["2001:db8::2"],"ttl":90,"extra":"x"}},
          {"dn":"A.TEST","v4":{"ips":["192.0.2.1","192.0.2.11"],"ttl":300,"extra":{"k":1}},"v6":{"ips":[],"ttl":60,"no_ip_code":"RRNotExist"}}]}}
        """#
        let answers = try #require(Self.answers(try Self.read(body, names: ["a.test", "b.test", "c.test"])))
        #expect(Self.addresses(answers.answer(for: "a.test")?.v4) == ["192.0.2.1", "192.0.2.11"])
        #expect(answers.answer(for: "a.test")?.v6 == .noAddress(code: "RRNotExist"))
        #expect(answers.answer(for: "b.test")?.v6 == .addresses([IPAddress("2001:db8::2")!], ttl: 90))
        #expect(answers.answer(for: "c.test") == nil, "asked, not answered")
        guard case .answer(let b) = answers.verdict(for: "b.test") else { Issue.record("b.test"); return }
        #expect(b.addresses.map(\.description) == ["192.0.2.2", "2001:db8::2"] && b.ttl == 30)
        guard case .noRecords(let missing) = answers.verdict(for: "c.test") else { Issue.record("c.test"); return }
        #expect(missing == "not in the answer")
    }

    @Test(arguments: [
        (#""ips":["1.2.3.4,5.6.7.8"]"#, "is not an IP address"),
        (#""ips":["1.2.3.4 "]"#, "is not an IP address"),
        (#""ips":["1.2.3.4:443"]"#, "is not an IP address"),
        (#""ips":["evil.test"]"#, "'evil.test' is not an IP address"),
        (#""ips":["1.2.3.4\nevil.test:443:6.6.6.6"]"#, "\\x0a"),
        (#""ips":["::1"]"#, "::1 is not an IPv4 address"),
        (#""ips":[16909060]"#, "holds a number"),
        (#""ips":"1.2.3.4""#, "\"ips\" is a string, not an array"),
        (#""ips":["1.2.3.4"],"ttl":"60""#, "\"ttl\" is a string, not an integer"),
        (#""ips":["1.2.3.4"],"ttl":60.5"#, "\"ttl\" is a number, not an integer"),
        (#""ips":["1.2.3.4"],"no_ip_code":7"#, "no_ip_code"),
    ])
    func invalidIPv4FieldsAreRefused(_ fields: String, _ reason: String) throws {
        let body = #"{"code":"success","data":{"answers":[{"dn":"www.aliyun.com","v4":{\#(fields)}}]}}"#
        let why = try #require(Self.unusable(try Self.read(body)))
        #expect(why.contains(reason), "\(why)")
        requireOneLine(why)
    }

    @Test func anIPv4AddressInTheIPv6BlockIsRefused() throws {
        let body = #"{"code":"success","data":{"answers":[{"dn":"www.aliyun.com","v6":{"ips":["1.2.3.4"],"ttl":60}}]}}"#
        #expect(Self.unusable(try Self.read(body))?.contains("1.2.3.4 is not an IPv6 address") == true)
    }

    @Test(arguments: [
        (#"{"code":"success","data":{"answers":"none"}}"#, "\"answers\" is a string"),
        (#"{"code":"success","data":{"answers":[7]}}"#, "object"),
        (#"{"code":"success","data":{"answers":[{"v4":{"ips":["1.1.1.1"]}}]}}"#, "\"dn\""),
        (#"{"code":"success","data":{"answers":[{"dn":"www.aliyun.com","v4":["1.1.1.1"]}]}}"#, "\"v4\" is an array, not an object"),
        (#"{"code":"success","data":{"cip":"evil","answers":[]}}"#, "'evil' is not an IP address"),
        (#"{"code":"success","data":"e30="}"#, "\"data\" is a string"),
        (#"{"code":"success","mode":0}"#, "no \"data\""),
        (#"{"code":"success","mode":3,"data":{}}"#, "mode"),
        (#"{"code":"success","mode":"1x","data":{}}"#, "mode"),
        (#"{"code":"success","mode":true,"data":{}}"#, "mode"),
        (#"{"code":"success","data":{}} trailing"#, "trailing data"),
        (#"{"code":"success","code":"success","data":{}}"#, "duplicate member"),
        (#"{"data":{}}"#, "no \"code\""),
        (#"[]"#, "not a JSON object"),
    ])
    func malformedAnswersAreRefused(_ body: String, _ reason: String) throws {
        let why = try #require(Self.unusable(try Self.read(body)))
        #expect(why.contains(reason), "\(why)")
        requireOneLine(why)
    }

    @Test func anAnswerLargerThan64KiBIsRefusedUnread() throws {
        let filler = String(repeating: " ", count: HTTPDNSClient.maximumBody)
        #expect(Self.unusable(try Self.read(#"{"code":"success","data":\#(Self.plainData)}"# + filler))?.contains("64 KiB") == true)
    }

    @Test func aFamilyWithNoIPCodeOrNoAddressesHasNoAddress() throws {
        let body = #"{"code":"success","data":{"answers":[{"dn":"www.aliyun.com","v4":{"ips":["1.1.1.1"],"ttl":60,"no_ip_code":"DomainNotExist"},"v6":{"ips":[]}}]}}"#
        let answers = try #require(Self.answers(try Self.read(body)))
        let name = try #require(answers.answer(for: "www.aliyun.com"))
        #expect(name.v4 == .noAddress(code: "DomainNotExist"), "no_ip_code wins over stray addresses")
        #expect(name.v6 == .noAddress(code: nil))
        guard case .noRecords(let reason) = answers.verdict(for: "www.aliyun.com") else { Issue.record("not noRecords"); return }
        #expect(reason == "no IPv4 address ('DomainNotExist'), no IPv6 address", "\(reason)")
    }

    @Test func onlyTheAskedFamiliesAreRead() throws {
        let body = #"{"code":"success","data":{"answers":[{"dn":"www.aliyun.com","v4":{"ips":["1.1.1.1"]},"v6":{"ips":["::1"],"no_ip_code":"RRNotExist"}}]}}"#
        let v6 = try #require(Self.answers(try Self.read(body, families: .v6Only)))
        #expect(v6.answer(for: "www.aliyun.com")?.v4 == nil)
        guard case .noRecords(let reason) = v6.verdict(for: "www.aliyun.com") else { Issue.record("not noRecords"); return }
        #expect(reason == "no IPv6 address ('RRNotExist')")
        let v4 = try #require(Self.answers(try Self.read(body, families: .v4Only)))
        #expect(v4.answer(for: "www.aliyun.com")?.v6 == nil)
    }

    @Test(arguments: [("", 60), (#","ttl":0"#, 60), (#","ttl":-5"#, 60), (#","ttl":1"#, 1), (#","ttl":9999999999"#, 9_999_999_999)])
    func aTTLOfZeroOrLessOrNoneIsSixtySeconds(_ ttl: String, _ seconds: Int64) throws {
        let body = #"{"code":"success","data":{"answers":[{"dn":"www.aliyun.com","v4":{"ips":["1.1.1.1"]\#(ttl)}}]}}"#
        let name = try #require(Self.answers(try Self.read(body))?.answer(for: "www.aliyun.com"))
        #expect(name.v4 == .addresses([IPAddress("1.1.1.1")!], ttl: seconds))
    }

    // MARK: Error codes

    @Test(arguments: [
        ("UnsignedInterfaceDisabled", 403, true), ("SignatureExpired", 403, true), ("InvalidSignature", 403, true),
        ("InvalidAccount", 403, true), ("AccountNotExists", 403, true), ("InvalidDuration", 403, true),
        ("InvalidHost", 400, true),
        // The Android SDK's HttpException.shouldShiftServer() moves on for every other code: a query the next
        // server may read otherwise (TooManyHosts still splits a batch: AliyunV2ResolverTests).
        ("MissingArgument", 400, false), ("TooManyHosts", 400, false), ("SdnsNotSupported", 400, false),
        ("MethodNotAllowed", 405, false), ("ServiceLevelDeny", 403, false), ("InternalError", 500, false), ("SomethingNew", 400, false),
        ("InvalidSignature", 200, false),  // a 200 carrying an error code: another server may do better (Android SDK)
    ])
    func errorCodesAreClassified(_ code: String, _ status: Int, _ final: Bool) throws {
        let error = try #require(Self.refused(try Self.read(#"{"code":"\#(code)"}"#, status: status)))
        #expect(error.code.name == code && error.status == status)
        #expect(error.isFinal == final)
        #expect(error.description == "'\(code)' (HTTP \(status))", "the style of v1's codes")
    }

    @Test func knownCodesAreTyped() {
        #expect(AliyunV2.Code("InvalidSignature") == .invalidSignature)
        #expect(AliyunV2.Code("UnsignedInterfaceDisabled") == .unsignedInterfaceDisabled)
        #expect(AliyunV2.Code("ServiceLevelDeny") == .serviceLevelDeny)
        #expect(AliyunV2.Code("invalidsignature") == .other("invalidsignature"), "codes are case-sensitive")
        #expect(AliyunV2.Code.invalidHost.name == "InvalidHost")
    }

    @Test func aHostileCodeIsOneEscapedLine() throws {
        let error = try #require(Self.refused(try Self.read(#"{"code":"Bad\u001b[31m\nX\#(String(repeating: "y", count: 100))"}"#, status: 403)))
        #expect(error.description.hasPrefix(#"'Bad\x1b[31m\x0aX"#), "\(error.description)")
        requireOneLine(error.description)
        #expect(!error.isFinal)
    }

    @Test func anErrorStatusWithoutACodeFailsTheServer() throws {
        guard case .unusable(let reason, let phase) = try Self.read("<html>busy</html>", status: 403) else {
            Issue.record("not unusable"); return
        }
        #expect(reason == "HTTP 403" && phase == .http)
        #expect(Self.unusable(try Self.read(#"{"code":"success"}"#, status: 404)) == "HTTP 404")
        #expect(Self.unusable(try Self.read(#"{"message":"no"}"#, status: 400)) == "HTTP 400")
    }

    private func requireOneLine(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f }, "\(text.debugDescription)",
                sourceLocation: sourceLocation)
    }
}
