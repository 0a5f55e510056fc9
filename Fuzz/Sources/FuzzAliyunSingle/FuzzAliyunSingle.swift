import FuzzSupport
@_spi(Fuzzing) import HTTPDNS

/// Alibaba's single-host `d` answers for `www.example.com`; the first byte picks the HTTP status (even: 200, odd: 403).
@_cdecl("FuzzAliyunSingle_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let input = bytes(data, size)
        guard let first = input.first else { return 0 }
        let status = first & 1 == 0 ? 200 : 403
        switch ParserEntryPoints.aliyunSingle(Array(input.dropFirst()), status: status, host: "www.example.com") {
        case .answer(let host, let addresses, _):
            require(status == 200, "an answer from HTTP \(status)")
            require(host == "www.example.com", "answer for \(host)")
            requireValid(addresses, family: nil, host: host, "Aliyun answer")
        case .refused(let reason):
            requireOneLine(reason, "Aliyun reason")
        }
        return 0
    }
}
