import OptionTable
import Testing

@Suite struct HelpTextTests {
    private let first = OptionCategory("one", "The first kind")
    private let second = OptionCategory("two", "The second kind")

    private var rows: [OptionRow<Int>] {
        [
            OptionRow("alpha", "a", .boolean, "", first, "Alpha help", important: true) { _, _ in },
            OptionRow("beta", nil, .string, "name", second, "Beta help") { _, _ in },
            OptionRow("gamma-long-option-name", "g", .file, "file", second, "Gamma help") { _, _ in },
        ]
    }

    @Test func plainHelpShowsTheImportantOptionsAndAllShowsEvery() throws {
        let help = HelpText(rows: rows, usage: "tool [options]", helpCommand: "tool --help")
        let plain = try #require(help.render(""))
        #expect(plain.contains(" -a, --alpha ") && plain.contains("Alpha help"))
        #expect(!plain.contains("--beta"))
        let all = help.render("all")
        #expect(all.contains("     --beta <name> ") && all.contains("-g, --gamma-long-option-name <file>"))
    }

    @Test func categoriesAreListedAndShownOneAtATime() throws {
        let help = HelpText(rows: rows, usage: "tool", helpCommand: "tool --help")
        #expect(help.render("category") == "Usage: tool --help [category]\nCategories:\n one  The first kind\n two  The second kind\n")
        let two = help.render("two")
        #expect(two.hasPrefix("The second kind\n") && two.contains("--beta") && !two.contains("--alpha"))
        #expect(help.render("TWO") == two, "categories are named in any letter case, as curl's")
        #expect(help.render("three") == "Usage: tool\nInvalid category provided, here is a list of all categories:\n\n one  The first kind\n two  The second kind\n")
    }

    @Test func suggestionsPreferTheNearestName() {
        #expect(OptionSuggestion.closest(to: "cret", among: ["cacert", "cert"]) == "cert")
        #expect(OptionSuggestion.closest(to: "verbsoe", among: ["verbose", "version"]) == "verbose")
        #expect(OptionSuggestion.closest(to: "xyz", among: ["verbose"]) == nil)
    }
}
