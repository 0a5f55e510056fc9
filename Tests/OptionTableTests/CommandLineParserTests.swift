import OptionTable
import Testing

/// A small configuration shaped like a curl command line, to exercise the grammar.
private struct Line: Sendable {
    var silent = false, showError = false, location = false, verbose = true
    var output: String?
    var maxTime: Double?
    var method: String?
    var data: [String] = []
    var headers: [String] = []
    var help: String?
    var urls: [String] = []
}

private let category = OptionCategory("test", "Test options")
private let rows: [OptionRow<Line>] = [
    OptionRow("silent", "s", .boolean, "", category, "Silent") { $0.silent = $1.isOn },
    OptionRow("show-error", "S", .boolean, "", category, "Show errors") { $0.showError = $1.isOn },
    OptionRow("location", "L", .boolean, "", category, "Follow") { $0.location = $1.isOn },
    OptionRow("verbose", "v", .boolean, "", category, "Verbose") { $0.verbose = $1.isOn },
    OptionRow("output", "o", .file, "file", category, "Output") { $0.output = $1.text },
    OptionRow("max-time", "m", .seconds, "seconds", category, "Limit") { $0.maxTime = try $1.seconds() },
    OptionRow("request", "X", .string, "method", category, "Method") { $0.method = $1.text },
    OptionRow("data", "d", .string, "data", category, "Data", repeatable: true) { $0.data.append($1.text) },
    OptionRow("data-binary", nil, .string, "data", category, "Data", repeatable: true) { $0.data.append("binary:" + $1.text) },
    OptionRow("header", "H", .string, "header", category, "Header", repeatable: true, secret: .whole) { $0.headers.append($1.text) },
    OptionRow("cacert", nil, .file, "file", category, "CA") { _, _ in },
    OptionRow("cert", "E", .file, "file", category, "Cert") { _, _ in },
    OptionRow("url", nil, .string, "url", category, "URL", repeatable: true) { $0.urls.append($1.text) },
    OptionRow("config", "K", .file, "file", category, "Config") { _, _ in },
    OptionRow("help", "h", .optionalWord(["all", "test"]), "", category, "Help") { $0.help = $1.text },
]

private func parse(_ arguments: [String], files: [String: String] = [:]) throws -> Line {
    var line = Line()
    var parser = CommandLineParser(rows: rows) { $0.urls.append($1) }
    parser.configFileOption = "config"
    parser.readFile = { path, _ in
        guard let text = files[path] else { throw OptionError("cannot read \(path)") }
        return text
    }
    try parser.parse(arguments, into: &line)
    return line
}

private func failure(_ arguments: [String], files: [String: String] = [:]) -> String {
    do { _ = try parse(arguments, files: files) } catch { return "\(error)" }
    return "no error"
}

@Suite struct CommandLineParserTests {
    @Test func shortOptionsGroupAndTakeAttachedValues() throws {
        let line = try parse(["-sSLo/dev/null", "-m5", "-XPOST", "-d@file", "https://a.test/"])
        #expect(line.silent && line.showError && line.location)
        #expect(line.output == "/dev/null")
        #expect(line.maxTime == 5)
        #expect(line.method == "POST")
        #expect(line.data == ["@file"])
        #expect(line.urls == ["https://a.test/"])
    }

    @Test func aValueThatLooksLikeAnOptionIsAValue() throws {
        let line = try parse(["-d", "-1", "-w", "x"].filter { $0 != "-w" && $0 != "x" } + ["--request", "--x", "-o", "-"])
        #expect(line.data == ["-1"])
        #expect(line.method == "--x")
        #expect(line.output == "-")
    }

    @Test func longOptionsTakeSpaceOrEquals() throws {
        let line = try parse(["--max-time", "2.5", "--output=out.txt", "--data=a=b"])
        #expect(line.maxTime == 2.5)
        #expect(line.output == "out.txt")
        #expect(line.data == ["a=b"])
    }

    @Test func repeatableOptionsAccumulateInOrderAndOthersTakeTheLast() throws {
        let line = try parse(["-d", "a", "--data-binary", "b", "-d", "c", "-X", "PUT", "-X", "PATCH"])
        #expect(line.data == ["a", "binary:b", "c"])
        #expect(line.method == "PATCH")
    }

