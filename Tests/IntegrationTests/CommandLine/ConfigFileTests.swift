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
        try (pinnedConfig + "max-time = later\nrequest = PUT\n").write(toFile: config, atomically: true, encoding: .utf8)
        let result = try ipcurl(["-K", config, lab.api("a.test", "echo")])
        #expect(result.status == 0, "\(result.stderr)")  // as curl: a bad line is skipped with a warning
        #expect(result.stderr.contains("ipcurl: warning: \(config):6: option --max-time: expected a proper numerical parameter"),
                "\(result.stderr)")
        #expect(try Echo(result.stdout).method == "PUT")
        let missing = try ipcurl(["-K", scratch.path + "/absent", "https://a.test/"])
        #expect(missing.status == 26, "\(missing.stderr)")  // curl: cannot read config, exit 26
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
