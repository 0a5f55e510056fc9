import Foundation
import Testing

/// `--limit-rate`, `-r`, `--path-as-is`, `--raw`, `-N`, `--ignore-content-length`, `--max-filesize`,
/// `--happy-eyeballs-timeout-ms`, each against real curl 7.88.1: same exit code, same stdout.
@Suite struct TuningOptionTests {
    let oracle: CurlOracle
    init() throws { oracle = CurlOracle(lab: try Lab.current()) }

    private var big: String { oracle.lab.https("a.test", "/files/big.bin") }

    @Test(arguments: [
        ["-r", "0-9"], ["-r", "100-199"], ["--range", "67108860-"], ["--max-filesize", "1k"],
        ["--max-filesize", "64m", "-r", "0-99"], ["--limit-rate", "20m", "-r", "0-199999"],
        ["--ignore-content-length", "-r", "0-99"], ["--happy-eyeballs-timeout-ms", "50", "-N", "-r", "0-9"],
    ])
    func downloadOptionsMatchCurl(arguments: [String]) throws {
        let run = try oracle.compare(arguments + [big])
        #expect(!run.stdout.isEmpty || run.status == 63)
    }

    @Test(arguments: [["--path-as-is"], [], ["--raw", "--compressed"], ["--compressed"], ["--no-buffer"]])
    func requestOptionsMatchCurl(arguments: [String]) throws {
        try oracle.compare(["-A", "same"] + arguments + [oracle.lab.https("a.test", "/api/./x/../echo?y")])
    }

    @Test func badSizesAreUsageErrors() throws {
        let run = try oracle.ours(["--limit-rate", "fast", oracle.lab.https("a.test")])
        #expect(run.status == 2 && run.stderr.hasPrefix("ipcurl: option --limit-rate: "), "\(run.stderr)")
    }
}
