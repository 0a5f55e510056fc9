#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// The `ipcurl` command line: picks the subcommand from the first argument (`resolve`, `check`, `cache`, `help`,
/// `fetch`; anything else is a fetch), parses the rest against that subcommand's option table in curl's grammar,
/// and exits with curl's codes: a usage error is one line and exit 2.
public enum Commands {
    static let subcommands = ["fetch", "resolve", "check", "cache"]

    /// The words `--help` accepts: `all`, `category`, and every category name.
    static let helpWords = ["all", "category"] + [
        TransferOptions.http, TransferOptions.post, TransferOptions.auth, OutputOptions.output, FollowOptions.redirects,
        FollowOptions.retries, ResolverOptions.resolverCategory, ResolverOptions.tlsCategory,
        ResolverOptions.connectionCategory, ProxyOptions.category, VendorOptions.category, FetchCommandLine.general, FetchCommandLine.several, FetchCommandLine.debug, TuningOptions.category,
        ResolveCommand.category, CheckCommand.category, CacheCommand.category,
    ].map(\.name)

    /// Runs the command line of this process and exits with its code.
    public static func main() -> Never {
        SignalCleanup.ignoreBrokenPipe()
        exitProcess(run(Array(CommandLine.arguments.dropFirst())))
    }

    static func run(_ arguments: [String]) -> Int32 {
        let rest = Array(arguments.dropFirst())
        switch arguments.first {
        case "resolve":
            return parse(rest, ResolveCommand(), rows: ResolveCommand.rows, name: "resolve", positional: Positional.resolve)
                .map { answer($0, "resolve") ?? $0.run() } ?? 2
        case "check":
            return parse(rest, CheckCommand(), rows: CheckCommand.rows, name: "check", positional: Positional.check)
                .map { answer($0, "check") ?? $0.run() } ?? 2
        case "cache":
            return parse(rest, CacheCommand(), rows: CacheCommand.rows, name: "cache", positional: Positional.cache)
                .map { answer($0, "cache") ?? $0.run() } ?? 2
        case "help":
            let subcommand = rest.first ?? "fetch"
            guard subcommands.contains(subcommand) else { return help(subcommand, "fetch") }
            return help(rest.dropFirst().first ?? "", subcommand)
        case "fetch":
            return fetch(rest)
        default:
            return fetch(arguments)
        }
    }

    /// A fetch: the default config file (unless `-q` comes first), then the command line.
    private static func fetch(_ arguments: [String]) -> Int32 {
        var prefix: [String] = []
        if arguments.first != "-q", arguments.first != "--disable", let path = DefaultConfig.path() {
            prefix = ["--config", path]
        }
        guard let line = parse(prefix + arguments, FetchCommandLine(), rows: FetchCommandLine.rows, name: "fetch",
                               skipping: prefix.count, positional: Positional.fetch(first: arguments.first)) else { return 2 }
        if let answered = answer(line, "fetch") { return answered }
        if let path = line.stderrPath {
            // curl's --stderr: everything meant for stderr goes to FILE ("-": stdout) from here on.
            let descriptor = path == "-" ? 1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
            if descriptor >= 0 { dup2(descriptor, 2) }
        }
        return FetchCommand.run(line)
    }

    /// The exit code of answering `--version` or `--help` when `line` asks for them; `nil` otherwise.
    private static func answer(_ line: some SubcommandLine, _ subcommand: String) -> Int32? {
        if line.version {
            DescriptorWriter.standardOutput.write("ipcurl \(IPCurlVersion.number) (\(CurlRuntime.versionLine))\n")
            return 0
        }
        return line.help.map { help($0, subcommand) }
    }

    /// Parses `arguments` into `initial` with `rows`; prints the error and returns `nil` on a mistake. Secret
    /// values are blanked in argv afterwards (`skipping` arguments were added before the real ones).
    private static func parse<Config>(_ arguments: [String], _ initial: Config, rows: [OptionRow<Config>], name: String,
                                      skipping: Int = 0,
                                      positional: @escaping (inout Config, String) throws -> Void) -> Config? {
        var config = initial
        var parser = makeParser(rows: rows, positional: positional) { path in
            do throws(CurlError) { return String(decoding: try LocalFiles.read(path), as: UTF8.self) } catch {
                throw CurlError.readError.with(message: "cannot read config from '\(path)'")
            }
        }
        parser.warn = { DescriptorWriter.standardError.write("ipcurl: warning: \($0)\n") }
        do {
            try parser.parse(arguments, into: &config)
        } catch let error as CurlError {
            DescriptorWriter.standardError.write("ipcurl: \(error.message)\n")
            exitProcess(error.exitCode)
        } catch {
            let where_ = name == "fetch" ? "ipcurl --help" : "ipcurl help \(name)"
            DescriptorWriter.standardError.write("ipcurl: \(error) (see '\(where_)')\n")
            return nil
        }
        // Blank secrets at their places in argv: the parser's indices count the added config prefix too.
        ArgumentScrubber.blank(parser.secretValues.compactMap { $0.index >= skipping ? ($0.index - skipping, $0.offset) : nil })
        return config
    }

