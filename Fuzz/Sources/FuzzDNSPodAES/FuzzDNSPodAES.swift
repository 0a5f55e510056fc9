import FuzzSupport
import HTTPDNS

let cipher: SymmetricCipher? = try! SymmetricCipher(.aes, key: Array("0123456789abcdef".utf8))

/// DNSPod AES-128-CBC answers (hex, key `0123456789abcdef`) for `www.example.com`.
@_cdecl("FuzzDNSPodAES_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        checkDNSPod(bytes(data, size), cipher: cipher)
        return 0
    }
}
