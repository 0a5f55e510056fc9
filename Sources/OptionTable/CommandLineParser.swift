/// Reads arguments in curl's grammar against one subcommand's option rows.
///
/// - Short options group and take attached values: `-sSLo/dev/null`, `-m5`, `-XPOST`, `-d@file`.
/// - Long options take `--name value` or `--name=value`; a unique prefix names its option (`--verb`), as in
///   curl 7.88; `--no-NAME` turns a boolean off.
/// - The value after an option that takes one is taken whatever it looks like (`-d -1`).
/// - `--` ends the options; everything else is handed to `positional` in order.
/// - A config-file row (``configFileOption``) reads a file in curl's `-K` syntax and applies it in place; as in
///   curl, a line with a bad option or value is reported through ``warn`` and skipped. A file that cannot be
///   read as a config file (beyond ``configLimits``, a quote left open, included too deeply) ends the parse
///   (``ConfigFileError``), wherever it is included.
/// - SeeAlso: curl's `src/tool_getparam.c` (`getparameter`, `parse_args`), `src/tool_parsecfg.c`.
public struct CommandLineParser<Config> {
    /// The rows names are looked up in; ``laterRows`` join them when a name is not found here.
    public private(set) var rows: [OptionRow<Config>]
    /// Rows built only when a command line names an option ``rows`` lack (an exact name, a `--no-` form, a prefix
    /// or a letter not among them): a run that names only common options never builds the rest of its table.
    /// Every name is looked up as in one table, since rows are searched in order and names are unique.
    public var laterRows: (() -> [OptionRow<Config>])?
    /// Receives each argument that is not an option (URLs, host names).
    public var positional: (inout Config, String) throws -> Void
    /// The long name of the row whose value is a config file to read (`config`); `nil`: no config files.
    public var configFileOption: String?
    /// Reads a config file (`-` is standard input), at most `atMost` bytes of it (a longer file may be cut there:
    /// the parser refuses it); the subcommand supplies it so errors carry its exit codes.
    public var readFile: (_ path: String, _ atMost: Int) throws -> String = { _, _ in
        throw OptionError("config files are not supported")
    }
    /// The caps on config files: each file, each line, and every file this parser reads together.
    public var configLimits = ConfigFile.Limits.standard

    /// Receives a config file's option errors: curl warns about a bad line and reads on.
    public var warn: (String) -> Void = { _ in }

    /// Where the secret parts of values sit in the argument list: the argument's index and the bytes within it.
    public private(set) var secretValues: [(index: Int, bytes: Range<Int>)] = []

    private var configDepth = 0
    /// The bytes and the files of config files read so far, each inclusion counted.
    private var configBytesRead = 0, configFilesRead = 0

    public init(rows: [OptionRow<Config>], positional: @escaping (inout Config, String) throws -> Void) {
        self.rows = rows
        self.positional = positional
    }

    // A command line names a handful of options: scanning the rows for each costs less than hashing every row's
    // names into a dictionary first.
    private func rowIndex(long name: String) -> Int? { rows.firstIndex { $0.long == name } }
    private func rowIndex(short letter: Character) -> Int? { rows.firstIndex { $0.short == letter } }

    /// Adds ``laterRows`` to ``rows`` once; `false` when there are none left to add.
    private mutating func addLaterRows() -> Bool {
        guard let later = laterRows else { return false }
        laterRows = nil
        rows += later()
        return true
    }

