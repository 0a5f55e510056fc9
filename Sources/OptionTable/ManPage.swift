/// A man(7) page rendered from the subcommands' option tables: NAME, SYNOPSIS, DESCRIPTION, one section of options
/// per subcommand grouped by category, and the sections the program supplies (exit status, environment, files).
/// - SeeAlso: man(7), groff_man(7).
public struct ManPage {
    public let program: String
    public let section: Int
    /// The one-line description after the name.
    public let tagline: String
    /// DESCRIPTION's paragraphs.
    public let description: [String]
    public let subcommands: [SubcommandSummary]
    /// Further sections: a title and `(term, text)` entries, or plain paragraphs when a term is empty.
    public let extraSections: [(title: String, entries: [(term: String, text: String)])]

    public init(program: String, section: Int = 1, tagline: String, description: [String], subcommands: [SubcommandSummary],
                extraSections: [(title: String, entries: [(term: String, text: String)])]) {
        self.program = program
        self.section = section
        self.tagline = tagline
        self.description = description
        self.subcommands = subcommands
        self.extraSections = extraSections
    }

    /// The page in roff.
    public func render() -> String {
        var out = ".TH \(program.uppercased()) \(section) \"\" \"\(program)\" \"User Commands\"\n"
        out += ".SH NAME\n\(Self.escaped(program)) \\- \(Self.escaped(tagline))\n"
        out += ".SH SYNOPSIS\n"
        for command in subcommands { out += ".B \(Self.escaped(command.usage))\n.br\n" }
        out += ".SH DESCRIPTION\n"
        out += description.map { ".PP\n" + Self.escaped($0) + "\n" }.joined()
        for command in subcommands {
            out += ".SH \"\(Self.escaped((command.name.isEmpty ? "" : command.name + " ").uppercased()))OPTIONS\"\n"
            out += ".PP\n\(Self.escaped(command.summary))\n"
            for category in command.categories {
                out += ".SS \"\(Self.escaped(category.summary))\"\n"
                for option in command.options where option.category == category { out += Self.entry(option) }
            }
        }
        for extra in extraSections {
            out += ".SH \"\(Self.escaped(extra.title.uppercased()))\"\n"
            for (term, text) in extra.entries {
                out += term.isEmpty ? ".PP\n\(Self.escaped(text))\n" : ".TP\n.B \(Self.escaped(term))\n\(Self.escaped(text))\n"
            }
        }
        return out
    }

    /// The same page as plain text, sections and option entries indented as `man` shows them, for a terminal
    /// without `man` (curl's `--manual`).
    public func renderText() -> String {
        let indent = "       "
        var out = "NAME\n\(indent)\(program) - \(tagline)\n\nSYNOPSIS\n"
        for command in subcommands { out += indent + command.usage + "\n" }
        out += "\nDESCRIPTION\n" + description.map { indent + $0 + "\n\n" }.joined()
        for command in subcommands {
            out += (command.name.isEmpty ? "" : command.name.uppercased() + " ") + "OPTIONS\n\(indent)\(command.summary)\n\n"
            for category in command.categories {
                out += "   \(category.summary)\n"
                for option in command.options where option.category == category {
                    var names = (option.short.map { "-\($0), " } ?? "") + "--" + option.long
                    if option.argument.takesValue { names += " <\(option.valueName.isEmpty ? "value" : option.valueName)>" }
                    out += indent + names + "\n" + indent + "       " + option.help + "\n"
                }
                out += "\n"
            }
        }
        for extra in extraSections {
            out += extra.title.uppercased() + "\n"
            for (term, text) in extra.entries { out += term.isEmpty ? indent + text + "\n" : indent + term + "\n" + indent + "       " + text + "\n" }
            out += "\n"
        }
        return out
    }

    private static func entry(_ option: OptionSummary) -> String {
        var names = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
        names += "\\fB\\-\\-\(escaped(option.long))\\fR"
        if option.argument.takesValue { names += " \\fI\(escaped(option.valueName.isEmpty ? "value" : option.valueName))\\fR" }
        var text = escaped(option.help)
        if option.argument == .boolean { text += " (\\fB\\-\\-no\\-\(escaped(option.long))\\fR turns it off.)" }
        if option.repeatable { text += " May be given several times." }
        return ".TP\n\(names)\n\(text)\n"
    }

    /// `text` safe as roff body text: backslashes doubled as `\e`, a leading `.` or `'` neutralised, hyphens as `\-`.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "\n": out += "\n"
            default: out.append(character)
            }
        }
        return out.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.first == "." || $0.first == "'" ? "\\&" + $0 : String($0) }.joined(separator: "\n")
    }
}
