import OptionTable
import Testing

/// The man page and completion renderers over a small table.
@Suite struct DocumentTests {
    private let category = OptionCategory("one", "The first kind")

    private var command: SubcommandSummary {
        SubcommandSummary(name: "run", usage: "tool run [options] <url>", summary: "Runs things.", rows: [
            OptionRow<Int>("output", "o", .file, "file", category, "Write to FILE; a .dot at the start") { _, _ in },
            OptionRow<Int>("location", "L", .boolean, "", category, "Follow [redirects]: 'all' of them") { _, _ in },
            OptionRow<Int>("header", "H", .string, "line", category, "Send a header\\line", repeatable: true) { _, _ in },
            OptionRow<Int>("help", "h", .optionalWord(["all", "one"]), "", category, "Help") { _, _ in },
        ])
    }

    @Test func manPageListsEveryOptionEscaped() {
        let page = ManPage(program: "tool", tagline: "a tool", description: [".starts with a dot"], subcommands: [command],
                           extraSections: [("Exit status", [("2", "usage")])]).render()
        #expect(page.hasPrefix(".TH TOOL 1 "))
        #expect(page.contains("\\fB\\-o\\fR, \\fB\\-\\-output\\fR \\fIfile\\fR"))
        #expect(page.contains("(\\fB\\-\\-no\\-location\\fR turns it off.)"))
        #expect(page.contains("May be given several times."))
        #expect(page.contains("\\&.starts with a dot"))
        #expect(page.contains("Send a header\\eline"))
        #expect(page.contains(".SH \"EXIT STATUS\"\n.TP\n.B 2\nusage\n"))
    }

    @Test func completionsNameEveryOptionForItsSubcommand() {
        let completions = Completions(program: "tool", subcommands: [command], defaultName: "run")
        let bash = completions.bash(), zsh = completions.zsh(), fish = completions.fish()
        for name in ["--output", "-o", "--location", "--no-location", "--header", "--help"] { #expect(bash.contains(name)) }
        #expect(bash.contains("run:-o|run:--output)\n            COMPREPLY=($(compgen -f"))
        #expect(bash.contains("compgen -W \"all one\""))
        #expect(zsh.contains("{-o,--output}'[Write to FILE; a .dot at the start]:file:_files'"))
        #expect(zsh.contains("'[Follow (redirects) - '\\''all'\\'' of them]'"))
        #expect(zsh.contains("*{-H,--header}"))
        #expect(fish.contains("-s o -l output -r -F"))
        #expect(fish.contains("-d 'Follow [redirects]: \\'all\\' of them'"))
    }
}
