import Foundation
import Testing

/// curl's command-line grammar through the real binary: the spellings curl scripts use, each compared with what
/// the lab's echo backend received or with real curl's exit code.
@Suite(.serialized) struct GrammarTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    private var pinned: [String] { ["--no-fallback", "--resolve", "a.test:\(lab.httpsPort):\(lab.ip)", "--cacert", lab.ca] }

    @Test func groupedShortFlagsWithAttachedValues() throws {
        let scratch = try TemporaryDirectory()
        let result = try ipcurl(pinned + ["-sSo\(scratch.path)/out", "-m5", "-XPOST", "-d@/dev/null",
                                          "-w", "--> %{http_code} %{method}", lab.api("a.test", "echo")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "--> 200 POST")
        #expect(try Echo(String(contentsOfFile: scratch.path + "/out", encoding: .utf8)).method == "POST")
    }

    @Test func aValueThatStartsWithADashIsAValue() throws {
        let result = try ipcurl(pinned + ["-s", "-d", "-1", "--data", "--x", lab.api("a.test", "echo")])
        #expect(result.status == 0, "\(result.stderr)")
        let echo = try Echo(result.stdout)
        #expect(echo.bodyLength == 6)  // "-1&--x"
    }

    @Test func equalsFormPrefixesAndNoForms() throws {
        let result = try ipcurl(pinned + ["--sil", "--request=PUT", "--no-include", "--max-time=5", lab.api("a.test", "echo")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Echo(result.stdout).method == "PUT")
    }

    @Test func severalURLsRunInOrderAndPairWithOutputs() throws {
        let scratch = try TemporaryDirectory()
        let result = try ipcurl(pinned + ["-s", "-o", scratch.path + "/one", "-o", scratch.path + "/two",
                                          lab.api("a.test", "echo?n=1"), lab.api("a.test", "echo?n=2"),
                                          "-w", "%{url_effective}\n"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == lab.api("a.test", "echo?n=1") + "\n" + lab.api("a.test", "echo?n=2") + "\n")
        #expect(try Echo(String(contentsOfFile: scratch.path + "/one", encoding: .utf8)).query == "n=1")
        #expect(try Echo(String(contentsOfFile: scratch.path + "/two", encoding: .utf8)).query == "n=2")
    }

    @Test func nextStartsAnOperationWithItsOwnOptions() throws {
        let result = try ipcurl(pinned + ["-s", "-X", "PUT", "-w", "\n", lab.api("a.test", "echo"), "--next"] + pinned
                                + ["-s", "-w", "\n", lab.api("a.test", "echo")])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(try lines.map { try Echo($0).method } == ["PUT", "GET"])
    }

    @Test(arguments: [
        (["--cret", "x"], "option --cret: is unknown; did you mean --cert?"),
        (["--verbsoe"], "option --verbsoe: is unknown; did you mean --verbose?"),
        (["-m", "soon"], "option -m: expected a proper numerical parameter"),
        (["-o"], "option -o: requires parameter"),
        (["--ver"], "option --ver: is ambiguous"),
        (["--no-max-time", "1"], "option --no-max-time: --no- is only for boolean options"),
    ])
    func usageErrorsAreOneLineAndExit2LikeCurl(arguments: [String], message: String) throws {
        let result = try ipcurl(["https://a.test/"] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("ipcurl: " + message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        let curl = try run("/usr/bin/curl", ["https://a.test/"] + arguments)
        #expect(curl.status == 2, "curl \(arguments): \(curl.stderr)")
    }

    @Test func helpListsCategoriesAndAllOptions() throws {
        let categories = try ipcurl(["--help", "category"])
        #expect(categories.status == 0 && categories.stdout.contains(" tls ") && categories.stdout.contains(" dns "))
        let all = try ipcurl(["--help", "all"])
        #expect(all.stdout.contains("--connect-timeout <seconds>") && all.stdout.contains("-K, --config <file>"))
        #expect(try ipcurl(["help", "check"]).stdout.contains("--targets <file>"))
        let unknown = try ipcurl(["help", "fetch", "nonsense-category"])
        #expect(unknown.status == 0 && unknown.stdout.contains("Invalid category provided, here is a list of all categories:\n\n"))
        let unknownFetch = try ipcurl(["--help", "nonsense-category"])
        #expect(unknown.stdout.contains(" tls ") && unknown.stdout == unknownFetch.stdout)
        let upper = try ipcurl(["--help", "HTTP"]), lower = try ipcurl(["--help", "http"])
        #expect(upper.status == 0 && upper.stdout == lower.stdout && upper.stdout.contains("--user-agent"))
    }
}
