#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// The `ipcurl` command line: picks the subcommand from the first argument (``Subcommands``; `help`; anything
/// else is a fetch), parses the rest against that subcommand's option table in curl's grammar, runs it, and is
/// the one boundary where its ending becomes a line on stderr and an exit status (``ExitCodes``).
public enum Commands {
    /// Runs the command line of this process and exits with its status.
    public static func main() -> Never {
        SignalCleanup.ignoreBrokenPipe()
        exitProcess(run(Array(CommandLine.arguments.dropFirst())))
    }

    static func run(_ arguments: [String]) -> Int32 {
        let diagnostics = Diagnostics(program: "ipcurl")
        let completion: Completion
        if arguments.first == "help" {
            completion = help(Array(arguments.dropFirst()))
        } else if let first = arguments.first, let subcommand = Subcommands.named(first) {
            completion = execute(subcommand, Array(arguments.dropFirst()), argvIndex: 2, diagnostics)
        } else {
            completion = execute(FetchCommandLine.self, arguments, argvIndex: 1, diagnostics)
        }
        return finish(completion, diagnostics)
    }

    /// The `ipcurl-exporter` program's command line: `ipcurl exporter`'s, parsed and answered the same way, its lines
    /// starting `ipcurl:` as those of `ipcurl exporter`.
    static func runExporter(_ arguments: [String]) -> Int32 {
        let diagnostics = Diagnostics(program: "ipcurl")
        return finish(execute(ExporterCommand.self, arguments, argvIndex: 1, diagnostics), diagnostics)
    }

    /// The boundary: tells what the subcommand left untold and returns the exit status.
    static func finish(_ completion: Completion, _ diagnostics: Diagnostics) -> Int32 {
        switch completion {
        case .failed(let error): diagnostics.emit(.error, Diagnostics.text(of: error))
        case .refused(let error): diagnostics.emit(.error, error.message)
        case .success, .reported, .probesFailed: break
        }
        return ExitCodes.code(for: completion)
    }

    /// Parses `arguments` for `subcommand` and answers `--version` and `--help`, or runs it. `argvIndex` is where
    /// the first of `arguments` sits in the process's argv (after the program's and the subcommand's names).
    private static func execute<Command: Subcommand>(_ subcommand: Command.Type, _ arguments: [String], argvIndex: Int,
                                                    _ diagnostics: Diagnostics) -> Completion {
        let prefix = Command.prefix(for: arguments)
        let command: Command
        do throws(Completion) {
            command = try parse(prefix + arguments, skipping: prefix.count, argvIndex: argvIndex, first: arguments.first,
                                defaultConfig: prefix.last, diagnostics)
        } catch {
            return error
        }
        if command.version {
            // As curl -V: the versions, then what ipcurl speaks and which of libcurl's features it can use.
            DescriptorWriter.standardOutput.write("ipcurl \(IPCurlVersion.number) (\(CurlRuntime.versionLine))\n"
                                                  + "Protocols: http https\nFeatures: \(CurlRuntime.featureNames.joined(separator: " "))\n")
            return .success
        }
        if let word = command.help { return help(word, Command.self) }
        return command.run(diagnostics)
    }

    /// Parses `arguments` into a `Command`. Secret values are blanked in argv afterwards (`skipping` arguments were
    /// added before the real ones, the first of which is argv's `argvIndex`; `defaultConfig` is read only if it is
    /// the user's own).
    private static func parse<Command: Subcommand>(_ arguments: [String], skipping: Int, argvIndex: Int, first: String?,
                                                  defaultConfig: String?,
                                                  _ diagnostics: Diagnostics) throws(Completion) -> Command {
        var command = Command()
        var parser = makeParser(Command.self, first: first) { path, atMost in
            try ConfigFileReader.read(path, atMost: atMost, mustBeUsersOwn: path == defaultConfig)
        }
        // A config file's warnings wait for the whole command line: -s anywhere (or a silent line) keeps them off stderr.
        var warnings: [String] = []
        parser.warn = { warnings.append($0) }
        defer { if command.showsWarnings { for warning in warnings { diagnostics.warning(warning) } } }
        do {
            try parser.parse(arguments, into: &command)
        } catch let error as CurlError {
            throw .refused(error)
        } catch {
            throw .refused(.usage("\(error) (see '\(Command.helpCommand)')"))
        }
        // Blank secrets at their places in argv: the parser's indices count the added config prefix too.
        ArgumentScrubber.blank(parser.secretValues.compactMap {
            $0.index >= skipping ? ($0.index - skipping + argvIndex, $0.bytes) : nil
        })
        return command
    }

    /// A parser of `Command`'s rows in curl's grammar, with `-K`/`--config` files read by `readFile`. `first` is
    /// the command line's first argument: a subcommand's name anywhere after it is a usage error for fetch.
    static func makeParser<Command: Subcommand>(_ command: Command.Type, first: String?,
                                               readFile: @escaping (String, Int) throws -> String) -> CommandLineParser<Command> {
        var parser = CommandLineParser(rows: Command.rows) { (command: inout Command, argument: String) in
            if Command.name == Subcommands.defaultName, argument != first, Subcommands.named(argument) != nil {
                throw OptionError("'\(argument)' is a subcommand: options go after the subcommand: 'ipcurl \(argument) [OPTIONS] ...'")
            }
            try command.take(argument)
        }
        parser.configFileOption = "config"
        parser.readFile = readFile
        parser.laterRows = { Command.laterRows }
        return parser
    }

