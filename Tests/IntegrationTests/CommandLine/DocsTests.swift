import Foundation
import IPCurlCLI
import IPCurlCore
import Testing

/// The man page and completions ipcurl-docs writes from the real option tables.
@Suite struct DocsTests {
    let directory: TemporaryDirectory
    init() throws {
        directory = try TemporaryDirectory()
        let generator = (ipcurlBinary() as NSString).deletingLastPathComponent + "/ipcurl-docs"
        let result = try run(generator, [directory.path])
        guard result.status == 0 else { throw LabError("ipcurl-docs failed: \(result.stderr)") }
    }

    private func read(_ name: String) throws -> String { try String(contentsOfFile: directory.path + "/" + name, encoding: .utf8) }

    @Test func readmeExitCodesAreTheOneTableRowByRow() throws {
        let readme = try String(contentsOfFile: Lab.repoRoot + "/README.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n## Exit codes\n").dropFirst().first, "README has no exit-code section")
        let rows = section.split(separator: "\n").drop { !$0.hasPrefix("|---") }.dropFirst().prefix { $0.hasPrefix("|") }
        let table = Documentation.exitCodes.map { "| \($0.code) | \($0.name) | \($0.summary) |" }
        #expect(rows.count == table.count, "README lists \(rows.count) exit codes, the table \(table.count)")
        for (readmeRow, tableRow) in zip(rows, table) { #expect(String(readmeRow) == tableRow) }
        let page = try read("ipcurl.1"), help = try ipcurl(["--help", "exit"])
        #expect(help.status == 0)
        for row in Documentation.exitCodes {
            #expect(page.contains(row.name), "man page lacks \(row.name)")
            #expect(help.stdout.contains(" \(row.code) \(row.name) "), "--help exit lacks \(row.code)")
        }
    }

    @Test func theTargetsFilePageListsWhatAFileMayNotSayRowByRow() throws {
        let page = try String(contentsOfFile: Lab.repoRoot + "/docs/check.md", encoding: .utf8)
        let section = try #require(page.components(separatedBy: "\n### What a targets file may not say\n").dropFirst().first)
        let rows = section.split(separator: "\n").drop { !$0.hasPrefix("|---") }.dropFirst().prefix { $0.hasPrefix("|") }
        let table = Documentation.targetsFileRefusals.map { "| `\($0.key)` | \($0.reason) |" }
        #expect(rows.map(String.init) == table)
        #expect(table.count >= 8 && table.contains("| `resolver-cmd` | runs a program |"))
    }

