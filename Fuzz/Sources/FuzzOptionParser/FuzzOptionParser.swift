import FuzzSupport
@_spi(Fuzzing) import IPCurlCLI

/// Command lines, arguments separated by NUL bytes (as in /proc/PID/cmdline), parsed as `ipcurl` would parse them;
/// `-K` files cannot be read (FuzzConfigFile reads them).
@_cdecl("FuzzOptionParser_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let arguments = bytes(data, size).split(separator: 0, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        // Usage errors quote what was typed as it was typed (as curl does), so they are not checked for line breaks.
        if let error = CommandLineEntryPoints.parse(arguments, configFiles: [:]) {
            require(!error.isEmpty, "an empty usage error")
        }
        return 0
    }
}