    /// `ipcurl help [SUBCOMMAND] [WORD]`: a first word that names no subcommand is a word of fetch's help.
    private static func help(_ words: [String]) -> Completion {
        guard let first = words.first, let subcommand = Subcommands.named(first) else {
            return help(words.first ?? "", FetchCommandLine.self)
        }
        return help(words.dropFirst().first ?? "", subcommand)
    }

    /// Prints `subcommand`'s help for `word` (empty, a category, `category`, `exit` or `all`; else the categories).
    private static func help(_ word: String, _ subcommand: any Subcommand.Type) -> Completion {
        var text = subcommand.helpText(word)
        if word.isEmpty, subcommand.name == Subcommands.defaultName { text += summary }
        DescriptorWriter.standardOutput.write(text)  // as curl's --help, a reader that stopped early is no error
        return .success
    }

    /// Prints a subcommand's output on stdout. A write that fails (a reader that went away, a full disk) is curl's
    /// write error, so a script never takes a cut listing for a whole one.
    static func printListing(_ text: String) -> Completion {
        guard DescriptorWriter.standardOutput.write(text) else {
            return .failed(CurlError.writeError.with(message: "Failure writing output to stdout: \(String(cString: strerror(errno)))"))
        }
        return .success
    }

    static var summary: String {
        let names = Subcommands.all.dropFirst().map { "ipcurl \($0.name)" }.joined(separator: ", ")
        return """

            ipcurl resolves each URL's host through HTTPDNS or DoH, connects to the IP and keeps SNI, Host and
            certificate verification on the name. Without a resolver option or $IPCURL_DNS it asks \
            \(DoHResolver.defaultServers.joined(separator: " then ")).
            Subcommands: \(names); 'ipcurl help SUBCOMMAND' shows each.
            Exit codes are curl's: 'ipcurl --help exit' lists them.

            """
    }
}

/// The config file a fetch reads first, as curl reads `.curlrc`: `ipcurl/config` under `$XDG_CONFIG_HOME`, or under
/// `~/.config` when that is unset, empty or relative, else `~/.ipcurlrc` (none when `HOME` is relative); skipped
/// when the first argument is `--disable` or starts with `-q`. It may name a resolver command, so, as ssh reads
/// `~/.ssh/config`, it is read only when it is the user's own (``ConfigFileReader/read(_:atMost:mustBeUsersOwn:)``)
/// and never from the working directory.
enum DefaultConfig {
    static func path() -> String? {
        // As the XDG spec asks, a relative path is ignored: it would name a file in the working directory.
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) }.flatMap { $0.hasPrefix("/") ? $0 : nil } }
        let home = variable("HOME")
        var candidates: [String] = []
        if let configHome = variable("XDG_CONFIG_HOME") ?? home.map({ $0 + "/.config" }) {
            candidates.append(configHome + "/ipcurl/config")
        }
        if let home { candidates.append(home + "/.ipcurlrc") }
        return candidates.first { access($0, R_OK) == 0 }
    }
}

/// How `-K` files reach the parser: read no further than the parser asks (one byte past what its caps leave: it
/// refuses a larger file), and checked for ownership where asked.
enum ConfigFileReader {
    /// Reads at most `atMost` bytes of a `-K` file (`-` is stdin) as text; with `mustBeUsersOwn`, a file owned by
    /// another user or writable by others is a usage error (``LocalFiles/ownershipProblem(_:)``, judged on the
    /// opened file). A file that cannot be read is exit 26, as in curl, also when a config file names it. A line
    /// that is not valid UTF-8 is a usage error naming it: decoded, its bytes would be sent as others.
    static func read(_ path: String, atMost: Int, mustBeUsersOwn: Bool) throws(CurlError) -> String {
        var refusal: CurlError?
        do throws(CurlError) {
            let bytes = try LocalFiles.read(path, atMost: atMost) { info throws(CurlError) in
                guard mustBeUsersOwn, let problem = LocalFiles.ownershipProblem(info) else { return }
                let error = CurlError.usage("\(path): \(problem): not read, since it could name a program to run")
                refusal = error
                throw error
            }
            // A file cut at `atMost` is refused for its size by the parser; its last character may be cut too.
            if bytes.count < atMost, let line = firstLineNotUTF8(bytes) {
                let error = CurlError.usage("\(path == "-" ? "<stdin>" : path):\(line): not valid UTF-8; config files are read as UTF-8 text")
                refusal = error
                throw error
            }
            return String(decoding: bytes, as: UTF8.self)
        } catch {
            throw refusal ?? CurlError.readError.with(message: "cannot read config from '\(path)'")
        }
    }

    /// The number of the first line (lines end at LF, as the parser counts them) that is not valid UTF-8, whose
    /// bytes a decoding would replace with U+FFFD; `nil` when every line is valid.
    static func firstLineNotUTF8(_ bytes: [UInt8]) -> Int? {
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        where String(validating: line, as: UTF8.self) == nil {
            return index + 1
        }
        return nil
    }
}
