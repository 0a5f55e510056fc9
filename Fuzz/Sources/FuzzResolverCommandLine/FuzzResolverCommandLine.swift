import FuzzSupport
@_spi(Fuzzing) import HTTPDNS

/// A resolver command's output lines for `www.example.com` port 443.
@_cdecl("FuzzResolverCommandLine_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        switch ParserEntryPoints.resolverCommandOutput(bytes(data, size), host: "www.example.com", port: 443) {
        case .success(let addresses):
            requireValid(addresses, family: nil, unique: true, host: "www.example.com", "resolver command")
        case .failure(let error):
            requireOneLine(error.reason, "resolver command reason")
        }
        return 0
    }
}
