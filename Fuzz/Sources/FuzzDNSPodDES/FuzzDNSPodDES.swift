import FuzzSupport
import HTTPDNS

let cipher: SymmetricCipher? = try! SymmetricCipher(.des, key: Array("01234567".utf8))

/// DNSPod DES-ECB answers (hex, key `01234567`) for `www.example.com`.
@_cdecl("FuzzDNSPodDES_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        checkDNSPod(bytes(data, size), cipher: cipher)
        return 0
    }
}
