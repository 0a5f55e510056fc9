import CurlKit
import OptionTable

/// The command-line parser without the process around it, for the fuzz targets in `Fuzz/`. Not part of the
/// library's API.
@_spi(Fuzzing) public enum CommandLineEntryPoints {
    /// Parses `arguments` (without the program name) against the option table `ipcurl` would pick for them (a
    /// subcommand of ``Subcommands``, else fetch), config files (`-K`, `config` lines) read from `configFiles` by
    /// path (others cannot be read). Returns the error the command line would print, or `nil` when it parses.
    /// Nothing runs and nothing is printed.
    public static func parse(_ arguments: [String], configFiles: [String: String]) -> String? {
        if let first = arguments.first, let subcommand = Subcommands.named(first) {
            return parse(subcommand, Array(arguments.dropFirst()), configFiles)
        }
        return parse(FetchCommandLine.self, arguments, configFiles)
    }

    private static func parse<Command: Subcommand>(_ command: Command.Type, _ arguments: [String],
                                                  _ configFiles: [String: String]) -> String? {
        var config = Command()
        var parser = Commands.makeParser(Command.self, first: arguments.first) { path, atMost in
            guard let text = configFiles[path] else { throw CurlError.readError.with(message: "cannot read config from '\(path)'") }
            return String(decoding: text.utf8.prefix(atMost), as: UTF8.self)
        }
        do { try parser.parse(arguments, into: &config) } catch { return "\(error)" }
        return nil
    }
}