    @Test func doubleDashEndsOptions() throws {
        let line = try parse(["-s", "--", "-v", "--help"])
        #expect(line.urls == ["-v", "--help"])
        #expect(line.silent && line.help == nil)
    }

    @Test func noPrefixTurnsABooleanOff() throws {
        let line = try parse(["--no-verbose", "-L", "--no-location"])
        #expect(!line.verbose && !line.location)
        #expect(failure(["--no-max-time", "1"]).contains("--no- is only for boolean options"))
    }

    @Test func aUniquePrefixNamesItsOptionAndAnAmbiguousOneIsAnError() throws {
        #expect(try parse(["--verb", "--max-ti", "1"]).maxTime == 1)
        #expect(failure(["--data-", "x"]).contains("is ambiguous") == false)  // "data-" names data-binary only
        #expect(failure(["--c", "x"]).contains("is ambiguous"))
    }

    @Test func unknownOptionsSuggestTheClosestName() {
        #expect(failure(["--cret", "x"]) == "option --cret: is unknown; did you mean --cert?")
        #expect(failure(["--cacret", "x"]) == "option --cacret: is unknown; did you mean --cacert?")
        #expect(failure(["--zzzzzz"]) == "option --zzzzzz: is unknown")
        #expect(failure(["-j"]) == "option -j: is unknown")
    }

    /// Only names within the edit limit in length are measured: measuring costs the product of the lengths.
    @Test func aLongUnknownNameIsNotMeasuredAgainstEveryRow() {
        let typed = String(repeating: "a", count: 200_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(OptionSuggestion.closest(to: typed, among: rows.map(\.long)) == nil) }
        #expect(elapsed < .seconds(1))
        #expect(OptionSuggestion.closest(to: "data-binaryy", among: rows.map(\.long)) == "data-binary")
    }

    @Test func missingValuesAndBadNumbersAreUsageErrors() {
        #expect(failure(["-o"]) == "option -o: requires parameter")
        #expect(failure(["--output"]) == "option --output: requires parameter")
        #expect(failure(["-m", "five"]) == "option -m: expected a proper numerical parameter")
        #expect(failure(["-m", "-1"]) == "option -m: expected a proper numerical parameter")
        #expect(failure(["--silent=yes"]).contains("does not take a value"))
    }

    @Test func helpTakesTheNextArgumentUnlessItIsAnOption() throws {
        #expect(try parse(["--help", "all"]).help == "all")
        #expect(try parse(["--help", "ALL"]).help == "all", "a known word in any letter case")
        // As curl's --help: the next argument is the category, whatever it says (one naming none lists them all).
        let line = try parse(["-h", "https://a.test/"])
        #expect(line.help == "https://a.test/" && line.urls.isEmpty)
        let option = try parse(["-h", "-s"])
        #expect(option.help == "" && option.silent)
    }

    @Test func secretValuesArePlacedForBlanking() throws {
        var line = Line()
        var parser = CommandLineParser(rows: rows) { $0.urls.append($1) }
        try parser.parse(["-H", "a: 1", "-sHb: 2", "--header=c: 3", "--header", "d: 4"], into: &line)
        #expect(parser.secretValues.map(\.index) == [1, 2, 3, 5])
        #expect(parser.secretValues.map(\.bytes) == [0..<4, 3..<7, 9..<13, 0..<4])
    }

    /// A row that blanks part of its value: the parts are placed within the argument in each form of the option.
    @Test func secretPartsArePlacedWithinTheirArgument() throws {
        let afterColon = SecretBytes { value in
            let bytes = Array(value.utf8)
            return bytes.firstIndex(of: UInt8(ascii: ":")).map { [($0 + 1)..<bytes.count] } ?? []
        }
        let partial = [OptionRow<Line>("silent", "s", .boolean, "", category, "Silent") { $0.silent = $1.isOn },
                       OptionRow<Line>("header", "H", .string, "header", category, "Header", repeatable: true,
                                       secret: afterColon) { $0.headers.append($1.text) }]
        var line = Line()
        var parser = CommandLineParser(rows: partial) { $0.urls.append($1) }
        try parser.parse(["-H", "a: 1", "-sHb: 2", "--header=c: 3", "--header", "none", "-H", "d:"], into: &line)
        #expect(parser.secretValues.map(\.index) == [1, 2, 3])
        #expect(parser.secretValues.map(\.bytes) == [2..<4, 5..<7, 11..<13])
    }