    /// Applies `arguments` (the command line without the program name) to `config`.
    public mutating func parse(_ arguments: [String], into config: inout Config) throws {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            let position = index
            index += 1
            let bytes = argument.utf8
            guard !optionsEnded, bytes.count > 1, bytes.first == UInt8(ascii: "-") else {
                try positional(&config, argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if bytes.dropFirst().first == UInt8(ascii: "-") {
                var name = Substring(argument.dropFirst(2))
                var attached: String?
                if let equals = name.firstIndex(of: "=") {
                    attached = String(name[name.index(after: equals)...])
                    name = name[..<equals]
                }
                let long = String(name)
                let (row, isOn) = try longRow(long)
                // String + String: a String + Substring is the stdlib's unspecialized generic, whose first call
                // resolves an associated type at run time (about 100,000 instructions of every start).
                let spelling = "--" + long
                var value = ""
                if rows[row].argument.takesValue {
                    if let attached {
                        value = attached
                        noteSecret(rows[row].secret, of: value, at: position, offset: name.utf8.count + 3)
                    } else {
                        guard index < arguments.count else { throw OptionError("option \(spelling): requires parameter") }
                        value = arguments[index]
                        noteSecret(rows[row].secret, of: value, at: index, offset: 0)
                        index += 1
                    }
                } else if let attached {
                    throw OptionError("option \(spelling): does not take a value (\"=\(attached.prefix(40))\")")
                } else if case .optionalWord(let words) = rows[row].argument, index < arguments.count,
                          let word = ArgumentKind.word(arguments[index], of: words) {
                    value = word
                    index += 1
                }
                try apply(row, OptionArgument(text: value, isOn: isOn, spelling: spelling), to: &config)
                continue
            }
            // A group of short options; a value it needs past its end is the next argument.
            var secrets: [(SecretBytes, String, Int, Int)] = []
            try applyShortGroup(argument.dropFirst(), into: &config) { rest, secret, words in
                if let rest {
                    if let secret { secrets.append((secret, String(rest), position, argument.utf8.count - rest.utf8.count)) }
                    return String(rest)
                }
                guard index < arguments.count else { return nil }
                let given = words.map { ArgumentKind.word(arguments[index], of: $0) } ?? arguments[index]
                guard let given else { return nil }
                if let secret { secrets.append((secret, given, index, 0)) }
                index += 1
                return given
            }
            for (secret, value, at, offset) in secrets { noteSecret(secret, of: value, at: at, offset: offset) }
        }
    }

    /// Records the secret parts of `value`, which starts `offset` bytes into argument `index`.
    private mutating func noteSecret(_ secret: SecretBytes?, of value: String, at index: Int, offset: Int) {
        guard let secret else { return }
        for range in secret.ranges(value) where !range.isEmpty {
            secretValues.append((index, (range.lowerBound + offset)..<(range.upperBound + offset)))
        }
    }

    /// The row a long name means, and whether a boolean is turned on: the exact name, else `no-` + a boolean's
    /// name, else the one name it is a prefix of.
    private mutating func longRow(_ name: String) throws(OptionError) -> (Int, Bool) {
        if let exact = rowIndex(long: name) { return (exact, true) }
        let negated = name.hasPrefix("no-") ? rowIndex(long: String(name.dropFirst(3))) : nil
        if let row = negated, rows[row].argument == .boolean { return (row, false) }
        if laterRows != nil {
            _ = addLaterRows()
            return try longRow(name)
        }
        if let row = negated {
            throw OptionError("option --\(name): --no- is only for boolean options; --\(rows[row].long) takes no --no- form")
        }
        let matches = rows.indices.filter { !name.isEmpty && rows[$0].long.hasPrefix(name) }
        if matches.count == 1 { return (matches[0], true) }
        if matches.count > 1 {
            let names = matches.prefix(4).map { "--" + rows[$0].long }.joined(separator: ", ")
            throw OptionError("option --\(name): is ambiguous (\(names)\(matches.count > 4 ? ", ..." : ""))")
        }
        var message = "option --\(name): is unknown"
        if let close = OptionSuggestion.closest(to: name, among: rows.map(\.long)) {
            message += "; did you mean --\(close)?"
        }
        throw OptionError(message)
    }

    private mutating func apply(_ row: Int, _ argument: OptionArgument, to config: inout Config) throws {
        if rows[row].long == configFileOption {
            try readConfig(argument.text, into: &config)
        } else {
            try rows[row].apply(&config, argument)
        }
    }

    /// Reads a config file and applies each of its lines as an option; errors name the file and line. The file
    /// is read no further than one byte past what ``configLimits`` leave.
    private mutating func readConfig(_ path: String, into config: inout Config) throws {
        let shown = path == "-" ? "<stdin>" : path
        guard configDepth < 8 else { throw ConfigFileError("\(shown): config files include each other too deeply") }
        guard configFilesRead < configLimits.totalFiles else {
            throw ConfigFileError("\(shown): more than \(configLimits.totalFiles) config files to read (each inclusion counted),"
                                  + " the most one command line may read")
        }
        configFilesRead += 1
        let left = configLimits.totalBytes - configBytesRead
        let text = try readFile(path, min(configLimits.bytes, left) + 1)
        let size = text.utf8.count
        if size <= configLimits.bytes, size > left {
            throw ConfigFileError("\(shown): the config files read hold more than \(ConfigFile.sizeText(configLimits.totalBytes))"
                                  + " together (each inclusion counted), the most one command line may read")
        }
        configBytesRead += size
        let entries: [ConfigFile.Entry]
        do { entries = try ConfigFile.entries(in: text, path: path, limits: configLimits) } catch { throw ConfigFileError(error.message) }
        configDepth += 1
        defer { configDepth -= 1 }
        for entry in entries {
            if entry.ignoresRest {
                let spelling = entry.name.hasPrefix("-") ? entry.name : "--" + entry.name
                warn("\(shown):\(entry.line): option \(spelling): the value ends at white space; quote it to keep the rest of the line")
            }
            do {
                try applyConfigEntry(entry, into: &config)
            } catch let error as OptionError {
                warn("\(shown):\(entry.line): \(error.message); line ignored")
            }
        }
    }

    private mutating func applyConfigEntry(_ entry: ConfigFile.Entry, into config: inout Config) throws {
        let row: Int, isOn: Bool, spelling: String
        if entry.name.hasPrefix("--") || !entry.name.hasPrefix("-") {
            let name = entry.name.hasPrefix("--") ? String(entry.name.dropFirst(2)) : entry.name
            (row, isOn) = try longRow(name)
            spelling = "--" + name
        } else {
            try applyConfigGroup(entry, into: &config)
            return
        }
        var value = ""
        if rows[row].argument.takesValue {
            guard let given = entry.value else { throw OptionError("option \(spelling): requires parameter") }
            value = given
        } else if case .optionalWord(let words) = rows[row].argument, let given = entry.value,
                  let word = ArgumentKind.word(given, of: words) {
            value = word
        }
        try apply(row, OptionArgument(text: value, isOn: isOn, spelling: spelling), to: &config)
    }
}

extension CommandLineParser {
    /// A config line of short options (`-s`, `-sS`, `-so FILE`, `-o/dev/null`), as curl reads one: as on the
    /// command line, with the line's value in place of the next argument.
    private mutating func applyConfigGroup(_ entry: ConfigFile.Entry, into config: inout Config) throws {
        try applyShortGroup(entry.name.dropFirst(), into: &config) { rest, _, words in
            if let rest { return String(rest) }
            guard let given = entry.value else { return nil }
            return words.map { ArgumentKind.word(given, of: $0) } ?? given
        }
    }