    /// Every test SECURITY.md names as a promise's proof exists: `Suite/test` is a test function in a file that
    /// declares or extends the suite, a bare `SuiteTests` a suite.
    @Test func securityNamesOnlyTestsThatExist() throws {
        let security = try String(contentsOfFile: Lab.repoRoot + "/SECURITY.md", encoding: .utf8)
        var suites: [String: String] = [:]
        let declaration = try NSRegularExpression(pattern: #"(?:struct|class|enum|extension) ([A-Za-z0-9]+Tests)\b"#)
        let files = FileManager.default.enumerator(atPath: Lab.repoRoot + "/Tests")?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: Lab.repoRoot + "/Tests/" + file, encoding: .utf8)
            for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                suites[String(text[Range(match.range(at: 1), in: text)!]), default: ""] += text
            }
        }
        let citation = try NSRegularExpression(pattern: #"`([A-Z][A-Za-z0-9]*Tests)(?:/([A-Za-z0-9_]+))?`"#)
        let cited = citation.matches(in: security, range: NSRange(security.startIndex..., in: security)).map { match in
            (String(security[Range(match.range(at: 1), in: security)!]), Range(match.range(at: 2), in: security).map { String(security[$0]) })
        }
        #expect(cited.count > 100, "SECURITY.md cites its tests")
        for (suite, test) in cited {
            let text = suites[suite]
            #expect(text != nil, "SECURITY.md names \(suite), which no file declares")
            if let test, let text { #expect(text.contains("func \(test)("), "SECURITY.md names \(suite)/\(test), which does not exist") }
        }
    }

    @Test func everyOptionOfEverySubcommandIsDocumentedAndCompleted() throws {
        let page = try read("ipcurl.1"), bash = try read("ipcurl.bash"), zsh = try read("_ipcurl"), fish = try read("ipcurl.fish")
        var count = 0
        for command in Documentation.subcommands {
            for option in command.options {
                count += 1
                let roffName = "\\-\\-" + option.long.replacingOccurrences(of: "-", with: "\\-")
                #expect(page.contains(roffName), "man page lacks --\(option.long)")
                #expect(bash.contains("--" + option.long), "bash lacks --\(option.long)")
                #expect(zsh.contains("--" + option.long + (option.short == nil ? "'[" : "}'[")), "zsh lacks --\(option.long)")
                #expect(fish.contains("__ipcurl_sub \(command.name)' ") && fish.contains(" -l \(option.long)"), "fish lacks --\(option.long)")
            }
        }
        #expect(count > 150)
    }

    /// The option rows of the flags that choose a provider are made from the registry's descriptors: every subcommand
    /// that resolves offers each flag as its descriptor describes it, in help, the man page and completions.
    @Test func everyProviderFlagIsTheRowItsDescriptorDescribes() throws {
        let resolving = Documentation.subcommands.filter { $0.options.contains { $0.long == "doh" } }
        #expect(resolving.count >= 3, "\(resolving.map(\.name))")
        for command in resolving {
            for flag in ProviderDescriptor.all.flatMap(\.flagRows) {
                let option = try #require(command.options.first { "--" + $0.long == flag.flag }, "\(command.name) lacks \(flag.flag)")
                #expect(option.help == flag.help && option.repeatable == flag.repeatable, "\(flag.flag)")
                #expect((option.argument == .boolean) == (flag.value == .boolean), "\(flag.flag)")
            }
        }
    }

    /// check refuses curl's retry options (exit 2, pointing at --retries): help, the man page and completions do not
    /// offer them, nor a `--no-` form that would turn one off.
    @Test func checksRefusedCurlRetryOptionsAreNotOffered() throws {
        let refused = ["retry", "retry-delay", "retry-max-time", "retry-all-errors", "retry-connrefused"]
        let check = try #require(Documentation.subcommands.first { $0.name == "check" })
        #expect(check.options.filter { refused.contains($0.long) }.isEmpty, "\(check.options.map(\.long).filter { $0.hasPrefix("retr") })")
        let page = try read("ipcurl.1")
        let section = try #require(page.components(separatedBy: ".SH \"CHECK OPTIONS\"").dropFirst().first?
            .components(separatedBy: "\n.SH ").first)
        let listed = refused.filter { section.contains("\\fB\\-\\-" + $0.replacingOccurrences(of: "-", with: "\\-") + "\\fR") }
        #expect(section.contains("\\-\\-retries") && listed.isEmpty && !section.contains("\\-\\-no\\-retry"), "\(listed)")
        let help = try ipcurl(["help", "check", "all"])
        #expect(help.stdout.contains("--retries <n>") && !help.stdout.contains("--retry-delay"), "\(help.stdout)")
        #expect(try ipcurl(["check", "--retry-all-errors", "https://a.test/"]).status == 2, "still refused")
    }

    @Test func groffRendersThePageWithoutWarnings() throws {
        let result = try run("/usr/bin/groff", ["-man", "-ww", "-z", directory.path + "/ipcurl.1"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test(arguments: [("ipcurl --cac", "--cacert"), ("ipcurl check --for", "--format"), ("ipcurl ch", "check"),
                      ("ipcurl --help tl", "tls"), ("ipcurl help re", "resolve"), ("ipcurl --no-progress-m", "--no-progress-meter")])
    func bashCompletes(line: String, expected: String) throws {
        let words = line.split(separator: " ").map(String.init)
        let script = "source \"$0\"; COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); "
            + "COMP_CWORD=\(words.count - 1); _ipcurl; printf '%s\\n' \"${COMPREPLY[@]}\""
        let result = try run("/bin/bash", ["-c", script, directory.path + "/ipcurl.bash"])
        #expect(result.stdout.split(separator: "\n").map(String.init) == [expected], "\(line): \(result.stdout)")
    }

    @Test func bashCompletesFilesAfterFileOptions() throws {
        try "x".write(toFile: directory.path + "/target-file.txt", atomically: true, encoding: .utf8)
        let script = "source \"$0\"; COMP_WORDS=(ipcurl -o \"$1/target-f\"); COMP_CWORD=2; _ipcurl; printf '%s\\n' \"${COMPREPLY[@]}\""
        let result = try run("/bin/bash", ["-c", script, directory.path + "/ipcurl.bash", directory.path])
        #expect(result.stdout == directory.path + "/target-file.txt\n")
    }

    @Test func shellsThatAreInstalledAcceptTheirScripts() throws {
        for (shell, name) in [("/usr/bin/zsh", "_ipcurl"), ("/usr/bin/fish", "ipcurl.fish"), ("/bin/bash", "ipcurl.bash")]
        where FileManager.default.isExecutableFile(atPath: shell) {
            let result = try run(shell, ["-n", directory.path + "/" + name])
            #expect(result.status == 0, "\(shell) -n \(name): \(result.stderr)")
        }
    }
}
