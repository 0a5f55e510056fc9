import Foundation
import Testing

/// `ipcurl check`'s progress line: `probes N/M, K failed` on stderr when stderr is a terminal and the check runs
/// longer than a second, wiped before the report; never in a pipe, with `-s` or with `-v`, never in the report.
@Suite struct CheckProgressTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    /// Runs check with stderr on a pseudo-terminal and stdout on a pipe: what each received, and the exit status
    /// (negative: the signal that ended it). With `interruptAfter`, SIGINT goes to it after that many seconds.
    func checkOnTerminal(_ arguments: [String], interruptAfter: Double? = nil) throws -> (stderr: String, stdout: String, status: Int) {
        var environment = ProcessInfo.processInfo.environment
        let scratch = try TemporaryDirectory()
        environment["IPCURL_CACHE_DIR"] = scratch.path + "/cache"
        let script = """
            import json, os, pty, signal, subprocess, sys, threading
            master, slave = pty.openpty()
            child = subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
            os.close(slave)
            if float(sys.argv[1]) > 0:
                threading.Timer(float(sys.argv[1]), lambda: child.send_signal(signal.SIGINT)).start()
            err = b""
            while True:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                err += chunk
            out = child.stdout.read()
            print(json.dumps({"stderr": err.decode("latin-1"), "stdout": out.decode("latin-1"), "status": child.wait()}))
            """
        let result = try run("/usr/bin/env", ["python3", "-c", script, String(interruptAfter ?? 0), ipcurlBinary(), "check"]
                                 + lab.resolverArguments + arguments,
                             environment: environment)
        let document = try #require(JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any], "\(result.stdout)\(result.stderr)")
        return (document["stderr"] as? String ?? "", document["stdout"] as? String ?? "", document["status"] as? Int ?? -1)
    }

    /// Eight runs, one at a time: four samples of a 400 ms answer, four of a 500.
    var slowCheck: [String] {
        ["--samples", "4", "--parallel", "1", lab.https("a.test", "/api/delay?ms=400"), lab.https("a.test", "/api/status?code=500")]
    }

    @Test func aLongCheckOnATerminalShowsProgressAndWipesIt() throws {
        let result = try checkOnTerminal(slowCheck)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("\rprobes 8/8, 4 failed"), "the last run's end is drawn: \(result.stderr.debugDescription)")
        #expect(result.stderr.range(of: #"\rprobes [1-7]/8, [0-3] failed"#, options: .regularExpression) != nil,
                "counts while it runs: \(result.stderr.debugDescription)")
        #expect(result.stderr.hasSuffix("\r" + String(repeating: " ", count: "probes 8/8, 4 failed".count) + "\r"),
                "the line is wiped at the end: \(result.stderr.debugDescription)")
        #expect(!result.stdout.contains("probes ") && result.stdout.contains("2 probes, 1 passed, 1 failed"), "\(result.stdout)")
    }

    @Test func anInterruptEndsTheProgressLineWithANewline() throws {
        let result = try checkOnTerminal(["--samples", "20", "--parallel", "1", lab.https("a.test", "/api/delay?ms=400")],
                                         interruptAfter: 2)
        #expect(result.status == 130, "128 + SIGINT: \(result)")
        #expect(result.stderr.hasPrefix("\rprobes ") && result.stderr.utf8.last == 10, "a line feed (the terminal adds its carriage return): \(result.stderr.debugDescription)")
        #expect(result.stdout.isEmpty, "no report from an interrupted check")
    }

    @Test func silentVerboseAndQuickChecksShowNone() throws {
        for extra in [["-s"], ["-v"]] {
            let result = try checkOnTerminal(extra + slowCheck)
            #expect(!result.stderr.contains("probes "), "\(extra): \(result.stderr.debugDescription)")
        }
        let quick = try checkOnTerminal([lab.https("a.test")])
        #expect(quick.status == 0 && quick.stderr.isEmpty, "under a second: \(quick.stderr.debugDescription)")
    }

    @Test func aPipeGetsNoProgress() throws {
        let result = try ipcurl(["check"] + lab.resolverArguments + slowCheck)
        #expect(result.status == 1 && result.stderr.isEmpty, "\(result.stderr.debugDescription)")
    }
}
