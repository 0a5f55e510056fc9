import FuzzSupport
@_spi(Fuzzing) import IPCurlCore

/// The `resolver:` keys `ipcurl check` accepts, a representative few of each kind.
let resolverOptions: [String: ResolverOptionKind] = [
    "doh": .value, "doh-json": .value, "aliyun-account": .value, "dns-timeout": .value, "resolve": .values,
    "fallback": .flag, "no-fallback": .flag, "dnspod": .flag,
]

/// `--targets` files (YAML or JSON): decoded, or refused with one line at a place in the file.
@_cdecl("FuzzTargetsFile_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let input = bytes(data, size)
        do throws(TargetsFileError) {
            let file = try TargetsFile.decode(input, path: "targets.yaml", resolverOptions: resolverOptions)
            require(!file.targets.isEmpty, "a file without targets")
            for argument in file.resolverArguments {
                require(argument.option.hasPrefix("--"), "resolver option \(argument.option.debugDescription)")
                require(argument.line >= 1 && argument.column >= 1, "resolver option at \(argument.line):\(argument.column)")
            }
        } catch {
            requireOneLine("\(error)", "targets file error")
            require(error.line >= 0 && error.column >= 0, "error at \(error.line):\(error.column)")
        }
        return 0
    }
}
