import CurlKit
import IPCurlCore
import OptionTable

/// How a subcommand ended. The entry point alone (``Commands``) tells what is still untold, through
/// ``Diagnostics``, and picks the exit status (``ExitCodes/code(for:)``).
enum Completion: Error {
    /// Everything worked.
    case success
    /// Not told yet: printed as curl prints errors, `ipcurl: (N) message` (a usage error without the number,
    /// ``Diagnostics/text(of:)``); exit N.
    case failed(CurlError)
    /// Not told yet: printed as curl prints option errors, `ipcurl: message` without the number; exit N.
    case refused(CurlError)
    /// Told when it happened (a transfer's error as that transfer ended); exit N.
    case reported(CurlError)
    /// `check`: a probe failed; the report says which.
    case probesFailed
}

/// One subcommand of ipcurl: its name, usage line, summary, option table (curl's `tool_getparam.c` is the
/// model: one row per option, which also drives help, the man page and completions), the rule for arguments
/// that are not options, and `run`, a thin adapter over an IPCurlCore orchestrator. ``Subcommands/all`` lists
/// them; dispatch, help, the man page and completions read that list.
protocol Subcommand: Sendable {
    /// The word that picks it (`resolve`); fetch is also the default.
    static var name: String { get }
    /// `ipcurl resolve [options...] <host>...`.
    static var usage: String { get }
    /// One line for the man page and `ipcurl --help`.
    static var summary: String { get }
    /// The category `--help` and `--version` are listed under.
    static var category: OptionCategory { get }
    /// The option table the parser starts with, in help order: its own options and ``commonRows(_:for:)``, built
    /// once.
    static var rows: [OptionRow<Self>] { get }
    /// Options the parser builds only when a command line names one ``rows`` lack (``CommandLineParser/laterRows``);
    /// help, the man page and completions list them after ``rows``.
    static var laterRows: [OptionRow<Self>] { get }
    /// The options help, the man page and completions list: ``allRows`` unless the subcommand keeps rows that only
    /// refuse an option (check's for curl's `--retry`) out of them.
    static var documentedRows: [OptionRow<Self>] { get }

    /// Every option at its default.
    init()
    /// `--help WORD`: the word (empty for plain `--help`); `nil` when help was not asked for.
    var help: String? { get set }
    /// `-V/--version`.
    var version: Bool { get set }
    /// Takes an argument that is not an option; throws a usage error for one the subcommand does not take.
    mutating func take(_ argument: String) throws
    /// Does the work; every warning and error goes to `diagnostics`.
    func run(_ diagnostics: Diagnostics) -> Completion
    /// Arguments read before the command line's own (a default config file); none unless the subcommand says.
    static func prefix(for arguments: [String]) -> [String]
    /// Whether the warnings found while parsing (a config file's bad lines) go to stderr: not with `-s`.
    var showsWarnings: Bool { get }
}

extension Subcommand {
    static func prefix(for arguments: [String]) -> [String] { [] }

    var showsWarnings: Bool { true }

    static var laterRows: [OptionRow<Self>] { [] }

    /// Every option: ``rows`` then ``laterRows``, for help, the man page and completions.
    static var allRows: [OptionRow<Self>] { rows + laterRows }

    static var documentedRows: [OptionRow<Self>] { allRows }

    /// The command that shows this subcommand's help.
    static var helpCommand: String { name == Subcommands.defaultName ? "ipcurl --help" : "ipcurl help \(name)" }

    /// The `--help` and `--version` rows of a table whose other options are `own`, listed under `category`:
    /// `--help` takes `all`, `category`, `exit` and the categories of the table (only its own, so a start-up builds
    /// no other subcommand's table).
    static func commonRows(_ category: OptionCategory, for own: [OptionRow<Self>],
                           laterCategories: [OptionCategory] = []) -> [OptionRow<Self>] {
        var words = ["all", "category", "exit"] + OptionCategory.inOrder(own.lazy.map { $0.category } + laterCategories).map { $0.name }
        if !words.contains(category.name) { words.append(category.name) }
        return [
            OptionRow("help", "h", .optionalWord(words), "", category,
                      "Show help: the important options, a CATEGORY, \"category\", \"exit\" or \"all\"") { $0.help = $1.text },
            OptionRow("version", "V", .none, "", category, "Show ipcurl's and libcurl's versions") { line, _ in line.version = true },
        ]
    }

    /// This subcommand for the man page and completions.
    static var documentSummary: SubcommandSummary {
        SubcommandSummary(name: name, usage: usage, summary: summary, rows: documentedRows)
    }

    /// Help text for `word` (empty, a category, `category`, `exit` or `all`; any other word lists the categories).
    static func helpText(_ word: String) -> String {
        if word.lowercased() == "exit" { return ExitCodes.helpText() }
        return HelpText(rows: documentedRows, usage: usage, helpCommand: helpCommand).render(word)
    }
}

/// The registry of subcommands: the one list that dispatch, `help`, the man page, completions and the help
/// words read.
enum Subcommands {
    /// Every subcommand, the default (fetch) first.
    static let all: [any Subcommand.Type] = [FetchCommandLine.self, ResolveCommand.self, CheckCommand.self, CacheCommand.self,
                                             ExporterCommand.self]

    /// The subcommand that runs when the first argument names none.
    static let defaultName = "fetch"

    /// The subcommand called `name`.
    static func named(_ name: String) -> (any Subcommand.Type)? {
        // A URL is no subcommand: the names are short words, so most arguments are told apart by length alone.
        guard name.utf8.count <= longestName else { return nil }
        return all.first { $0.name == name }
    }

    private static let longestName = all.map { $0.name.utf8.count }.max() ?? 0
}
