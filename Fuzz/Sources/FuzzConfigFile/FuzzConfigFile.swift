import FuzzSupport
@_spi(Fuzzing) import IPCurlCLI
import OptionTable

/// `-K` config files: the entries read from the text, the same entries read with CRLF line ends, the text read
/// under limits taken from its first two bytes (refused exactly when it or a line is beyond them, else the same
/// entries), then the text applied as `ipcurl -K fuzz.conf` (a `config fuzz.conf` line in it includes it again;
/// other files cannot be read).
@_cdecl("FuzzConfigFile_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let text = String(decoding: bytes(data, size), as: UTF8.self)
        let read = Result { () throws(OptionError) in try ConfigFile.entries(in: text, path: "fuzz.conf") }
        switch read {
        case .success(let entries):
            var last = 0
            for entry in entries {
                require(entry.line > last, "line numbers out of order")
                last = entry.line
                // By bytes, as the parser reads them: "-" or "=" followed by a combining mark is one Character.
                let name = Array(entry.name.utf8)
                require(![0x23, 0x2F, 0x2A].contains(name.first), "a comment read as \(entry.name.debugDescription)")
                require(!name.contains { $0 == 0x20 || (0x09...0x0D).contains($0) },
                        "entry name \(entry.name.debugDescription) holds white space")
                let separators: [UInt8] = name.starts(with: [0x2D, 0x2D]) ? [0x3D] : name.first == 0x2D ? [] : [0x3D, 0x3A]
                require(!name.contains(where: separators.contains), "entry name \(entry.name.debugDescription) holds a separator")
            }
        case .failure(let error):
            requireOneLine("\(error)", "config file error")
        }
        // CRLF line ends read as LF ones, as curl reads them.
        let crlfText = String(decoding: text.utf8.flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] }, as: UTF8.self)
        let crlf = Result { () throws(OptionError) in try ConfigFile.entries(in: crlfText, path: "fuzz.conf") }
        switch (read, crlf) {
        case (.success(let lf), .success(let cr)): require(lf == cr, "CRLF line ends change the entries")
        case (.failure(let lf), .failure(let cr)): require(lf.message == cr.message, "CRLF line ends change the error")
        default: require(false, "CRLF line ends change whether the file reads")
        }
        checkLimits(text, read)
        if let error = CommandLineEntryPoints.parse(["-K", "fuzz.conf"], configFiles: ["fuzz.conf": text]) {
            require(!error.isEmpty, "an empty config file error")
        }
        return 0
    }
}

/// `text` read under small limits (a file of 8 bytes per unit of its first byte, a line of its second byte) fails
/// with the limit's message exactly when the file or a line (LF excluded) is beyond it, and otherwise reads as
/// `unlimited` did.
func checkLimits(_ text: String, _ unlimited: Result<[ConfigFile.Entry], OptionError>) {
    let utf8 = Array(text.utf8)
    let limits = ConfigFile.Limits(bytes: Int(utf8.first ?? 0) * 8, lineBytes: Int(utf8.dropFirst().first ?? 0))
    let longest = utf8.split(separator: 0x0A, omittingEmptySubsequences: false).lazy.map(\.count).max() ?? 0
    let read = Result { () throws(OptionError) in try ConfigFile.entries(in: text, path: "fuzz.conf", limits: limits) }
    switch read {
    case .failure(let error) where utf8.count > limits.bytes:
        require(error.message == "fuzz.conf: larger than \(limits.bytes) bytes, the most a config file may hold",
                "a text over the size limit gave \(error)")
    case .failure(let error) where error.message.hasSuffix("a line longer than \(limits.lineBytes) bytes, the most a config line may hold"):
        require(longest > limits.lineBytes, "a text without a long line gave \(error)")
    case .success where utf8.count > limits.bytes || longest > limits.lineBytes:
        require(false, "a text beyond the limits was read")
    default:
        switch (read, unlimited) {
        case (.success(let a), .success(let b)): require(a == b, "the limits changed the entries")
        case (.failure(let a), .failure(let b)): require(a == b, "the limits changed the error")
        default: require(false, "the limits changed whether a text within them reads")
        }
    }
}
