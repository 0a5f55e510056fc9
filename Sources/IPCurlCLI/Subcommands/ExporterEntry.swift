#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import IPCurlCore

/// The entry point of the `ipcurl-exporter` program: the command line is parsed with `ipcurl exporter`'s option
/// table (help, errors, argv scrubbing and exit codes as in `ipcurl`), the configuration is read, and `serve`
/// (the program's HTTP server) runs with the result until it returns its ending.
public enum ExporterEntry {
    /// What the server needs.
    public struct Launch: Sendable {
        /// `--web.listen-address`.
        public let listenAddress: String
        /// `--web.config.file`.
        public let webConfigFile: String?
        /// `--config.file`.
        public let configFile: String
        /// `--log.level` and `--log.format`.
        public let logLevel: String, logFormat: String
        /// The configuration's warnings (keys ignored, modules of other probers), for the server's log.
        public let warnings: [String]
        /// The endpoints, with the configuration's modules.
        public let service: ExporterService
        /// Reads the configuration again (`/-/reload`, SIGHUP): the warnings, or the reason it cannot be used.
        public let reload: @Sendable () -> Result<[String], CurlError>
    }

    /// How the server ended.
    public enum Ending {
        /// Stopped as asked (SIGTERM).
        case stopped
        /// Could not start: the reason (exit 2 for a bad setting, as curl's usage errors).
        case refused(CurlError)
        /// Failed while running.
        case failed(CurlError)
    }

    /// Runs the exporter program with this process's arguments and exits.
    public static func main(serve: @escaping (Launch, Diagnostics) -> Ending) -> Never {
        SignalCleanup.ignoreBrokenPipe()
        ExporterCommand.runner = { command, diagnostics in
            guard let configFile = command.configFile else { return .refused(ExporterCommand.missingConfigFile) }
            // Trust errors (exit 77 in a request) and resolver-setting errors are usage errors here, checked first.
            let settings: ResolverSettings, transport: TransportOptions
            do throws(CurlError) {
                transport = try command.resolver.transport()
                settings = try command.resolver.settings()
            } catch {
                return .refused(.usage(error.message))
            }
            let arguments = command.resolverArguments
            let loaded = ExporterModules.load(configFile, commandLine: arguments)
            let first: (modules: [String: ExporterService.Module], warnings: [String])
            switch loaded {
            case .success(let value): first = value
            case .failure(let error): return .refused(error)
            }
            if command.configCheck {
                for warning in first.warnings { diagnostics.warning(warning) }
                diagnostics.emit(.note, "config file \(configFile) is valid (\(first.modules.count) modules)")
                return .success
            }
            let service = ExporterService(modules: first.modules, resolver: settings, transport: transport,
                                          timeoutOffsetSeconds: command.timeoutOffset)
            let launch = Launch(listenAddress: command.listenAddress, webConfigFile: command.webConfigFile, configFile: configFile,
                                logLevel: command.logLevel, logFormat: command.logFormat, warnings: first.warnings,
                                service: service) {
                switch ExporterModules.load(configFile, commandLine: arguments) {
                case .success(let value):
                    service.replace(modules: value.modules)
                    return .success(value.warnings)
                case .failure(let error):
                    service.reloadFailed()
                    return .failure(error)
                }
            }
            switch serve(launch, diagnostics) {
            case .stopped: return .success
            case .refused(let error): return .refused(error)
            case .failed(let error): return .failed(error)
            }
        }
        exitProcess(Commands.runExporter(Array(CommandLine.arguments.dropFirst())))
    }
}
