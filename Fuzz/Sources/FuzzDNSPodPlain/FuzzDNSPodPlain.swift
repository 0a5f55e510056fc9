import FuzzSupport
import HTTPDNS

let cipher: SymmetricCipher? = nil

/// DNSPod plain-text answers for `www.example.com`.
@_cdecl("FuzzDNSPodPlain_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        checkDNSPod(bytes(data, size), cipher: cipher)
        return 0
    }
}
