import FuzzSupport
import HTTPDNS

/// curl's `--resolve` syntax (`[+]HOST:PORT:ADDR[,ADDR]...`): an entry that parses renders as one line that parses
/// back to the same entry.
@_cdecl("FuzzResolveEntry_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let text = String(decoding: bytes(data, size), as: UTF8.self)
        do {
            let entry = try ResolveEntry(parsing: text)
            requireRoundTrip(entry, "--resolve entry")
            require(HostName.lookupName(entry.host) == entry.host, "host \(entry.host.debugDescription) is not a lookup name")
            requireValid(entry.addresses, family: nil, host: entry.host, "--resolve entry")
        } catch {
            requireOneLine("\(error)", "--resolve error")
        }
        return 0
    }
}
