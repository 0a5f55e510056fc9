/// Help in curl's style, rendered from a subcommand's rows: the important options, one category, every option,
/// or the list of categories.
/// - SeeAlso: curl's `src/tool_help.c` (`tool_help`, `print_category`).
public struct HelpText<Config> {
    public let rows: [OptionRow<Config>]
    /// `ipcurl [options...] <url>`.
    public let usage: String
    /// The command that shows this help, for the footer (`ipcurl --help`, `ipcurl help check`).
    public let helpCommand: String

    public init(rows: [OptionRow<Config>], usage: String, helpCommand: String) {
        self.rows = rows
        self.usage = usage
        self.helpCommand = helpCommand
    }

    /// The categories in the order their first option appears.
    public var categories: [OptionCategory] { OptionCategory.inOrder(rows.lazy.map { $0.category }) }

    /// What `--help WORD` prints: the important options (empty word), `all`, `category`, one category (in any
    /// letter case), or for a word that names none the list of categories.
    public func render(_ word: String) -> String {
        switch word.lowercased() {
        case "":
            let important = rows.filter(\.important)
            return "Usage: \(usage)\n" + table(important.isEmpty ? rows : important)
                + "This is not the full help; the options are grouped in categories.\n"
                + "Use \"\(helpCommand) category\" for the list of categories.\n"
                + "For all options use the manual (man ipcurl) or \"\(helpCommand) all\".\n"
        case "all":
            return "Usage: \(usage)\n" + table(rows)
        case "category":
            return "Usage: \(helpCommand) [category]\nCategories:\n" + categoryList
        default:
            guard let category = categories.first(where: { $0.name == word.lowercased() }) else {
                // As curl's: a word that names no category lists them all.
                return "Usage: \(usage)\nInvalid category provided, here is a list of all categories:\n\n" + categoryList
            }
            return "\(category.summary)\n" + table(rows.filter { $0.category == category })
        }
    }

    private var categoryList: String {
        let width = (categories.map(\.name.count).max() ?? 0) + 2
        return categories.map { " " + $0.name.padding(to: width) + $0.summary + "\n" }.joined()
    }

    private func table(_ rows: [OptionRow<Config>]) -> String {
        let width = min(32, (rows.map(\.synopsis.count).max() ?? 0) + 2)
        return rows.map { row in
            let synopsis = row.synopsis
            let gap = synopsis.count < width ? synopsis.padding(to: width) : synopsis + "\n" + "".padding(to: width + 1)
            return " " + gap + row.help + "\n"
        }.joined()
    }
}

extension String {
    /// The string followed by spaces up to `width` characters.
    func padding(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