    @Test func configFilesUseCurlsSyntax() throws {
        let text = """
            # a comment
            silent
            max-time = 3
            --output "a file \\"q\\".txt"
            -X PUT
            url = https://a.test/
            data "x y"\t
            """
        let line = try parse(["-K", "cfg", "-d", "after"], files: ["cfg": text])
        #expect(line.silent && line.maxTime == 3 && line.method == "PUT")
        #expect(line.output == "a file \"q\".txt")
        #expect(line.data == ["x y", "after"])
        #expect(line.urls == ["https://a.test/"])
    }

    @Test func configFileErrorsAreWarningsNamingTheFileAndLine() throws {
        var line = Line()
        var warnings: [String] = []
        var parser = CommandLineParser(rows: rows) { $0.urls.append($1) }
        parser.configFileOption = "config"
        parser.readFile = { _, _ in "silent\nmax-time = soon\nnope\nrequest PUT\n" }
        parser.warn = { warnings.append($0) }
        try parser.parse(["-K", "cfg"], into: &line)
        #expect(line.silent && line.method == "PUT" && line.maxTime == nil)
        #expect(warnings == ["cfg:2: option --max-time: expected a proper numerical parameter; line ignored",
                             "cfg:3: option --nope: is unknown; line ignored"])
        #expect(failure(["-K", "cfg"], files: ["cfg": "output \"open\n"]) == "cfg:1: unterminated quoted value")
        #expect(failure(["-K", "loop"], files: ["loop": "config loop\n"]).contains("too deeply"))
    }

    /// A config file's own errors (too large, a line too long, a quote left open) end the parse wherever the file
    /// is included, as they do at the top: only a bad option line is a warning.
    @Test func anIncludedFileThatCannotBeReadAsAConfigEndsTheParse() {
        let big = String(repeating: "# filler\n", count: (16 << 20) / 9 + 1)
        let long = "#" + String(repeating: "x", count: 1 << 20) + "\n"
        let files = ["big": big, "long": long, "quote": "output \"open\n"]
        let failures = ["big", "long", "quote"].map { name in
            failure(["-K", "top"], files: files.merging(["top": "silent\nconfig \(name)\nrequest PUT\n"]) { $1 })
        }
        #expect(failures[0] == "big: larger than 16 MiB, the most a config file may hold")
        #expect(failures[1] == "long:1: a line longer than 1 MiB, the most a config line may hold")
        #expect(failures[2] == "quote:1: unterminated quoted value")
    }

    /// Config files that include each other read at most 16 MiB together, each inclusion counted: 40 inclusions of
    /// a file that includes a 20 KB file 40 times (32 MB) stop with one error instead of applying every line.
    @Test func configFilesTogetherReadAtMost16MiB() {
        let leaf = String(repeating: "header = \"X-Fan: a value\"\n", count: 20) + "#" + String(repeating: "x", count: 20_000) + "\n"
        let files = ["top": String(repeating: "config mid\n", count: 40), "mid": String(repeating: "config leaf\n", count: 40),
                     "leaf": leaf]
        let message = failure(["-K", "top"], files: files)
        #expect(message.hasPrefix("leaf: ") && message.contains("16 MiB together"), "\(message)")
        #expect(failure(["-K", "mid", "-K", "mid"], files: files) == "no error", "two inclusions of 0.8 MB each fit")
        // An empty file costs no bytes, but each read counts: at most 4,096 files.
        let empties = ["many": String(repeating: "config empty\n", count: 4095), "empty": ""]
        #expect(failure(["-K", "many"], files: empties) == "no error")
        #expect(failure(["-K", "many", "-K", "empty"], files: empties)
                == "empty: more than 4096 config files to read (each inclusion counted), the most one command line may read")
    }

    /// Each file is read no further than one byte past what the caps leave, so an endless one ends there.
    @Test func theReaderIsAskedForNoMoreThanTheCapsLeave() {
        var asked: [Int] = []
        var line = Line()
        var parser = CommandLineParser(rows: rows) { $0.urls.append($1) }
        parser.configFileOption = "config"
        parser.configLimits = ConfigFile.Limits(bytes: 40, lineBytes: 20, totalBytes: 100)
        let included = "silent\n# a comment line\n" + String(repeating: "#", count: 5) + "\n"  // 30 bytes
        parser.readFile = { path, atMost in
            asked.append(atMost)
            return path == "top" ? String(repeating: "config a\n", count: 3) : included
        }
        #expect(throws: ConfigFileError("a: the config files read hold more than 100 bytes together (each inclusion counted),"
                                        + " the most one command line may read")) { try parser.parse(["-K", "top"], into: &line) }
        #expect(asked == [41, 41, 41, 14], "27 bytes of top, twice 30 of a, then 13 bytes left")
    }

    @Test func textAfterAnUnquotedValueIsAWarning() throws {
        var line = Line()
        var warnings: [String] = []
        var parser = CommandLineParser(rows: rows) { $0.urls.append($1) }
        parser.configFileOption = "config"
        parser.readFile = { _, _ in "header = X-A: b\r\n-d a\rb\r\nrequest PUT # a comment\r\n" }
        parser.warn = { warnings.append($0) }
        try parser.parse(["-K", "-"], into: &line)
        #expect(line.headers == ["X-A:"] && line.data == ["a"] && line.method == "PUT")
        #expect(warnings == ["<stdin>:1: option --header: the value ends at white space; quote it to keep the rest of the line",
                             "<stdin>:2: option -d: the value ends at white space; quote it to keep the rest of the line"])
    }

    @Test func sharedConfigurationMayGiveNoOptionWithAPower() {
        let powerful = OptionRow<Line>("run", nil, .string, "cmd", category, "Run", power: .runsProgram) { _, _ in }
        let lifted = powerful.lifted { (outer: inout [Line], body) in try body(&outer[0]) }
        #expect(ConfigurationTrust.operator.permits(powerful) && ConfigurationTrust.operator.permits(rows[0]))
        #expect(!ConfigurationTrust.shared.permits(powerful) && !ConfigurationTrust.shared.permits(lifted),
                "a lifted row keeps its power")
        #expect(ConfigurationTrust.shared.permits(rows[0]))
        #expect(OptionPower.runsProgram.reason == "runs a program")
    }
}

