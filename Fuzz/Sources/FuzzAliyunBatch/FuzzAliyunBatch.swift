import FuzzSupport
@_spi(Fuzzing) import HTTPDNS

let hosts = ["a.example.com", "b.example.com", "www.example.com"]

/// Alibaba's batch `resolve` answers for three hosts.
@_cdecl("FuzzAliyunBatch_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let outcomes = ParserEntryPoints.aliyunBatch(bytes(data, size), hosts: hosts)
        require(outcomes.count == hosts.count, "\(outcomes.count) outcomes for \(hosts.count) hosts")
        for (asked, outcome) in zip(hosts, outcomes) {
            switch outcome {
            case .answer(let host, let addresses, _):
                require(host == asked, "the answer for \(asked) is for \(host)")
                requireValid(addresses, family: nil, host: host, "Aliyun batch answer")
            case .refused(let reason):
                requireOneLine(reason, "Aliyun batch reason")
            }
        }
        return 0
    }
}
