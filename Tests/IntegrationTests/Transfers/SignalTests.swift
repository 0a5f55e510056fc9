import Foundation
import Testing

/// Signals while writing: a closed pipe is curl's write error (23), every terminating signal removes the temporary
/// files and keeps the old target, a SIGKILL's leftovers are removed by the next run, and a hard-linked target
/// rewritten in place is never left partial behind a success.
@Suite struct SignalTests: LabSuite {
    let fixture: LabFixture
    let pinned: [String]
    init() throws {
        fixture = try LabFixture()
        pinned = ["--resolve", "a.test:\(fixture.lab.httpsPort):\(fixture.lab.ip)", "--resolve", "b.test:\(fixture.lab.httpsPort):\(fixture.lab.ip)",
                  "--cacert", fixture.lab.ca]
    }

    private func leftovers(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.contains(".ipcurl-") }
    }

    /// Starts ipcurl with the lab's pins and `arguments`, its cache in `scratch`, stderr discarded.
    private func start(_ arguments: [String], in scratch: TemporaryDirectory) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ipcurlBinary())
        process.arguments = pinned + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["IPCURL_CACHE_DIR": scratch.path + "/cache"]) { $1 }
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Starts ipcurl writing a slow body to `out` and returns once its temporary file exists.
    private func startSlowDownload(to out: String, in scratch: TemporaryDirectory) throws -> Process {
        let process = try start(["-o", out, lab.api("a.test", "drip?bytes=1000000&chunk=1000&ms=20")], in: scratch)
        for _ in 0..<100 where leftovers(scratch.path).isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        return process
    }

    @Test func aClosedPipeIsAWriteError() throws {
        let script = "\"$@\" | head -c 10 >/dev/null; echo \"${PIPESTATUS[0]}\" >&2"
        let url = lab.https("b.test", "/files/big.bin")
        let ours = try run("/bin/bash", ["-c", script, "bash", ipcurlBinary(), "-sS"] + pinned + [url])
        let curl = try run("/bin/bash", ["-c", script, "bash", "/usr/bin/curl", "-sS"] + pinned + [url])
        #expect(curl.stderr.hasSuffix("\n23\n"), "\(curl.stderr)")
        #expect(ours.stderr == "ipcurl: (23) Failure writing output to stdout\n23\n")
    }

    /// `resolve` and `cache list` print data a script reads: a stdout nobody reads is 23 too, never a silent 0.
    @Test func listingsToAClosedPipeAreAWriteError() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        let scratch = try TemporaryDirectory()
        for arguments in [["resolve"] + lab.resolverArguments + ["a.test"], ["cache", "list"]] {
            let process = Process(), errors = Pipe()
            process.executableURL = URL(fileURLWithPath: ipcurlBinary())
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(["IPCURL_CACHE_DIR": scratch.path + "/cache"]) { $1 }
            process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
            process.standardError = errors
            try process.run()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == 23, "\(arguments)")
            #expect(stderr == "ipcurl: (23) Failure writing output to stdout: Broken pipe\n", "\(arguments)")
        }
        close(ends[1])
    }

    @Test(arguments: [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGALRM, SIGUSR1, SIGUSR2])
    func aSignalRemovesTheTemporaryFileAndKeepsTheOldOne(signal: Int32) throws {
        let scratch = try TemporaryDirectory()
        let out = scratch.path + "/slow.bin"
        try "old\n".write(toFile: out, atomically: true, encoding: .utf8)
        let process = try startSlowDownload(to: out, in: scratch)
        #expect(!leftovers(scratch.path).isEmpty, "the download started into a temporary file")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + signal)
        #expect(leftovers(scratch.path).isEmpty)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "old\n")
    }

    /// SIGKILL can't be caught: the temporary file names its process, and the next download into the directory
    /// removes it once that process is gone.
    @Test func aKilledRunsTemporaryFileIsRemovedByTheNextRun() throws {
        let scratch = try TemporaryDirectory()
        let process = try startSlowDownload(to: scratch.path + "/slow.bin", in: scratch)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let left = leftovers(scratch.path)
        #expect(left.count == 1 && left.first?.hasPrefix(".slow.bin.ipcurl-\(process.processIdentifier)-") == true, "\(left)")
        let next = try ipcurl(pinned + ["-o", scratch.path + "/other.txt", lab.https("a.test", "/files/text.txt")])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(leftovers(scratch.path).isEmpty)
    }

    /// A hard-linked target is rewritten in place when the body is complete, with the terminating signals held off
    /// meanwhile: whenever SIGTERM lands, both names hold the old body or the whole new one, and only a finished
    /// rewrite exits 0.
    @Test func anInterruptedRewriteOfAHardLinkedTargetIsNeverPartial() throws {
        let scratch = try TemporaryDirectory()
        let out = scratch.path + "/big.bin", peer = scratch.path + "/peer.bin"
        let big = try lab.value("LAB_WWW") + "/big.bin"
        let old = Data(repeating: 0x6F, count: 1 << 20)
        var outcomes: Set<String> = []
        for delay in stride(from: 0.05, through: 1.2, by: 0.1) {
            try old.write(to: URL(fileURLWithPath: out))
            unlink(peer)
            link(out, peer)
            let process = try start(["-o", out, lab.https("b.test", "/files/big.bin")], in: scratch)
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            let status = process.terminationStatus
            let body = try Data(contentsOf: URL(fileURLWithPath: peer))
            let whole = body.count == old.count ? body == old : FileManager.default.contentsEqual(atPath: peer, andPath: big)
            #expect(whole, "after \(delay) s, status \(status): \(body.count) bytes")
            #expect(status == 0 || status == 143, "after \(delay) s")
            if status == 0 { #expect(body.count != old.count, "a success holds the new body") }
            outcomes.insert(status == 0 ? "finished" : body.count == old.count ? "old kept" : "new kept")
        }
        #expect(outcomes.contains("old kept"), "\(outcomes)")
        #expect(leftovers(scratch.path).isEmpty)
    }
}
