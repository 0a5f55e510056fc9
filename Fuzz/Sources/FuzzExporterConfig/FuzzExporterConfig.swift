import FuzzSupport
@_spi(Fuzzing) import IPCurlCore

/// The `httpdns:` keys a module may say, a representative few of each kind (the operator's configuration: none refused).
let resolverOptions: [String: ResolverOptionKind] = [
    "doh": .value, "aliyun": .value, "dns-timeout": .value, "resolve": .values, "no-fallback": .flag, "resolver-cmd": .value,
]
let probers: Set<String> = ["http", "tcp", "icmp", "dns", "grpc"]

/// blackbox_exporter configuration files as `ipcurl exporter` reads them: decoded, or refused with one line at a
/// place in the file. A decoded file holds only known probers, an http module's regular expressions compile, its
/// status codes are in 100–999, every warning is one line, and the module names are the modules' keys.
@_cdecl("FuzzExporterConfig_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let input = bytes(data, size)
        switch Result(catching: { () throws(ExporterConfigError) in
            try ExporterConfig.decode(text: input, path: "blackbox.yml", resolverOptions: resolverOptions)
        }) {
        case .success(let config):
            require(Set(config.moduleNames) == Set(config.modules.keys), "module names \(config.moduleNames) vs keys")
            for warning in config.warnings { requireOneLine(warning, "warning") }
            for (name, module) in config.modules {
                require(probers.contains(module.prober), "module \(name): prober \(module.prober.debugDescription)")
                require(module.timeoutSeconds.map { $0 > 0 && $0.isFinite } ?? true, "module \(name): timeout \(String(describing: module.timeoutSeconds))")
                guard let http = module.http else { continue }
                require(http.validStatusCodes.allSatisfy { (100...999).contains($0) }, "module \(name): status codes \(http.validStatusCodes)")
                for pattern in http.failIfBodyMatches + http.failIfBodyNotMatches + (http.failIfHeaderMatches + http.failIfHeaderNotMatches).map(\.regexp) {
                    require((try? ExporterRegex.compile(pattern)) != nil, "module \(name): pattern \(pattern.debugDescription) does not compile")
                }
            }
        case .failure(let error):
            requireOneLine("\(error)", "configuration error")
            require(error.line >= 0 && error.column >= 0, "error at \(error.line):\(error.column)")
        }
        return 0
    }
}