    /// Applies the letters of a group of short options in turn. A letter that takes a value takes the rest of the
    /// group: `value(rest, secret, nil)` returns it, or with `rest` `nil` (the letter ends the group) the value
    /// that follows the group, `nil` when there is none; `secret` says which parts must be blanked from argv. A letter
    /// with an optional word (`words`) asks only at the end of the group, and `nil` means it stands alone.
    private mutating func applyShortGroup(_ group: Substring, into config: inout Config,
                                          value: (_ rest: Substring?, _ secret: SecretBytes?, _ words: [String]?) throws -> String?) throws {
        var letters = group
        while let letter = letters.first {
            letters = letters.dropFirst()
            guard let row = rowIndex(short: letter) ?? (addLaterRows() ? rowIndex(short: letter) : nil) else {
                throw OptionError("option -\(letter): is unknown")
            }
            var text = ""
            if rows[row].argument.takesValue {
                guard let given = try value(letters.isEmpty ? nil : letters, rows[row].secret, nil) else {
                    throw OptionError("option -\(letter): requires parameter")
                }
                text = given
                letters = ""
            } else if case .optionalWord(let words) = rows[row].argument, letters.isEmpty {
                text = try value(nil, nil, words) ?? ""
            }
            try apply(row, OptionArgument(text: text, spelling: "-\(letter)"), to: &config)
        }
    }
}

/// A config file that cannot be read as one: beyond a cap of ``ConfigFile/Limits``, a quote left open, files that
/// include each other (`config FILE` lines) more than eight deep. Fatal wherever the file is included, unlike a
/// bad option line, which is a warning.
public struct ConfigFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
