import OptionTable

/// The command-line parser without the process around it, for the fuzz targets in `Fuzz/`. Not part of the
/// library's API.
@_spi(Fuzzing) public enum CommandLineEntryPoints {
    /// Parses `arguments` (without the program name) against the option table `ipcurl` would pick for them
    /// (`resolve`, `check`, `cache`, else fetch), config files (`-K`, `config` lines) read from `configFiles` by path
    /// (others cannot be read). Returns the error the command line would print, or `nil` when it parses. Nothing runs
    /// and nothing is printed.
    public static func parse(_ arguments: [String], configFiles: [String: String]) -> String? {
        let rest = Array(arguments.dropFirst())
        switch arguments.first {
        case "resolve": return parse(rest, ResolveCommand(), rows: ResolveCommand.rows, configFiles, Commands.Positional.resolve)
        case "check": return parse(rest, CheckCommand(), rows: CheckCommand.rows, configFiles, Commands.Positional.check)
        case "cache": return parse(rest, CacheCommand(), rows: CacheCommand.rows, configFiles, Commands.Positional.cache)
        case "fetch":
            return parse(rest, FetchCommandLine(), rows: FetchCommandLine.rows, configFiles, Commands.Positional.fetch(first: rest.first))
        default:
            return parse(arguments, FetchCommandLine(), rows: FetchCommandLine.rows, configFiles,
                         Commands.Positional.fetch(first: arguments.first))
        }
    }

    private static func parse<Config>(_ arguments: [String], _ initial: Config, rows: [OptionRow<Config>], _ configFiles: [String: String],
                                      _ positional: @escaping (inout Config, String) throws -> Void) -> String? {
        var config = initial
        var parser = Commands.makeParser(rows: rows, positional: positional) { path in
            guard let text = configFiles[path] else { throw OptionError("cannot read config from '\(path)'") }
            return text
        }
        do { try parser.parse(arguments, into: &config) } catch { return "\(error)" }
        return nil
    }
}
