import FuzzSupport
@_spi(Fuzzing) import HTTPDNS

/// DoH JSON answers for `example.com`; the first byte picks the question's type (even: A, odd: AAAA).
@_cdecl("FuzzDoHJSON_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let input = bytes(data, size)
        guard let first = input.first else { return 0 }
        let type: DNSRecordType = first & 1 == 0 ? .a : .aaaa
        switch ParserEntryPoints.dohJSON(Array(input.dropFirst()), host: "example.com", type: type) {
        case .answer(let host, let addresses, _):
            requireValid(addresses, family: type == .a ? .v4 : .v6, host: host, "DoH JSON answer")
        case .refused(let reason):
            requireOneLine(reason, "DoH JSON reason")
        }
        return 0
    }
}
