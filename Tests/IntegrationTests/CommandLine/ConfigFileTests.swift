import Foundation
import Testing

/// `-K/--config` in curl's syntax, `-K -`, and the default config file (`ipcurl/config` under `$XDG_CONFIG_HOME`, or
/// under `~/.config` when that is unset or empty, else `~/.ipcurlrc`) that a first `-q` skips.
@Suite(.serialized) struct ConfigFileTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    private var pinnedConfig: String {
        """
        # the lab, pinned
        no-fallback
        resolve = "a.test:\(lab.httpsPort):\(lab.ip)"
        --cacert \(lab.ca)
        silent

        """
    }

    private func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func configFileSetsOptionsAndURLs() throws {
        let scratch = try TemporaryDirectory()
        let config = scratch.path + "/cfg"
        try write(pinnedConfig + "request: PATCH\nheader = \"X-From-Config: a \\\"quoted\\\" value\"\nurl = \(lab.api("a.test", "echo"))\n",
                  to: config)
        let result = try ipcurl(["-K", config])
        #expect(result.status == 0, "\(result.stderr)")
        let echo = try Echo(result.stdout)
        #expect(echo.method == "PATCH")
        #expect(echo.headers["x-from-config"] == "a \"quoted\" value")
    }

    @Test func configFromStandardInput() throws {
        let result = try ipcurl(["-K", "-", lab.api("a.test", "echo")], stdin: Data((pinnedConfig + "request = DELETE\n").utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Echo(result.stdout).method == "DELETE")
    }

    @Test func aBadConfigLineIsAWarningAndTheRestApplies() throws {
        let scratch = try TemporaryDirectory()
        let config = scratch.path + "/bad"
        let loud = pinnedConfig.replacingOccurrences(of: "silent\n", with: "")
        try (loud + "max-time = later\nrequest = PUT\n").write(toFile: config, atomically: true, encoding: .utf8)
        let result = try ipcurl(["-K", config, lab.api("a.test", "echo")])
        #expect(result.status == 0, "\(result.stderr)")  // as curl: a bad line is skipped with a warning
        #expect(result.stderr == "ipcurl: warning: \(config):5: option --max-time: expected a proper numerical parameter; line ignored\n",
                "\(result.stderr)")
        #expect(try Echo(result.stdout).method == "PUT")
        let missing = try ipcurl(["-K", scratch.path + "/absent", "https://a.test/"])
        #expect(missing.status == 26, "\(missing.stderr)")  // curl: cannot read config, exit 26
    }

    @Test func silentKeepsAConfigFilesWarningsOffStderr() throws {
        let scratch = try TemporaryDirectory()
        let config = scratch.path + "/bad"
        try "--bogus-option\nmax-time = later\nrequest = PUT\n".write(toFile: config, atomically: true, encoding: .utf8)
        let url = lab.api("a.test", "echo")
        // As curl 7.88.1 with -s first: nothing on stderr, the other lines applied.
        let curls = try oracle.theirs(["-q", "-s", "-K", config, url])
        #expect(curls.status == 0 && curls.stderr.isEmpty, "\(curls.stderr)")
        // ipcurl: -s anywhere, or a silent line anywhere in a config file (a listed difference where it comes later).
        for arguments in [["-s", "-K", config], ["-K", config, "-s"], ["-K", config, "-K", "-"], ["-sS", "-K", config]] {
            let ours = try ipcurl(lab.resolverArguments + arguments + [url], stdin: arguments.contains("-") ? Data("silent\n".utf8) : nil)
            #expect(ours.status == 0 && ours.stderr.isEmpty, "\(arguments): \(ours.stderr)")
            #expect(try Echo(ours.stdout).method == "PUT")
        }
        let loud = try oracle.ours(["-K", config, url])
        #expect(loud.stderr.components(separatedBy: "ipcurl: warning: \(config):").count == 3, "without -s: \(loud.stderr)")
        // Warnings told before a usage error are shown with it, unless silent.
        let failed = try oracle.ours(["-K", config, "--no-such-option", url])
        #expect(failed.status == 2 && failed.stderr.contains("warning: \(config):1:") && failed.stderr.contains("--no-such-option"))
        let quiet = try oracle.ours(["-s", "-K", config, "--no-such-option", url])
        #expect(quiet.status == 2 && !quiet.stderr.contains("warning") && quiet.stderr.contains("--no-such-option"), "\(quiet.stderr)")
    }

    @Test func aConfigLineThatIsNotUTF8IsRefusedNamingItsLine() throws {
        let scratch = try TemporaryDirectory()
        let config = scratch.path + "/latin1"
        let latin1 = Data("request = PUT\n# caf".utf8) + Data([0xE9]) + Data("\ndata = \"caf".utf8) + Data([0xE9]) + Data("\"\n".utf8)
        try latin1.write(to: URL(fileURLWithPath: config))
        let key = "latin1-\(UInt64.random(in: 0...UInt64.max))"
        let ours = try oracle.ours(["-s", "-K", config, lab.api("a.test", "flaky?key=\(key)&fails=1")])
        #expect(ours.status == 2)
        #expect(ours.stderr == "ipcurl: \(config):2: not valid UTF-8; config files are read as UTF-8 text\n", "\(ours.stderr)")
        #expect(try lab.hits(key) == 0, "nothing is sent")
        let fromStdin = try ipcurl(lab.resolverArguments + ["-s", "-K", "-", lab.api("a.test", "echo")], stdin: latin1)
        #expect(fromStdin.status == 2 && fromStdin.stderr.hasPrefix("ipcurl: <stdin>:2: not valid UTF-8"), "\(fromStdin.stderr)")
        // curl sends the byte as it is, where String(decoding:) would have sent U+FFFD.
        let curls = try oracle.theirs(["-q", "-s", "-K", config, lab.api("a.test", "echo")])
        try Data("caf".utf8 + [0xE9]).write(to: URL(fileURLWithPath: scratch.path + "/sent"))
        #expect(try Echo(curls.stdout).bodySHA256 == (try sha256(ofFile: scratch.path + "/sent")))
    }

    @Test func defaultConfigIsReadUnlessDashQComesFirst() throws {
        let home = try TemporaryDirectory()
        try write(pinnedConfig + "request = PUT\n", to: home.path + "/xdg/ipcurl/config")
        let environment = ["XDG_CONFIG_HOME": home.path + "/xdg", "HOME": home.path]
        let read = try ipcurl([lab.api("a.test", "echo")], environment: environment)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(try Echo(read.stdout).method == "PUT")
        // -q first: the default config is not read, so nothing pins a.test and --no-fallback is not set either;
        // the lab DoH server resolves it instead.
        let skipped = try ipcurl(["-q", "-s", "--doh", lab.dohURL, "--cacert", lab.ca, lab.api("a.test", "echo")],
                                 environment: environment)
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(try Echo(skipped.stdout).method == "GET")
    }

    @Test func aCRLFDefaultConfigUnderDotConfigIsReadAsCurlReadsItsRcFile() throws {
        let home = try TemporaryDirectory(), curlHome = try TemporaryDirectory()
        let text = pinnedConfig.replacingOccurrences(of: "\n", with: "\r\n")
            + "request = PATCH\r\nheader = \"X-From-Rc: a b\"\r\n# last\r\nheader = X-Last: c\r"
        try write(text, to: home.path + "/.config/ipcurl/config")
        try write(pinnedConfig + "request = OPTIONS\n", to: home.path + "/.ipcurlrc")
        try write(text, to: curlHome.path + "/.curlrc")
        let read = try ipcurl([lab.api("a.test", "echo")], environment: ["HOME": home.path, "XDG_CONFIG_HOME": ""])
        #expect(read.status == 0, "\(read.stderr)")
        // curl reads ~/.curlrc, warning about ipcurl's own no-fallback line
        let curls = try run("/usr/bin/curl", [lab.api("a.test", "echo")],
                            environment: CurlOracle.environment(["HOME": curlHome.path, "XDG_CONFIG_HOME": "", "CURL_HOME": ""]))
        #expect(curls.status == 0, "\(curls.stderr)")
        let mine = try Echo(read.stdout), theirs = try Echo(curls.stdout)
        #expect(mine.method == theirs.method && mine.method == "PATCH")
        #expect(mine.headers["x-from-rc"] == theirs.headers["x-from-rc"] && theirs.headers["x-from-rc"] == "a b")
        #expect(mine.headers["x-last"] == theirs.headers["x-last"])
        let quiet = try ipcurl(["-qs", "--doh", lab.dohURL, "--cacert", lab.ca, lab.api("a.test", "echo")],
                               environment: ["HOME": home.path, "XDG_CONFIG_HOME": ""])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(try Echo(quiet.stdout).method == "GET", "a first argument starting with -q skips the default config")
    }

    @Test func anUnsetXDGConfigHomeMeansDotConfig() throws {
        let home = try TemporaryDirectory()
        try write(pinnedConfig + "request = PUT\n", to: home.path + "/.config/ipcurl/config")
        try write(pinnedConfig + "request = OPTIONS\n", to: home.path + "/.ipcurlrc")
        var environment = ProcessInfo.processInfo.environment
        for name in ["XDG_CONFIG_HOME", "IPCURL_DNS"] { environment.removeValue(forKey: name) }
        (environment["HOME"], environment["IPCURL_CACHE_DIR"]) = (home.path, home.path + "/cache")
        let result = try run(ipcurlBinary(), [lab.api("a.test", "echo")], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Echo(result.stdout).method == "PUT", "the XDG default, ~/.config, comes before ~/.ipcurlrc")
    }

    @Test func aSetXDGConfigHomeReplacesDotConfig() throws {
        let home = try TemporaryDirectory()
        try write(pinnedConfig + "request = PUT\n", to: home.path + "/.config/ipcurl/config")
        try write(pinnedConfig + "request = OPTIONS\n", to: home.path + "/.ipcurlrc")
        let result = try ipcurl([lab.api("a.test", "echo")], environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/none"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Echo(result.stdout).method == "OPTIONS")
    }

    @Test func homeRcIsTheFallbackDefault() throws {
        let home = try TemporaryDirectory()
        try write(pinnedConfig + "request = OPTIONS\n", to: home.path + "/.ipcurlrc")
        let result = try ipcurl([lab.api("a.test", "echo")], environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/none"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Echo(result.stdout).method == "OPTIONS")
    }
}
