import FuzzSupport
@_spi(Fuzzing) import IPCurlCore

/// The `resolver:` keys `ipcurl check` accepts, a representative few of each kind, and two it refuses in a file.
let resolverOptions: [String: ResolverOptionKind] = [
    "doh": .value, "doh-json": .value, "aliyun-account": .value, "dns-timeout": .value, "resolve": .values,
    "fallback": .flag, "no-fallback": .flag, "dnspod": .flag,
    "resolver-cmd": .refused("runs a program"), "cacert": .refused("changes which certificates are trusted"),
]

/// `--targets` files (YAML or JSON): decoded, or refused with one line at a place in the file; never a refused key
/// among the decoded options. Each input is also decoded under a cap taken from its first byte (16 bytes per unit),
/// which refuses a longer input before reading it and changes nothing for a shorter one.
@_cdecl("FuzzTargetsFile_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let input = bytes(data, size)
        let full = Result { () throws(TargetsFileError) in
            try TargetsFile.decode(input, path: "targets.yaml", resolverOptions: resolverOptions)
        }
        switch full {
        case .success(let file):
            require(!file.targets.isEmpty, "a file without targets")
            for argument in file.resolverArguments {
                require(argument.option.hasPrefix("--"), "resolver option \(argument.option.debugDescription)")
                require(argument.line >= 1 && argument.column >= 1, "resolver option at \(argument.line):\(argument.column)")
                if case .refused = resolverOptions[String(argument.option.dropFirst(2))] {
                    require(false, "refused key \(argument.option) decoded")
                }
            }
        case .failure(let error):
            requireOneLine("\(error)", "targets file error")
            require(error.line >= 0 && error.column >= 0, "error at \(error.line):\(error.column)")
        }
        let cap = Int(input.first ?? 0) * 16
        let capped = Result { () throws(TargetsFileError) in
            try TargetsFile.decode(input, path: "targets.yaml", resolverOptions: resolverOptions, maximumBytes: cap)
        }
        switch (capped, full) {
        case (.failure(let error), _) where input.count > cap:
            require(error.line == 0 && error.message == "larger than \(cap) bytes, the most a targets file may hold",
                    "an input over the cap gave \(error)")
        case (.success, _) where input.count > cap:
            require(false, "an input of \(input.count) bytes passed a cap of \(cap)")
        case (.success(let a), .success(let b)):
            require(a.targets.count == b.targets.count && a.resolverArguments == b.resolverArguments, "the cap changed a file")
        case (.failure(let a), .failure(let b)):
            require(a == b, "the cap changed an error: \(a) / \(b)")
        default:
            require(false, "the cap changed whether an input under it decodes")
        }
        return 0
    }
}
