/// What an option takes after its name, as curl's `tool_getparam.c` alias table says it (`ARG_NONE`, `ARG_BOOL`,
/// `ARG_STRING`, `ARG_FILENAME`).
public enum ArgumentKind: Sendable, Equatable {
    /// A switch (`--next`, `--help`).
    case none
    /// A boolean: `--name` turns it on, `--no-name` off.
    case boolean
    /// A string value (`-X POST`).
    case string
    /// A file name (completions offer files).
    case file
    /// A whole number (`--retry 3`); the row's apply function parses it with ``OptionArgument/integer(in:)``.
    case number
    /// A decimal number of seconds (`-m 2.5`).
    case seconds
    /// A word that may follow the option (`--help all`), as curl's `--help` takes the next argument: a word of the
    /// set in any letter case, or any other argument that is not an option (the command says it names nothing).
    case optionalWord([String])

    /// What an ``optionalWord(_:)`` option takes from `candidate`: the listed word it spells in any letter case,
    /// `candidate` itself when it is no option, else `nil` (the option stands alone).
    public static func word(_ candidate: String, of words: [String]) -> String? {
        let lower = candidate.lowercased()
        if let known = words.first(where: { $0 == lower }) { return known }
        return candidate.hasPrefix("-") || candidate.isEmpty ? nil : candidate
    }

    /// Whether the option always consumes a value.
    public var takesValue: Bool {
        switch self {
        case .none, .boolean, .optionalWord: return false
        case .string, .file, .number, .seconds: return true
        }
    }
}

/// A group of options in `--help CATEGORY`, the man page and completions (curl's help categories).
public struct OptionCategory: Sendable, Hashable {
    /// The word given to `--help` (`tls`, `http`).
    public let name: String
    /// One line shown by `--help category`.
    public let summary: String

    public init(_ name: String, _ summary: String) {
        self.name = name
        self.summary = summary
    }
}

extension OptionCategory {
    /// The distinct categories of `categories` (by name), in the order they first appear: what help, the man page
    /// and completions group options by. Rows of one category mostly follow each other, so the last one kept
    /// answers most of them without a search (tables are built at every start-up).
    @inlinable
    public static func inOrder(_ categories: some Sequence<OptionCategory>) -> [OptionCategory] {
        var seen: [OptionCategory] = []
        for category in categories where seen.last?.name != category.name && !seen.contains(where: { $0.name == category.name }) {
            seen.append(category)
        }
        return seen
    }
}

/// One option of a subcommand: its names, what it takes, its help and what it does to the command's
/// configuration. A subcommand's options are one array of rows, as curl's `aliases[]` table.
/// - SeeAlso: curl's `src/tool_getparam.c` (`struct LongShort aliases[]`), `src/tool_listhelp.c`.
public struct OptionRow<Config>: Sendable {
    /// The long name without dashes (`max-time`).
    public let long: String
    /// The short letter, if any (`m`).
    public let short: Character?
    public let argument: ArgumentKind
    /// Whether giving the option again adds to the earlier values (`-H`) rather than replacing them.
    public let repeatable: Bool
    /// The value's name in help (`<seconds>`).
    public let valueName: String
    public let help: String
    public let category: OptionCategory
    /// Shown by plain `--help` (curl's "important" category).
    public let important: Bool
    /// The parts of the value that are a credential, blanked in the process's argv once read (`nil`: none).
    public let secret: SecretBytes?
    /// What the option can do that only the operator may ask for (run a program, read a secret, change trust);
    /// `nil` for an option any source may give (``ConfigurationTrust``).
    public let power: OptionPower?
    /// Applies the option to the configuration; a thrown error stops the parse.
    public let apply: @Sendable (inout Config, OptionArgument) throws -> Void

    public init(_ long: String, _ short: Character? = nil, _ argument: ArgumentKind, _ valueName: String = "",
                _ category: OptionCategory, _ help: String, repeatable: Bool = false, important: Bool = false,
                secret: SecretBytes? = nil, power: OptionPower? = nil,
                apply: @escaping @Sendable (inout Config, OptionArgument) throws -> Void) {
        self.long = long
        self.short = short
        self.argument = argument
        self.repeatable = repeatable
        self.valueName = valueName
        self.help = help
        self.category = category
        self.important = important
        self.secret = secret
        self.power = power
        self.apply = apply
    }

    /// How the option is spelled in messages: `--max-time` (or `-m` when that is what was typed).
    public var spelling: String { "--" + long }

    /// `-m, --max-time <seconds>` as help and the man page show it.
    public var synopsis: String {
        let names = (short.map { "-\($0), " } ?? "    ") + "--" + long
        return argument.takesValue ? names + " <\(valueName.isEmpty ? "value" : valueName)>" : names
    }
}

extension OptionRow {
    /// The same option applied to a part of a larger configuration (the resolver options inside a fetch's):
    /// `part` hands the body the part in place, `{ outer, body in try body(&outer.resolver) }`. A closure rather
    /// than a key path: each key path type is a generic class the runtime instantiates at start-up.
    public func lifted<Outer>(_ part: @escaping @Sendable (inout Outer, (inout Config) throws -> Void) throws -> Void,
                              after: (@Sendable (inout Outer, OptionArgument) -> Void)? = nil) -> OptionRow<Outer> {
        let apply = self.apply
        return OptionRow<Outer>(long, short, argument, valueName, category, help, repeatable: repeatable,
                                important: important, secret: secret, power: power) { outer, argument in
            try part(&outer) { try apply(&$0, argument) }
            after?(&outer, argument)
        }
    }
}
