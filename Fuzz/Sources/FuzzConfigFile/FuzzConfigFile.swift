import FuzzSupport
@_spi(Fuzzing) import IPCurlCLI
import OptionTable

/// `-K` config files: the entries read from the text, then the text applied as `ipcurl -K fuzz.conf` (a
/// `config fuzz.conf` line in it includes it again; other files cannot be read).
@_cdecl("FuzzConfigFile_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let text = String(decoding: bytes(data, size), as: UTF8.self)
        do {
            var last = 0
            for entry in try ConfigFile.entries(in: text, path: "fuzz.conf") {
                require(entry.line > last, "line numbers out of order")
                last = entry.line
                require(!entry.name.hasPrefix("#"), "a comment read as \(entry.name.debugDescription)")
                require(!entry.name.contains(where: { $0 == " " || $0 == "\t" || $0 == "=" || $0 == "\n" }),
                        "entry name \(entry.name.debugDescription) holds a separator")
            }
        } catch {
            requireOneLine("\(error)", "config file error")
        }
        if let error = CommandLineEntryPoints.parse(["-K", "fuzz.conf"], configFiles: ["fuzz.conf": text]) {
            require(!error.isEmpty, "an empty config file error")
        }
        return 0
    }
}
