import Foundation
import Testing

/// Local input of any size: a glob of two million URLs, or one URL of 2^64 - 2^32, starts its first transfer at once,
/// a glob curl refuses is refused with curl's code and message, and `-K` files, their lines and targets files beyond
/// their caps (16 MiB a file, 1 MiB a `-K` line) are exit 2 with one line, read no further than the cap, whether the
/// file is regular, `/dev/zero`, a FIFO that never ends or stdin.
///
/// Every run is limited to 256 MiB of data (`prlimit --data`) unless a sanitizer's shadow memory needs more, so
/// input read without a bound ends in a quick crash rather than in the machine's memory.
@Suite struct InputLimitTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    /// The data limit of each run; a sanitized build reserves terabytes of shadow memory, so it runs unlimited.
    private static var limit: [String] {
        let environment = ProcessInfo.processInfo.environment
        let sanitized = environment["ASAN_OPTIONS"] != nil || environment["TSAN_OPTIONS"] != nil
        return sanitized ? [] : ["/usr/bin/prlimit", "--data=\(256 << 20)", "--"]
    }

    private var pin: [String] { ["--resolve", "a.test:\(lab.httpsPort):\(lab.ip)", "--cacert", lab.ca] }

    /// `ipcurl arguments` under the data limit, through `sh -c` so `shell` can feed it (`yes | "$@"`).
    private func limited(_ arguments: [String], shell: String = "exec \"$@\"") throws -> Run {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "IPCURL_DNS")
        let scratch = try TemporaryDirectory()
        environment["IPCURL_CACHE_DIR"] = scratch.path + "/cache"
        return try run("/bin/sh", ["-c", shell, "sh"] + Self.limit + [ipcurlBinary()] + arguments, environment: environment)
    }

    /// Starts `ipcurl arguments` under the data limit, reads its first line of output and ends it with SIGTERM:
    /// the line, `nil` when the process ended before writing one.
    private func firstLine(_ arguments: [String]) throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$@\"", "sh"] + Self.limit + [ipcurlBinary()] + arguments
        let scratch = try TemporaryDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "IPCURL_DNS")
        environment["IPCURL_CACHE_DIR"] = scratch.path + "/cache"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        var bytes = Data()
        while !bytes.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            bytes += chunk
        }
        return String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
    }

    /// Twenty URLs of `[1-100000]` each, two million transfers.
    private var hugeGlob: [String] { (1...20).map { lab.https("a.test", "/files/empty.txt?u=\($0)&n=[1-100000]") } }

    @Test(arguments: [[], ["-Z", "--parallel-max", "2"]])
    func aHugeGlobStartsItsFirstTransferAtOnce(parallel: [String]) throws {
        let line = try firstLine(pin + parallel + ["-s", "-o", "/dev/null", "-w", "%{urlnum} %{http_code}\n"] + hugeGlob)
        #expect(line == "0 200", "the first transfer's -w line, before any other URL is made")
    }

    /// One pattern of any size, as curl takes it: no cap on the URLs a glob makes, only curl's own limits (a count
    /// that overflows 64 bits, numbers beyond them, 100 parts). Each is the pattern and its first URL's query, as
    /// curl 7.88.1 makes it.
    @Test(arguments: [("?n=[1-200000]", "?n=1"), ("?a=[1-2000]&b=[1-1000]", "?a=1&b=1"),
                      ("?a=[1-4294967296]&b=[1-4294967295]", "?a=1&b=1"),
                      ("?n=[9223372036854775807-9223372036854775808]", "?n=9223372036854775807")])
    func aSingleGlobOfAnySizeStartsItsFirstTransferAtOnce(pattern: String, first: String) throws {
        let path = "/files/empty.txt"
        let line = try firstLine(pin + ["-s", "-o", "/dev/null", "-w", "%{urlnum} %{http_code} %{url_effective}\n",
                                        lab.https("a.test", path + pattern)])
        #expect(line == "0 200 \(lab.https("a.test", path + first))", "the first transfer's -w line, before any other URL is made")
    }

    /// Globs curl 7.88.1 refuses, each for one of its rules: a count past 64 bits (after a range, or at a set, where
    /// curl names no position), a number past 64 bits, a malformed range, set or bracket, 100 parts.
    static let refusedGlobs = [
        "[1-4294967296][1-4294967296]", "{a,b}[1-4294967296][1-4294967296]", "[1-4294967296][1-4294967295]{a,b}",
        "[1-18446744073709551616]", "[18446744073709551616-1]", "[3-1]", "[1-3:0]", "[1-3:2x]", "[1-3x]", "[5]", "[5-5:2]",
        "[a-Z]", "[A-z]", "[a-z:30]", "[a-]", "[-1]", "{a,b", "{a,{b}}", "{}", "x]", "{a}]",
        String(repeating: "[1-1]", count: 99), String(repeating: "x{a}", count: 50),
    ]

    /// A glob curl 7.88.1 refuses: the same exit code and message (curl draws a caret under the position on two more
    /// lines; ipcurl's one line names the URL instead).
    @Test(arguments: refusedGlobs)
    func aGlobCurlRefusesIsRefusedWithCurlsCodeAndMessage(pattern: String) throws {
        let url = lab.https("a.test", "/" + pattern)
        let ours = try limited(pin + ["-sS", url])
        let curls = try run("/usr/bin/curl", ["-sS", "--resolve", "a.test:\(lab.httpsPort):\(lab.ip)", "--cacert", lab.ca, url],
                            environment: CurlOracle.environment())
        #expect(ours.status == 3 && curls.status == 3, "ipcurl \(ours.status) \(ours.stderr), curl \(curls.status) \(curls.stderr)")
        let curlsLine = String(curls.stderr.split(separator: "\n").first?.dropFirst("curl: ".count) ?? "")
        let message = curlsLine.hasSuffix(":") ? String(curlsLine.dropLast()) : curlsLine
        #expect(ours.stderr == "ipcurl: \(message): \(url)\n", "curl: \(curls.stderr)")
    }

    /// Writes a file of `size` bytes of `# filler` comment lines (the last one cut) and returns its path.
    private func filler(_ directory: TemporaryDirectory, size: Int) throws -> String {
        let path = directory.path + "/filler"
        let line = Data("# filler line of a config file\n".utf8)
        var data = Data(capacity: size)
        while data.count < size { data += line }
        try data.prefix(size).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `result` is exit 2 with one `ipcurl: ` line on stderr holding each of `parts`.
    private func expectRefused(_ result: Run, _ parts: [String], _ context: String) {
        #expect(result.status == 2, "\(context): exit \(result.status): \(result.stderr.prefix(300))")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.hasPrefix("ipcurl: ") == true, "\(context): \(result.stderr.prefix(300))")
        for part in parts { #expect(result.stderr.contains(part), "\(context): \(result.stderr.prefix(300))") }
    }

    @Test func configFilesLargerThan16MiBAreRefusedWhateverTheyAre() throws {
        let scratch = try TemporaryDirectory()
        let url = lab.https("a.test", "/files/empty.txt")
        let exact = try filler(scratch, size: 16 << 20)
        let fits = try limited(["-q", "-K", exact] + pin + ["-s", "-o", "/dev/null", "-w", "%{http_code}", url])
        #expect(fits.status == 0 && fits.stdout == "200", "a file of exactly 16 MiB is read: \(fits.stderr.prefix(300))")
        let over = try filler(scratch, size: (16 << 20) + 1)
        expectRefused(try limited(["-q", "-K", over] + pin + [url]), [over, "16 MiB"], "a regular file")
        expectRefused(try limited(["-q", "-K", "/dev/zero"] + pin + [url]), ["/dev/zero", "16 MiB"], "/dev/zero")
        let fifo = scratch.path + "/endless"
        #expect(mkfifo(fifo, 0o600) == 0)
        let endless = "yes '# an endless config' > \"$0\" 2>/dev/null & exec \"$@\""
        expectRefused(try limited(["-q", "-K", fifo] + pin + [url], shell: endless.replacingOccurrences(of: "$0", with: fifo)),
                      [fifo, "16 MiB"], "a FIFO")
        expectRefused(try limited(["-q", "-K", "-"] + pin + [url], shell: "yes '# an endless config' | exec \"$@\""),
                      ["<stdin>", "16 MiB"], "stdin")
    }

    @Test func aConfigLineLongerThan1MiBIsRefusedNamingIt() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/long"
        let comment = "#" + String(repeating: "x", count: (1 << 20) - 1)
        try "# short\n\(comment)\n".write(toFile: path, atomically: true, encoding: .utf8)
        let fits = try limited(["-q", "-K", path] + pin + ["-s", "-o", "/dev/null", "-w", "%{http_code}",
                                                           lab.https("a.test", "/files/empty.txt")])
        #expect(fits.status == 0, "a line of exactly 1 MiB is read: \(fits.stderr.prefix(300))")
        try "# short\n\(comment)x\n".write(toFile: path, atomically: true, encoding: .utf8)
        expectRefused(try limited(["-q", "-K", path] + pin + [lab.https("a.test")]), ["\(path):2:", "1 MiB"], "a long line")
    }

    /// 2.7 KB of config files that fan out (three levels, each naming the next 40 times, 20 headers in the leaf)
    /// would apply 1.28 million headers: the files one command line reads are at most 4,096 and hold at most 16 MiB
    /// together, each inclusion counted, and beyond either it is exit 2 with one line.
    @Test func configFilesIncludingEachOtherAreCappedTogether() throws {
        let scratch = try TemporaryDirectory()
        let url = lab.https("a.test", "/files/empty.txt")
        let leaf = (1...20).map { "header = \"X-Fan-\($0): a value of a header\"\n" }.joined()
        try leaf.write(toFile: scratch.path + "/level3", atomically: true, encoding: .utf8)
        for level in 0..<3 {
            try String(repeating: "config = \"\(scratch.path)/level\(level + 1)\"\n", count: 40)
                .write(toFile: scratch.path + "/level\(level)", atomically: true, encoding: .utf8)
        }
        expectRefused(try limited(["-q", "-K", scratch.path + "/level0"] + pin + [url]), ["4096 config files"], "a fan-out")
        let once = try limited(["-q", "-K", scratch.path + "/level2"] + pin + ["-s", "-o", "/dev/null", "-w", "%{http_code}", url])
        #expect(once.status == 0 && once.stdout == "200", "one level of 40 inclusions is read: \(once.stderr.prefix(300))")
        // Twenty inclusions of a file of 1 MiB: 20 MiB together.
        let mebibyte = try filler(scratch, size: 1 << 20)
        try String(repeating: "-K \(mebibyte)\n", count: 20).write(toFile: scratch.path + "/large", atomically: true, encoding: .utf8)
        expectRefused(try limited(["-q", "-K", scratch.path + "/large"] + pin + [url]), ["\(mebibyte): ", "16 MiB together"],
                      "20 MiB together")
    }

    /// A file a config file includes is held to the caps as one given on the command line: beyond them it is exit
    /// 2 with one line, not a warning about the including line.
    @Test func anIncludedConfigBeyondTheCapsIsRefusedAsAtTheTop() throws {
        let scratch = try TemporaryDirectory()
        let long = scratch.path + "/long"
        try ("#" + String(repeating: "x", count: 1 << 20) + "\n").write(toFile: long, atomically: true, encoding: .utf8)
        for (included, parts) in [("/dev/zero", ["/dev/zero", "16 MiB"]), (long, ["\(long):1:", "1 MiB"])] {
            let top = scratch.path + "/top"
            try "config = \"\(included)\"\n".write(toFile: top, atomically: true, encoding: .utf8)
            expectRefused(try limited(["-q", "-K", top] + pin + [lab.https("a.test", "/files/empty.txt")]), parts, included)
        }
    }

    @Test func manyRepeatedResolveEntriesReachLibcurlOnceEachInOrder() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/pins"
        let names = (0..<2000).map { "h\($0 % 1000).test:443:127.0.0.\(1 + $0 % 1000 % 7)" }  // each entry twice, 1000 apart
        try names.map { "resolve = \($0)\n" }.joined().write(toFile: path, atomically: true, encoding: .utf8)
        let result = try limited(["-q", "-K", path, "-v"] + pin + ["-s", "-o", "/dev/null", lab.https("a.test", "/files/empty.txt")])
        #expect(result.status == 0, "\(result.stderr.suffix(300))")
        let handed = result.stderr.split(separator: "\n").filter { $0.hasPrefix("* RESOLVE ") }.map { String($0.dropFirst(10)) }
        #expect(handed == Array(names.prefix(1000)) + ["a.test:\(lab.httpsPort):\(lab.ip)"])
    }

    @Test func targetsFilesLargerThan16MiBAreRefused() throws {
        let scratch = try TemporaryDirectory()
        let over = try filler(scratch, size: (16 << 20) + 1)
        for path in [over, "/dev/zero"] {
            expectRefused(try limited(["check", "--targets", path] + pin), [path, "16 MiB"], path)
        }
    }
}
