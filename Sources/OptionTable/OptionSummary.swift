/// One option row without its configuration type, for documents that list the options of several subcommands
/// (the man page, shell completions).
public struct OptionSummary: Sendable, Equatable {
    public let long: String
    public let short: Character?
    public let argument: ArgumentKind
    public let valueName: String
    public let help: String
    public let category: OptionCategory
    public let repeatable: Bool

    /// The summary of `row`.
    public init<Config>(_ row: OptionRow<Config>) {
        long = row.long
        short = row.short
        argument = row.argument
        valueName = row.valueName
        help = row.help
        category = row.category
        repeatable = row.repeatable
    }

    /// Whether shells should complete a file name after the option.
    public var takesFile: Bool { argument == .file }
}

/// What a document says about one subcommand: its name (empty for the default one), usage line, summary and
/// options.
public struct SubcommandSummary: Sendable {
    public let name: String
    public let usage: String
    public let summary: String
    public let options: [OptionSummary]

    public init<Config>(name: String, usage: String, summary: String, rows: [OptionRow<Config>]) {
        self.name = name
        self.usage = usage
        self.summary = summary
        options = rows.map(OptionSummary.init)
    }

    /// The categories in the order their first option appears.
    public var categories: [OptionCategory] { OptionCategory.inOrder(options.lazy.map { $0.category }) }
}
