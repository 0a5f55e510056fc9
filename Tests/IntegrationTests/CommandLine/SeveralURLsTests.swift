import Foundation
import Testing

/// Several transfers per run, compared with real curl 7.88.1: globbing with `#N` output names, curl's exit code
/// for several transfers, `--fail-early`, `-Z` and one HTTPDNS lookup per name for a run.
@Suite(.serialized) struct SeveralURLsTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    private var pin: [String] { ["--resolve", "a.test:\(lab.httpsPort):\(lab.ip)", "--cacert", lab.ca] }

    /// Runs `arguments` with curl and with ipcurl (pinned the same way) and returns both.
    private func both(_ arguments: [String]) throws -> (curl: Run, ipcurl: Run) {
        (try run("/usr/bin/curl", pin + arguments), try ipcurl(["--no-fallback"] + pin + arguments))
    }

    @Test func globbedURLsAndOutputNamesMatchCurl() throws {
        let scratch = try TemporaryDirectory()
        let url = lab.api("a.test", "echo?{x,y}=[1-3:2]")
        let (curl, ours) = try both(["-s", "-w", "%{url_effective}\n", "-o", scratch.path + "/c_#1_#2", url])
        #expect(ours.status == curl.status && ours.stdout == curl.stdout, "\(ours.stderr)")
        let (_, written) = try both(["-s", "-o", scratch.path + "/i_#1_#2", url])
        #expect(written.status == 0)
        for name in ["x_1", "x_3", "y_1", "y_3"] {
            let echo = try Echo(String(contentsOfFile: scratch.path + "/i_" + name, encoding: .utf8))
            #expect(echo.query == name.replacingOccurrences(of: "_", with: "="))
        }
    }

    @Test(arguments: [
        ["-s", "-o", "/dev/null", "http://127.0.0.1:1/", "HTTPS"],
        ["-s", "-o", "/dev/null", "HTTPS", "http://127.0.0.1:1/"],
        ["-s", "--fail-early", "-o", "/dev/null", "-w", "%{url_effective}\n", "http://127.0.0.1:1/", "HTTPS"],
        ["-sZ", "-o", "/dev/null", "-o", "/dev/null", "HTTPS", "http://127.0.0.1:1/"],
        ["-sZ", "-o", "/dev/null", "-o", "/dev/null", "http://127.0.0.1:1/", "HTTPS"],
        ["-s", "HTTPS/[1-", "HTTPS"],
        ["-sg", "-o", "/dev/null", "-w", "%{url_effective}", "HTTPS/[x]"],
        ["-s", "-o", "/dev/null", "-w", "%{urlnum} ", "HTTPS/{a,b}", "HTTPS/c"],
    ])
    func exitCodesOfSeveralTransfersMatchCurl(arguments: [String]) throws {
        let resolved = arguments.map { $0.replacingOccurrences(of: "HTTPS", with: lab.https("a.test", "")) }
        let (curl, ours) = try both(resolved)
        #expect(ours.status == curl.status, "curl \(curl.status), ipcurl \(ours.status): \(ours.stderr)")
        #expect(ours.stdout == curl.stdout)
    }

    @Test func parallelTransfersAllRunAndWriteTheirFiles() throws {
        let scratch = try TemporaryDirectory()
        let result = try ipcurl(["--no-fallback"] + pin + ["-sZ", "--parallel-max", "4", "-o", scratch.path + "/p#1",
                                                           lab.api("a.test", "delay?ms=300&n=[1-8]")])
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
        #expect(files == (1...8).map { "p\($0)" }.sorted())
    }

    @Test(arguments: [false, true])
    func aRunAsksHTTPDNSOnceForEveryURLOfAName(parallel: Bool) throws {
        let name = "several-\(UInt32.random(in: 0...UInt32.max)).any.test"
        let result = try ipcurl(aliyun + (parallel ? ["-Z"] : []) + [
            "--no-dns-cache", "-s", "-o", "/dev/null", "-w", "%{http_code} %{dns_source}\n", lab.https(name, "/n[1-4]"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == String(repeating: "200 aliyun\n", count: 4), "every transfer names the answer it used")
        #expect(try FixtureStats.read(lab).byName[name] == 1, "one HTTPDNS query for four URLs of one name")
    }

    @Test func parallelTransfersOverlap() throws {
        // The echo backend answers 200 only when all four requests wait at its barrier at once; one at a time, each
        // would get 504 after 5 s (and -f makes that exit 22).
        let key = "overlap-\(UInt32.random(in: 0...UInt32.max))"
        let result = try ipcurl(["--no-fallback"] + pin + ["-sfZ", "--parallel-max", "4", "-w", "%{http_code}\n",
                                                           lab.api("a.test", "together?key=\(key)&n=4&i=[1-4]")])
        #expect(result.status == 0, "\(result.stderr)")
        // Bodies and -w lines of parallel transfers interleave on stdout, as curl's do.
        let lines = result.stdout.split(separator: "\n").map(String.init).sorted()
        #expect(lines == Array(repeating: "200", count: 4) + Array(repeating: "together 4", count: 4))
    }

    @Test func aGlobbedUploadRunsTheLaterURLsOnceWhereCurlRepeatsThem() throws {
        // curl 7.88.1 runs every URL after a globbed -T once per file of that glob (a listed difference): the oracle
        // shows it, ipcurl runs each later URL (and each URL of a later glob) once.
        let scratch = try TemporaryDirectory()
        for name in ["a", "b", "c"] { try name.write(toFile: scratch.path + "/\(name).txt", atomically: true, encoding: .utf8) }
        let empty = lab.api("a.test", "status?code=204")
        let arguments = ["-s", "-o", "/dev/null", "-w", "%{urlnum}:%{method} ", "-T", scratch.path + "/{a,b,c}.txt",
                         lab.api("a.test", "echo/"), empty, empty + "&n=[1-2]"]
        let (curl, ours) = try both(arguments)
        #expect(curl.status == 0 && ours.status == 0, "\(curl.stderr) \(ours.stderr)")
        #expect(curl.stdout == "0:PUT 0:PUT 0:PUT 1:GET 1:GET 1:GET " + String(repeating: "2:GET ", count: 6))
        #expect(ours.stdout == "0:PUT 0:PUT 0:PUT 1:GET 2:GET 2:GET ")
    }
}
