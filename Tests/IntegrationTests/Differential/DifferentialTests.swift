import Foundation
import Testing

/// The differential suite: every row of ``DifferentialRows`` run with curl 7.88.1 and with ipcurl against the lab,
/// comparing the exit code, stdout (which for most rows is the echo backend's report of the method, headers and
/// body digest it received) and the files each tool wrote. Response `Date` header lines and the elapsed time in
/// libcurl's connect errors are left out.
@Suite struct DifferentialTests {
    static let rows = DifferentialRows.all

    @Test func theSuiteHasAtLeast200Lines() {
        #expect(Self.rows.count >= 200)
        let lines = Self.rows.map(\.testDescription)
        #expect(Set(lines).count == lines.count, "repeated: \(lines.filter { line in lines.filter { $0 == line }.count > 1 })")
    }

    @Test(arguments: rows)
    func curlAndIpcurlAgree(row: DifferentialRow) throws {
        let lab = try Lab.current()
        let key = "diff-\(UInt32.random(in: 0...UInt32.max))"
        let pins = ["a.test", "b.test"].flatMap { ["--resolve", "\($0):\(lab.httpsPort):\(lab.ip)", "--resolve", "\($0):\(lab.httpPort):\(lab.ip)"] }
        let common = ["--cacert", lab.ca, "-A", "differential"]
        // Without --resolve pins ipcurl asks the lab's DoH server; with them, a name they miss goes there too, never
        // to the built-in public resolvers.
        let resolver = row.viaDoH ? ["--doh", lab.dohURL] : pins + ["--doh", lab.dohURL]
        let ours = try Side(lab: lab, row: row, key: key, pins: ["--no-fallback"] + resolver + common)
        let theirs = try Side(lab: lab, row: row, key: key + "c", pins: pins + common)
        let environment = CurlOracle.environment(["HOME": ours.directory.path, "XDG_CONFIG_HOME": ours.directory.path])
        let mine = try ipcurl(["--no-fallback"] + resolver + common + ours.arguments, stdin: row.stdin.map { Data($0.utf8) },
                              environment: environment)
        let curls = try run("/usr/bin/curl", ["-q"] + pins + common + theirs.arguments, stdin: row.stdin.map { Data($0.utf8) },
                            environment: environment)
        if let kept = row.kept {
            #expect(mine.status == 0 && curls.status == 2, "\(kept): ipcurl \(mine.status), curl \(curls.status)")
            return
        }
        #expect(mine.status == curls.status, "ipcurl \(mine.status) \(mine.stderr.prefix(300)) / curl \(curls.status) \(curls.stderr.prefix(300))")
        #expect(Self.undated(mine.stdout, ours) == Self.undated(curls.stdout, theirs))
        #expect(try ours.files() == theirs.files())
    }

