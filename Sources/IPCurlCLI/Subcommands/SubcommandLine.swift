import OptionTable

/// What every subcommand's command line has besides its own options: `-h/--help [WORD]` and `-V/--version`.
protocol SubcommandLine: Sendable {
    /// `--help WORD`: the word (empty for plain `--help`); `nil` when help was not asked for.
    var help: String? { get set }
    var version: Bool { get set }
}

extension SubcommandLine {
    /// The `--help` and `--version` rows, listed under `category`.
    static func commonRows(_ category: OptionCategory) -> [OptionRow<Self>] {
        [
            OptionRow("help", "h", .optionalWord(Commands.helpWords), "", category,
                      "Show help: the important options, a CATEGORY, \"category\" or \"all\"") { $0.help = $1.text },
            OptionRow("version", "V", .none, "", category, "Show ipcurl's and libcurl's versions") { line, _ in line.version = true },
        ]
    }
}
