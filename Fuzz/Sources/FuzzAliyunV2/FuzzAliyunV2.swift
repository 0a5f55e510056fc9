import FuzzSupport
@_spi(Fuzzing) import HTTPDNS

let names = ["www.example.com", "a.example.com", "b.example.com"]
let key = "000102030405060708090a0b0c0d0e0f"
let encryptions: [AliyunV2.Encryption] = [.plain, try! AliyunV2.Encryption(.cbc, hexKey: key), try! AliyunV2.Encryption(.gcm, hexKey: key)]
let familyChoices: [AddressFamilies] = [.both, .v4Only, .v6Only]

/// Alibaba's v2 answers to a query for three names, key `000102…0f`. Byte 0 picks the HTTP status (bit 0: 200 or
/// 403), the query's mode (bits 1–2, modulo 3: plain, CBC, GCM) and the families (bits 3–4, modulo 3: both, IPv4,
/// IPv6); the rest is the body. The rest is also opened as an encrypted `data` value on its own: whatever opens
/// must seal back, under its own IV, to the very bytes it came from. The rest is also a service discovery (`/ss`)
/// answer, and a stored service list: every list read has 1–32 usable addresses and valid ports, and stores and
/// reads back as itself.
@_cdecl("FuzzAliyunV2_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let input = bytes(data, size)
        guard let selector = input.first else { return 0 }
        let body = Array(input.dropFirst())
        let status = selector & 1 == 0 ? 200 : 403
        let encryption = encryptions[Int(selector >> 1 & 3) % 3]
        let families = familyChoices[Int(selector >> 3 & 3) % 3]
        let outcomes = ParserEntryPoints.aliyunV2(body, status: status, names: names, families: families, encryption: encryption)
        require(outcomes.count == names.count, "\(outcomes.count) outcomes for \(names.count) names")
        for (name, outcome) in zip(names, outcomes) {
            switch outcome {
            case .answer(let host, let addresses, let ttl):
                require(status == 200, "an answer from HTTP \(status)")
                require(host == name, "the answer for \(name) is for \(host)")
                require(!addresses.isEmpty && ttl > 0, "an answer without addresses or with TTL \(ttl)")
                let only: IPAddress.Family? = families == .both ? nil : families == .v4Only ? .v4 : .v6
                requireValid(addresses, family: only, host: host, "Aliyun v2 answer")
            case .refused(let reason):
                requireOneLine(reason, "Aliyun v2 reason")
            }
        }
        for (list, reason) in [ParserEntryPoints.aliyunServiceList(body, scheme: selector & 1 == 0 ? "https" : "http"),
                               ParserEntryPoints.aliyunServiceRecord(body, key: "k")] {
            if let list {
                require((1...AliyunV2.ServiceList.maximumAddresses).contains(list.addresses.count), "\(list.addresses.count) service addresses")
                for address in list.addresses {
                    require(address.address.isUsable() && (1...65_535).contains(address.port), "service address \(address)")
                }
                let text = ParserEntryPoints.aliyunServiceRecordText(list, key: "k")
                require(ParserEntryPoints.aliyunServiceRecord(Array(text.utf8), key: "k").0 == list,
                        "a service list does not read back as itself")
            } else {
                requireOneLine(reason, "service list reason")
            }
        }
        guard encryption.mode != .plain, let plaintext = ParserEntryPoints.aliyunV2Open(body, encryption: encryption) else {
            return 0
        }
        let sealed = Base64.decode(String(decoding: body, as: UTF8.self))!
        require(Base64.decode(Base64.encode(sealed)) == sealed, "Base64 does not round-trip")
        let ivLength = encryption.mode == .gcm ? AESGCM.ivLength : 16
        let resealed = ParserEntryPoints.aliyunV2Seal(plaintext, iv: Array(sealed.prefix(ivLength)), encryption: encryption)
        require(resealed == sealed, "an opened \(encryption.mode) message does not seal back to itself")
        return 0
    }
}
