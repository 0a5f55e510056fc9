#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// `ipcurl exporter --config.file FILE [options...]`: a blackbox_exporter drop-in that resolves through HTTPDNS.
/// The flags are blackbox_exporter's (`--config.file=FILE` as systemd units pass them); the resolver options are
/// every module's defaults. The server lives in a program of its own, `ipcurl-exporter` beside `ipcurl`, so a
/// request never loads the HTTP server's libraries: `ipcurl exporter` checks its options and hands over to it.
struct ExporterCommand: Subcommand {
    static let name = "exporter"
    static let usage = "ipcurl exporter --config.file <file> [options...]"
    static let summary = "Serve blackbox_exporter's /probe and /metrics, resolving every probe through HTTPDNS."

    var resolver = ResolverOptions()
    /// The resolver options as given, replayed under a module's `httpdns:` block.
    var resolverArguments: [(long: String, argument: OptionArgument)] = []
    var configFile: String?
    var listenAddress = ":9115"
    var webConfigFile: String?
    var timeoutOffset = 0.5
    var configCheck = false
    var logLevel = "info"
    var logFormat = "logfmt"
    var help: String?
    var version = false

    static let category = OptionCategory("exporter", "What ipcurl exporter serves and how")

    static let rows = commonRows(category, for: ownRows) + ownRows

    private static let ownRows: [OptionRow<ExporterCommand>] = [
        OptionRow("config.file", nil, .file, "file", category, "blackbox_exporter configuration file (modules)", important: true) {
            $0.configFile = $1.text
        },
        OptionRow("web.listen-address", nil, .string, "addr", category, "Address to listen on: HOST:PORT, :PORT (default :9115)",
                  important: true) { $0.listenAddress = $1.text },
        OptionRow("web.config.file", nil, .file, "file", category,
                  "exporter-toolkit web configuration: TLS and basic authentication for scrapes") { $0.webConfigFile = $1.text },
        OptionRow("timeout-offset", nil, .seconds, "seconds", category,
                  "Seconds taken off Prometheus' scrape timeout for each probe (default 0.5)") { $0.timeoutOffset = try $1.seconds() },
        OptionRow("config.check", nil, .boolean, "", category, "Check the configuration file and exit") { $0.configCheck = $1.isOn },
        OptionRow("log.level", nil, .string, "level", category, "debug, info, warn or error (default info)") { command, argument in
            guard ["debug", "info", "warn", "error"].contains(argument.text) else {
                throw argument.problem("\(Printable.quoted(String(argument.text.prefix(40)))): expected debug, info, warn or error")
            }
            command.logLevel = argument.text
        },
        OptionRow("log.format", nil, .string, "format", category, "logfmt (default) or json") { command, argument in
            guard ["logfmt", "json"].contains(argument.text) else {
                throw argument.problem("\(Printable.quoted(String(argument.text.prefix(40)))): expected logfmt or json")
            }
            command.logFormat = argument.text
        },
    ] + ResolverOptions.rows.map { row in
        row.lifted({ try $1(&$0.resolver) }) { command, argument in command.resolverArguments.append((row.long, argument)) }
    }

    /// The exporter takes no arguments but its options (the parser adds the hint to `ipcurl help exporter`).
    mutating func take(_ argument: String) throws {
        throw OptionError("\(Printable.quoted(String(argument.prefix(40)))): ipcurl exporter takes no arguments")
    }

    /// What runs the exporter once the options are checked: set by the `ipcurl-exporter` program; in `ipcurl` it is
    /// `nil` and the command hands over to that program.
    nonisolated(unsafe) static var runner: ((ExporterCommand, Diagnostics) -> Completion)?

    /// The refusal of a command line without `--config.file`.
    static let missingConfigFile = CurlError.usage("exporter: --config.file is required (see 'ipcurl help exporter')")

    /// Hands over to `ipcurl-exporter`, or runs there: the resolver settings (secret files included) are read once,
    /// by the program that uses them.
    func run(_ diagnostics: Diagnostics) -> Completion {
        guard configFile != nil else { return .refused(Self.missingConfigFile) }
        if let runner = Self.runner { return runner(self, diagnostics) }
        return ExporterProgram.handOver()
    }
}

/// The `ipcurl-exporter` program beside `ipcurl`.
enum ExporterProgram {
    /// The program's file name.
    static let name = "ipcurl-exporter"

    /// Replaces this process with `ipcurl-exporter` and the same arguments; returns only when it cannot (exit 2,
    /// saying where it looked).
    static func handOver() -> Completion {
        let path = besideThisProgram()
        var arguments = [path] + Array(CommandLine.arguments.dropFirst(2))
        let pointers = arguments.indices.map { strdup(arguments[$0]) } + [nil]
        execv(path, pointers)
        let reason = String(cString: strerror(errno))
        arguments.removeAll()
        return .refused(.usage("exporter: cannot run \(path): \(reason) (the exporter is the \(name) program installed beside ipcurl)"))
    }

    /// `ipcurl-exporter` in the directory of this program's executable (`/proc/self/exe`).
    static func besideThisProgram() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return name }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) + "/" + name
    }
}
