import Foundation
import Testing

/// Every long option of the installed curl (`curl --help all`) is one ipcurl knows; the options of other protocols
/// and builds warn once and change nothing; the output, condition and HTTPDNS-trust options act as curl's do.
@Suite struct CurlOptionTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    /// The long options `curl --help all` lists (`--no-keepalive` as listed).
    static func curlLongOptions() throws -> [String] {
        let help = try run("/usr/bin/curl", ["--help", "all"]).stdout
        let names = help.split(separator: "\n").compactMap { line -> String? in
            guard let match = line.firstMatch(of: #/--[A-Za-z0-9][A-Za-z0-9.-]*/#) else { return nil }
            return String(match.output)
        }
        return Array(Set(names)).sorted()
    }

    @Test func everyLongOptionOfTheInstalledCurlIsKnown() throws {
        let options = try Self.curlLongOptions()
        #expect(options.count >= 240, "curl --help all listed \(options.count) options")
        var unknown: [String] = []
        for option in options {
            let result = try ipcurl([option], stdin: Data())
            if result.stderr.contains("is unknown") || result.stderr.contains("unknown option") { unknown.append(option) }
        }
        #expect(unknown.isEmpty, "unknown to ipcurl: \(unknown)")
    }

    @Test func optionsWithoutEffectWarnOnceEachAndChangeNothing() throws {
        let url = lab.api("a.test", "echo")
        let plain = try oracle.ours(["-sS", url])
        let given = try oracle.ours(["-S", "--ftp-pasv", "-P", "-", "--tftp-blksize", "512", "--sslv3", "--no-npn",
                                     "--ftp-pasv", "--no-ssl-reqd", "--no-progress-meter", url])
        #expect(given.status == 0 && given.stdout == plain.stdout)
        let warnings = given.stderr.split(separator: "\n").filter { $0.hasPrefix("ipcurl: warning: ") }
        #expect(warnings == [
            "ipcurl: warning: --ftp-pasv has no effect: it is for FTP, and ipcurl speaks HTTP and HTTPS only",
            "ipcurl: warning: -P has no effect: it is for FTP, and ipcurl speaks HTTP and HTTPS only",
            "ipcurl: warning: --tftp-blksize has no effect: it is for TFTP, and ipcurl speaks HTTP and HTTPS only",
            "ipcurl: warning: --sslv3 has no effect: SSLv3 is not supported (curl ignores it too)",
            "ipcurl: warning: --no-npn has no effect: libcurl has no NPN (curl ignores it too)",
        ], "\(given.stderr)")
        let silent = try oracle.ours(["-s", "--ftp-pasv", "--mail-from", "a@b.test", url])
        #expect(silent.status == 0 && silent.stderr.isEmpty && silent.stdout == plain.stdout)
    }

    @Test func theDocsListEveryOptionWithoutEffect() throws {
        let listed = try ipcurl(["--help", "other"]).stdout.split(separator: "\n").dropFirst()
            .compactMap { $0.firstMatch(of: #/--[a-z0-9.-]+/#).map { String($0.output) } }
        #expect(listed.count >= 50)
        let docs = try String(contentsOfFile: Lab.repoRoot + "/docs/differences.md", encoding: .utf8)
        let section = try #require(docs.split(separator: "\n## ").first { $0.hasPrefix("Options without effect") })
        #expect(listed.filter { !section.contains("`\($0)`") }.isEmpty, "not in differences.md: \(listed.filter { !section.contains("`\($0)`") })")
    }

    @Test func remoteTimeGivesTheFileTheDocumentsTime() throws {
        let scratch = try TemporaryDirectory()
        let url = lab.https("a.test", "/files/text.txt")
        let ours = try oracle.ours(["-sS", "-R", "-o", scratch.path + "/ours", url])
        let theirs = try oracle.theirs(["-sS", "-R", "-o", scratch.path + "/theirs", url])
        #expect(ours.status == 0 && theirs.status == 0, "\(ours.stderr)")
        let time = { (name: String) in try FileManager.default.attributesOfItem(atPath: scratch.path + "/" + name)[.modificationDate] as? Date }
        let mine = try time("ours"), curls = try time("theirs")
        #expect(mine != nil && mine == curls)
        // The time is the document's Last-Modified, to the second.
        let head = try oracle.ours(["-sS", "-I", url]).stdout.split(separator: "\r\n")
        let header = try #require(head.first { $0.lowercased().hasPrefix("last-modified:") })
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        let modified = try #require(formatter.date(from: String(header.dropFirst("last-modified:".count)).trimmingCharacters(in: .whitespaces)))
        #expect(mine == modified, "file \(String(describing: mine)), Last-Modified \(modified)")
    }

    @Test func noClobberNumbersTheNewFileAndStopsAtNinetyNine() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/out"
        try "kept\n".write(toFile: path, atomically: true, encoding: .utf8)
        let url = lab.api("a.test", "echo")
        let first = try oracle.ours(["-sS", "--no-clobber", "-o", path, "-w", "%{filename_effective}", url])
        #expect(first.status == 0 && first.stdout == path + ".1", "\(first.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "kept\n")
        #expect(try String(contentsOfFile: path + ".1", encoding: .utf8).contains("\"path\":\"/api/echo\""))
        for number in 2...99 { try "taken\n".write(toFile: path + ".\(number)", atomically: true, encoding: .utf8) }
        try FileManager.default.removeItem(atPath: path + ".1")
        let again = try oracle.ours(["-sS", "--no-clobber", "-o", path, url])
        #expect(again.status == 0 && FileManager.default.fileExists(atPath: path + ".1"))
        let full = try oracle.ours(["-sS", "--no-clobber", "-o", path, url])
        let curls = try oracle.theirs(["-sS", "--no-clobber", "-o", path, url])
        #expect(full.status == 23 && curls.status == 23, "ipcurl \(full.status) \(full.stderr), curl \(curls.status)")
        #expect(!FileManager.default.fileExists(atPath: path + ".100"))
    }

    @Test func anETagSavedIsComparedNextTime() throws {
        let scratch = try TemporaryDirectory()
        let url = lab.https("a.test", "/files/text.txt"), etag = scratch.path + "/etag"
        let saved = try oracle.ours(["-sS", "--etag-save", etag, "-o", "/dev/null", url])
        let curlSaved = try oracle.theirs(["-sS", "--etag-save", scratch.path + "/curl-etag", "-o", "/dev/null", url])
        #expect(saved.status == 0 && curlSaved.status == 0)
        let text = try String(contentsOfFile: etag, encoding: .utf8)
        let curlText = try String(contentsOfFile: scratch.path + "/curl-etag", encoding: .utf8)
        #expect(text.hasPrefix("\"") && text.hasSuffix("\"\n") && text == curlText)
        let unchanged = try oracle.compare(["--etag-compare", etag, "-w", "%{http_code}", url])
        #expect(unchanged.stdout == "304")
        try "\"other\"\n".write(toFile: etag, atomically: true, encoding: .utf8)
        let changed = try oracle.ours(["-sS", "--etag-compare", etag, "-o", "/dev/null", "-w", "%{http_code}", url])
        #expect(changed.stdout == "200")
    }

    @Test func extendedAttributesNameTheOriginAndType() throws {
        let scratch = try TemporaryDirectory()
        let url = lab.api("a.test", "echo?x=1")
        let ours = try oracle.ours(["-sS", "--xattr", "-o", scratch.path + "/ours", url])
        let theirs = try oracle.theirs(["-sS", "--xattr", "-o", scratch.path + "/theirs", url])
        #expect(ours.status == theirs.status)
        for name in ["user.xdg.origin.url", "user.mime_type"] {
            let mine = Self.attribute(name, of: scratch.path + "/ours"), curls = Self.attribute(name, of: scratch.path + "/theirs")
            #expect(mine == curls, "\(name): ipcurl \(mine ?? "none"), curl \(curls ?? "none")")
            if curls != nil { #expect(mine != nil) }
        }
        if Self.attribute("user.xdg.origin.url", of: scratch.path + "/theirs") != nil {
            #expect(Self.attribute("user.xdg.origin.url", of: scratch.path + "/ours") == url)
        }
    }

    /// The extended attribute `name` of `path` (read with Python's `os.getxattr`), `nil` when it has none.
    static func attribute(_ name: String, of path: String) -> String? {
        let script = "import os, sys\ntry: sys.stdout.write(os.getxattr(sys.argv[1], sys.argv[2]).decode())\nexcept OSError: sys.exit(1)"
        guard let result = try? run("/usr/bin/env", ["python3", "-c", script, path, name]), result.status == 0 else { return nil }
        return result.stdout
    }

    /// `--doh-insecure` skips verification of the HTTPDNS queries only; `--doh-cert-status` asks them for OCSP.
    @Test func theQueriesOwnTrustOptionsLeaveTheRequestVerified() throws {
        let byName = "https://localhost:\(try lab.value("LAB_DOH_PORT"))/dns-query"  // the DoH certificate names 127.0.0.1
        let url = lab.api("a.test", "echo")
        let scratch = try TemporaryDirectory()
        let environment = ["IPCURL_CACHE_DIR": scratch.path]
        let refused = try ipcurl(["-sS", "--no-fallback", "--doh", byName, "--cacert", lab.ca, url], environment: environment)
        #expect(refused.status == 6 && refused.stderr.contains("localhost"), "\(refused.stderr)")
        let skipped = try ipcurl(["-sS", "--no-fallback", "--doh-insecure", "--doh", byName, "--cacert", lab.ca, url], environment: environment)
        #expect(skipped.status == 0 && skipped.stdout.contains("\"path\":\"/api/echo\""), "\(skipped.stderr)")
        let mismatch = try ipcurl(["-sS", "--no-fallback", "--doh-insecure", "--doh", lab.dohURL, "--cacert", lab.ca,
                                   "--resolve", "nomatch.test:\(lab.httpsPort):\(lab.ip)", lab.https("nomatch.test")],
                                  environment: environment)
        #expect(mismatch.status == 60, "--doh-insecure never reaches the request: \(mismatch.stderr)")
        let stapled = try ipcurl(["-sS", "--no-fallback", "--doh-cert-status", "--doh", lab.dohURL, "--cacert", lab.ca,
                                  lab.api("b.test", "echo")], environment: environment)
        #expect(stapled.status == 6 && stapled.stderr.contains("OCSP"), "\(stapled.stderr)")
    }

    @Test func versionListsProtocolsAndLibcurlsFeatures() throws {
        let lines = try ipcurl(["-V"]).stdout.split(separator: "\n")
        #expect(lines.contains("Protocols: http https"))
        let features = try #require(lines.first { $0.hasPrefix("Features: ") }).split(separator: " ").dropFirst()
        let curls = try run("/usr/bin/curl", ["-V"]).stdout.split(separator: "\n").first { $0.hasPrefix("Features: ") }
        let theirs = Set((curls ?? "").split(separator: " ").dropFirst())
        #expect(features.contains("HTTP2") == theirs.contains("HTTP2") && features.contains("SSL"))
        #expect(features.allSatisfy(theirs.contains), "features the linked libcurl lacks: \(features.filter { !theirs.contains($0) })")
    }

    @Test func theManualHasEveryOption() throws {
        let manual = try ipcurl(["--manual"])
        let all = try ipcurl(["--help", "all"]).stdout.split(separator: "\n")
            .compactMap { $0.firstMatch(of: #/--[a-z0-9.-]+/#).map { String($0.output) } }
        #expect(manual.status == 0 && all.count > 200)
        #expect(all.filter { !manual.stdout.contains($0) }.isEmpty)
        #expect(manual.stdout.hasPrefix("NAME\n") && manual.stdout.contains("EXIT STATUS\n"))
    }

    @Test func rateSpacesTheStartsOfSerialTransfers() throws {
        let url = lab.api("a.test", "echo")
        let began = Date()
        let paced = try oracle.ours(["-sS", "-o", "/dev/null", "-o", "/dev/null", "-o", "/dev/null", "--rate", "4/s", url, url, url])
        #expect(paced.status == 0 && Date().timeIntervalSince(began) >= 0.45, "three starts at 4/s take two quarter seconds at least")
        try oracle.compare(["--rate", "2/w", url])
    }

    @Test func resolveHintsAtTheHostInsideAURL() throws {
        for given in ["https://a.test/x", "a.test:443"] {
            let result = try ipcurl(["resolve"] + lab.resolverArguments + [given])
            #expect(result.status == 2 && result.stderr.contains("give the host name alone: 'ipcurl resolve a.test'"), "\(result.stderr)")
        }
    }

    @Test func anIPv4OnlyRunSaysNoARecords() throws {
        let result = try ipcurl(["-sS", "-4", "--no-fallback"] + lab.resolverArguments + [lab.https("v6.test")])
        #expect(result.status == 6 && result.stderr.contains("no A records") && !result.stderr.contains("AAAA"), "\(result.stderr)")
    }

    /// `--remove-on-error` removes the file a failed transfer wrote, as curl 7.88 does: a `-C` resume into a seeded
    /// file that runs out of time (28) or finds no byte ranges (33), and a `--fail-with-body` error body (22). Without
    /// the option the resumed file stays, with both tools. curl never runs here on a name that is not a regular file.
    @Test func removeOnErrorRemovesTheFileOfAFailedTransfer() throws {
        let scratch = try TemporaryDirectory()
        let seed = Data(repeating: 0x61, count: 1000)
        let cases: [(options: [String], url: String, status: Int32)] = [
            (["-C", "-", "-m", "0.5", "--limit-rate", "200k"], lab.https("a.test", "/files/big.bin"), 28),
            (["-C", "-"], lab.api("a.test", "drip?bytes=3000&chunk=1000&ms=10"), 33),
            (["--fail-with-body"], lab.api("a.test", "status?code=404"), 22),
        ]
        for (index, given) in cases.enumerated() {
            for (tool, removes) in [("ipcurl", true), ("curl", true), ("ipcurl", false), ("curl", false)] {
                let path = scratch.path + "/\(tool)-\(index)-\(removes)"
                if given.options.contains("-C") { try seed.write(to: URL(fileURLWithPath: path)) }
                let arguments = ["-sS"] + given.options + (removes ? ["--remove-on-error"] : []) + ["-o", path, given.url]
                let result = tool == "ipcurl" ? try oracle.ours(arguments) : try oracle.theirs(arguments)
                #expect(result.status == given.status, "\(tool) \(arguments): \(result.stderr)")
                let left = FileManager.default.fileExists(atPath: path)
                if removes {
                    #expect(!left, "\(tool) \(arguments) left the file")
                } else if given.options.contains("-C") {
                    #expect(left, "\(tool) \(arguments) removed the file")
                }
            }
        }
        // Only a regular file goes (curl 7.88 unlinks anything, /dev/null included): a link to /dev/null stays, warned.
        let link = scratch.path + "/null"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        let kept = try oracle.ours(["-S", "-C", "-", "-m", "0.3", "--remove-on-error", "-o", link,
                                    lab.api("a.test", "drip?bytes=3000&chunk=100&ms=100")])
        #expect(kept.status == 28 && (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "/dev/null", "\(kept.stderr)")
        #expect(kept.stderr.contains("ipcurl: warning: Skipping removal; not a regular file: \(link)\n"), "\(kept.stderr)")
    }

    static let strace = "/usr/bin/strace"
    static let inCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// `--tcp-fastopen` and `--keepalive-time` reach libcurl, whose effect loopback cannot show otherwise: the socket
    /// options each tool sets, read with strace, are the same (TCP_FASTOPEN_CONNECT, SO_KEEPALIVE, TCP_KEEPIDLE and
    /// TCP_KEEPINTVL of 7 s), and so is the exit code. Skipped without strace, except under `CI=true`, where it fails.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: strace) || inCI, "needs strace"))
    func fastOpenAndKeepaliveReachTheSocket() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.strace), "needs \(Self.strace)")
        let scratch = try TemporaryDirectory()
        let options = ["-sS", "-o", "/dev/null", "--resolve", "a.test:\(lab.httpsPort):\(lab.ip)", "--cacert", lab.ca,
                       "--tcp-fastopen", "--keepalive-time", "7", lab.api("a.test", "echo")]
        let watched = ["TCP_FASTOPEN_CONNECT", "SO_KEEPALIVE", "TCP_KEEPIDLE", "TCP_KEEPINTVL"]
        func socketOptions(_ name: String, _ command: [String]) throws -> (status: Int32, calls: [String]) {
            let trace = scratch.path + "/" + name
            var environment = CurlOracle.environment()
            environment["IPCURL_CACHE_DIR"] = scratch.path + "/cache"
            environment.removeValue(forKey: "IPCURL_DNS")
            let result = try run(Self.strace, ["-f", "-e", "trace=setsockopt", "-o", trace] + command, environment: environment)
            let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").compactMap { line -> String? in
                guard let call = line.firstMatch(of: #/setsockopt\(\d+, (\w+), (\w+), \[(\d+)\]/#),
                      watched.contains(String(call.output.2)) else { return nil }
                return "\(call.output.1) \(call.output.2) \(call.output.3)"
            }
            return (result.status, calls)
        }
        let curls = try socketOptions("curl", ["/usr/bin/curl"] + options)
        let ours = try socketOptions("ipcurl", [ipcurlBinary(), "--no-fallback", "--doh", lab.dohURL] + options)
        #expect(curls.status == 0 && curls.calls.contains("SOL_TCP TCP_FASTOPEN_CONNECT 1")
                && curls.calls.contains("SOL_TCP TCP_KEEPIDLE 7") && curls.calls.contains("SOL_TCP TCP_KEEPINTVL 7"), "\(curls)")
        #expect(ours.status == curls.status && ours.calls == curls.calls, "ipcurl \(ours), curl \(curls)")
    }
}