/// Rows a parser builds only when a name is missing from its first rows: every name resolves as in one table.
@Suite struct LaterRowsTests {
    /// The first rows split after `cacert`, the rest later; `built` counts the times the later rows were built.
    private final class Counter: @unchecked Sendable { var built = 0 }

    private func parse(_ arguments: [String], counter: Counter) throws -> Line {
        let split = rows.firstIndex { $0.long == "cert" }!
        var line = Line()
        var parser = CommandLineParser(rows: Array(rows[..<split])) { $0.urls.append($1) }
        parser.laterRows = {
            counter.built += 1
            return Array(rows[split...])
        }
        try parser.parse(arguments, into: &line)
        return line
    }

    @Test func firstRowsAloneBuildNothingMore() throws {
        let counter = Counter()
        let line = try parse(["-sS", "--no-verbose", "-o", "f", "--data-binary", "x", "https://a.test/"], counter: counter)
        #expect(line.silent && line.showError && !line.verbose && line.output == "f" && line.data == ["binary:x"])
        #expect(counter.built == 0)
    }

    @Test func laterNamesLettersAndPrefixesResolveAsInOneTable() throws {
        let counter = Counter()
        let line = try parse(["--url", "https://a.test/", "-s", "-h", "all", "--ur", "https://b.test/"], counter: counter)
        #expect(line.urls == ["https://a.test/", "https://b.test/"] && line.help == "all")
        #expect(counter.built == 1, "built once, whatever is named after")
        let letter = try parse(["-sh"], counter: Counter())
        #expect(letter.silent && letter.help == "")
        // A prefix of names on both sides is ambiguous, as in one table; an unknown name is unknown after both.
        #expect(throws: OptionError.self) { try parse(["--c"], counter: Counter()) }
        #expect(throws: OptionError.self) { try parse(["--nosuch"], counter: Counter()) }
    }
}
