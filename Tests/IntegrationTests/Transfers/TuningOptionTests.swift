import Foundation
import Testing

/// `--limit-rate`, `-r`, `--path-as-is`, `--raw`, `-N`, `--ignore-content-length`, `--max-filesize`,
/// `--happy-eyeballs-timeout-ms`, each against real curl 7.88.1: same exit code, same stdout.
@Suite struct TuningOptionTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

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

/// `-C -` and `-C N` against curl 7.88.1: the partial file is completed in place, a finished one stays, a server
/// without ranges is exit 33.
@Suite struct ResumeTests {
    let oracle: CurlOracle
    init() throws { oracle = CurlOracle(lab: try Lab.current()) }

    @Test func resumingCompletesThePartialFileAsCurlDoes() throws {
        let ours = try TemporaryDirectory(), theirs = try TemporaryDirectory()
        let big = oracle.lab.https("a.test", "/files/big.bin")
        for directory in [ours, theirs] {
            #expect(try oracle.theirs(["-s", "-r", "0-99999", "-o", directory.path + "/part", big]).status == 0)
        }
        for _ in 0..<2 {  // the second run finds the file complete
            let mine = try oracle.ours(["-s", "-C", "-", "-o", ours.path + "/part", big])
            let curls = try oracle.theirs(["-s", "-C", "-", "-o", theirs.path + "/part", big])
            #expect(mine.status == curls.status)
        }
        #expect(try sha256(ofFile: ours.path + "/part") == sha256(ofFile: theirs.path + "/part"))
        #expect(try FileManager.default.attributesOfItem(atPath: ours.path + "/part")[.size] as? Int == 64 << 20)
        try oracle.compare(["-C", "10", oracle.lab.api("a.test", "attachment?name=abc")])  // no ranges: 33
        try oracle.compare(["-C", "67108000", big])  // to stdout: the last 864 bytes
    }
}