    /// A parser of `rows` in curl's grammar, with `-K`/`--config` files read by `readFile`.
    static func makeParser<Config>(rows: [OptionRow<Config>], positional: @escaping (inout Config, String) throws -> Void,
                                   readFile: @escaping (String) throws -> String) -> CommandLineParser<Config> {
        var parser = CommandLineParser(rows: rows, positional: positional)
        parser.configFileOption = "config"
        parser.readFile = readFile
        return parser
    }

    /// What each subcommand does with an argument that is not an option.
    enum Positional {
        static func resolve(_ command: inout ResolveCommand, _ host: String) throws { try command.add(host: host) }
        static func check(_ command: inout CheckCommand, _ url: String) { command.urls.append(url) }
        static func cache(_ command: inout CacheCommand, _ word: String) throws { try command.add(word: word) }

        /// A URL; a subcommand's name after the first argument is a usage error (options go after it).
        static func fetch(first: String?) -> (inout FetchCommandLine, String) throws -> Void {
            { line, url in
                if subcommands.contains(url), url != first {
                    throw OptionError("'\(url)' is a subcommand: options go after the subcommand: 'ipcurl \(url) [OPTIONS] ...'")
                }
                line.current.urls.add(url: url)
            }
        }
    }

    /// Prints help for `subcommand` (`word`: empty, a category, `category` or `all`); exit 2 for an unknown word.
    private static func help(_ word: String, _ subcommand: String) -> Int32 {
        let text: String?
        switch subcommand {
        case "resolve":
            text = HelpText(rows: ResolveCommand.rows, usage: "ipcurl resolve [options...] <host>...",
                            helpCommand: "ipcurl help resolve").render(word)
        case "check":
            text = HelpText(rows: CheckCommand.rows, usage: "ipcurl check [options...] [<url>...] [--targets <file>]",
                            helpCommand: "ipcurl help check").render(word)
        case "cache":
            text = HelpText(rows: CacheCommand.rows, usage: "ipcurl cache list [--json] | ipcurl cache clear",
                            helpCommand: "ipcurl help cache").render(word)
        default:
            text = HelpText(rows: FetchCommandLine.rows, usage: "ipcurl [options...] <url>...",
                            helpCommand: "ipcurl --help").render(word).map { word.isEmpty ? $0 + Self.summary : $0 }
        }
        guard let text else {
            DescriptorWriter.standardError.write("ipcurl: help: no category \(ResolveEntry.quoted(String(word.prefix(40)))) (see 'ipcurl --help category')\n")
            return 2
        }
        DescriptorWriter.standardOutput.write(text)  // as curl's --help, a reader that stopped early is no error
        return 0
    }

    /// Prints a subcommand's output on stdout. A write that fails (a reader that went away, a full disk) is curl's
    /// write error, one line and exit 23, so a script never takes a cut listing for a whole one.
    static func printListing(_ text: String) -> Int32 {
        guard DescriptorWriter.standardOutput.write(text) else {
            let error = CurlError.writeError.with(message: "Failure writing output to stdout: \(String(cString: strerror(errno)))")
            DescriptorWriter.standardError.write("ipcurl: \(error)\n")
            return error.exitCode
        }
        return 0
    }

    static let summary = """

        ipcurl resolves each URL's host through HTTPDNS or DoH, connects to the IP and keeps SNI, Host and
        certificate verification on the name. Without a resolver option or $IPCURL_DNS it asks \
        \(DoHResolver.defaultServers.joined(separator: " then ")).
        Subcommands: ipcurl resolve HOST... (entries for curl --resolve), ipcurl check URL... (connectivity checks),
        ipcurl cache list|clear; 'ipcurl help SUBCOMMAND' shows each.
        Exit codes are curl's: 2 usage, 6 cannot resolve, 7 cannot connect, 28 timeout, 35 TLS, 60 certificate.

        """
}

/// The config file a fetch reads first, as curl reads `.curlrc`: `$XDG_CONFIG_HOME/ipcurl/config`, else
/// `~/.ipcurlrc`; skipped with `-q` as the first option.
enum DefaultConfig {
    static func path() -> String? {
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        var candidates: [String] = []
        if let xdg = variable("XDG_CONFIG_HOME") { candidates.append(xdg + "/ipcurl/config") }
        if let home = variable("HOME") { candidates.append(home + "/.ipcurlrc") }
        return candidates.first { access($0, R_OK) == 0 }
    }
}