    /// `text` without `Date:` header lines, with the side's scratch directory written as `{DIR}`, without
    /// libcurl's elapsed connect time (``untimed(_:)``) and with libcurl's random multipart boundaries (a nested
    /// `multipart/mixed` part names its own) written as `{BOUNDARY}`.
    static func undated(_ text: String, _ side: Side) -> [String] {
        let unbounded = untimed(text.replacingOccurrences(of: side.directory.path, with: "{DIR}"))
            .replacing(#/-{24}[0-9a-f]{16}/#, with: "{BOUNDARY}")
        return lines(unbounded).filter { !$0.lowercased().hasPrefix("date:") }
    }

    /// `text` with the elapsed time in libcurl's connect errors ("Failed to connect to 127.0.0.1 port 1 after 1 ms")
    /// written as `after N ms`: a refused connection takes 0 ms or 1 ms, depending on the machine's load.
    static func untimed(_ text: String) -> String {
        text.replacing(#/ after \d+ ms\b/#, with: " after N ms")
    }

    @Test func connectTimesAreLeftOut() {
        let message = "000 Failed to connect to 127.0.0.1 port 1 after 12 ms: Couldn't connect to server\n"
        #expect(Self.untimed(message) == "000 Failed to connect to 127.0.0.1 port 1 after N ms: Couldn't connect to server\n")
        #expect(Self.untimed("ok after 2 failures\n") == "ok after 2 failures\n")
    }

    /// `text` split at every line feed, also the one of a "\r\n" (one Character to Swift's `split`, so header lines
    /// would stay joined): the split is on UTF-8 bytes, and each line keeps its "\r".
    static func lines(_ text: String) -> [String] {
        text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// One tool's run of a row: its scratch directory (with the input files) and the arguments with placeholders filled.
    struct Side {
        let directory: TemporaryDirectory
        let arguments: [String]
        /// The process that writes `{FIFO}`, ended with the side if no tool opened the FIFO.
        let fifoWriter: FIFOWriter?
        private var inputs: Set<String> { ["file.txt", "bin.dat", "headers", "cookies", "cfg", "fifo"] }

        init(lab: Lab, row: DifferentialRow, key: String, pins: [String]) throws {
            directory = try TemporaryDirectory()
            let path = directory.path
            try "line one\r\nline two\n".write(toFile: path + "/file.txt", atomically: true, encoding: .utf8)
            try Data([0, 1, 2, 0xFF, 0x0A, 0x0D, 0x41]).write(to: URL(fileURLWithPath: path + "/bin.dat"))
            try "X-From-File: 1\nX-Other: two words\n".write(toFile: path + "/headers", atomically: true, encoding: .utf8)
            try "a.test\tFALSE\t/\tFALSE\t0\tjar\tv\n".write(toFile: path + "/cookies", atomically: true, encoding: .utf8)
            func filled(_ text: String) -> String {
                text.replacingOccurrences(of: "{A}", with: "https://a.test:\(lab.httpsPort)")
                    .replacingOccurrences(of: "{B}", with: "https://b.test:\(lab.httpsPort)")
                    .replacingOccurrences(of: "{H}", with: "http://a.test:\(lab.httpPort)")
                    .replacingOccurrences(of: "{PORT}", with: "\(lab.httpsPort)")
                    .replacingOccurrences(of: "{DIR}", with: path).replacingOccurrences(of: "{FILE}", with: path + "/file.txt")
                    .replacingOccurrences(of: "{BIN}", with: path + "/bin.dat").replacingOccurrences(of: "{HEADERS}", with: path + "/headers")
                    .replacingOccurrences(of: "{COOKIES}", with: path + "/cookies").replacingOccurrences(of: "{CFG}", with: path + "/cfg")
                    .replacingOccurrences(of: "{KEY}", with: key).replacingOccurrences(of: "{FIFO}", with: path + "/fifo")
            }
            fifoWriter = row.arguments.contains { $0.contains("{FIFO}") } ? try FIFOWriter(path: path + "/fifo") : nil
            if let config = row.config { try filled(config).write(toFile: path + "/cfg", atomically: true, encoding: .utf8) }
            arguments = row.arguments.flatMap { $0 == "{PINS}" ? pins : [filled($0)] }
        }

        /// The files the tool wrote (inputs aside), by relative path, with their contents.
        func files() throws -> [String: Data] {
            var found: [String: Data] = [:]
            let enumerator = FileManager.default.enumerator(atPath: directory.path)
            while let name = enumerator?.nextObject() as? String {
                var isDirectory: ObjCBool = false
                let full = directory.path + "/" + name
                guard !inputs.contains(name), FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory),
                      !isDirectory.boolValue else { continue }
                let text = try String(contentsOfFile: full, encoding: .utf8)
                found[name] = Data(DifferentialTests.lines(text)
                    .filter { !$0.lowercased().hasPrefix("date:") }.joined(separator: "\n").utf8)
            }
            return found
        }
    }
}

/// A FIFO and a writer process that opens it (blocking until a reader does), writes one line and closes it; the
/// writer is ended when this is released, in case nothing ever read the FIFO.
final class FIFOWriter: @unchecked Sendable {
    private let process = Process()

    init(path: String, line: String = "fifo body\n") throws {
        guard mkfifo(path, 0o600) == 0 else { throw LabError("mkfifo \(path) failed") }
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "printf '%s' \"$1\" > \"$0\"", path, line]
        try process.run()
    }

    deinit { if process.isRunning { process.terminate() } }
}
