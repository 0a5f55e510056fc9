import Foundation
import Testing

/// What ipcurl takes from the local machine only when it is the user's own: the default config file (it may name a
/// resolver command) must be owned by the user or root and writable by nobody else, as ssh wants `~/.ssh/config`;
/// it is looked for under an absolute `XDG_CONFIG_HOME` or `HOME` only, and the cache directory must be absolute, so no
/// working directory (a cloned repository) can plant a resolver command or answers.
@Suite struct LocalTrustTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    private var pinnedConfig: String {
        "no-fallback\nresolve = \"a.test:\(lab.httpsPort):\(lab.ip)\"\ncacert = \(lab.ca)\nsilent\nrequest = PUT\n"
    }

    /// `ipcurl arguments` with `HOME` holding `.config/ipcurl/config` as `text`, owned by `owner` with `mode`.
    private func withDefaultConfig(_ text: String, owner: uid_t, mode: mode_t, _ arguments: [String]) throws -> (Run, String) {
        let home = try TemporaryDirectory()
        let path = home.path + "/.config/ipcurl/config"
        try FileManager.default.createDirectory(atPath: home.path + "/.config/ipcurl", withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(chown(path, owner, owner) == 0 && chmod(path, mode) == 0)
        let result = try ipcurl(arguments, environment: ["HOME": home.path, "XDG_CONFIG_HOME": ""])
        return (result, path)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a file to another user"))
    func aDefaultConfigThatIsNotTheUsersOwnIsRefused() throws {
        let url = lab.api("a.test", "echo")
        let (own, _) = try withDefaultConfig(pinnedConfig, owner: geteuid(), mode: 0o644, [url])
        #expect(own.status == 0, "\(own.stderr)")
        #expect(try Echo(own.stdout).method == "PUT", "the user's own config is read")
        for (owner, mode, why) in [(uid_t(65534), mode_t(0o644), "owned by uid 65534"), (geteuid(), 0o666, "writable by"),
                                   (geteuid(), 0o664, "writable by")] {
            let (result, path) = try withDefaultConfig(pinnedConfig, owner: owner, mode: mode, [url])
            #expect(result.status == 2, "uid \(owner) mode \(String(mode, radix: 8)): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.isEmpty, "nothing is sent")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines.first?.hasPrefix("ipcurl: \(path): ") == true && result.stderr.contains(why),
                    "\(result.stderr)")
        }
        let (skipped, _) = try withDefaultConfig(pinnedConfig, owner: 65534, mode: 0o666,
                                                 ["-q", "-s", "--doh", lab.dohURL, "--cacert", lab.ca, url])
        #expect(skipped.status == 0 && (try? Echo(skipped.stdout).method) == "GET", "-q never reads it: \(skipped.stderr)")
    }

    @Test func aRelativeCacheDirectoryIsRefused() throws {
        let workingDirectory = try TemporaryDirectory()
        let host = "relative-\(UInt32.random(in: 0...UInt32.max)).any.test"
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "IPCURL_DNS")
        environment["IPCURL_CACHE_DIR"] = "cache"
        for arguments in [aliyun + ["-s", "-o", "/dev/null", lab.https(host)], ["resolve"] + aliyun + [host], ["check"] + aliyun + [lab.https(host)],
                          ["cache", "list"]] {
            let result = try run("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", workingDirectory.path, ipcurlBinary()] + arguments,
                                 environment: environment)
            #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
            // One usage error, told alike by every subcommand.
            #expect(result.stderr == "ipcurl: IPCURL_CACHE_DIR (cache) is not an absolute path: a relative cache directory would change "
                    + "with the working directory\n", "\(arguments): \(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: workingDirectory.path).isEmpty,
                    "\(arguments): nothing is made in the working directory")
        }
    }

    @Test func aRelativeConfigHomeIsIgnored() throws {
        // A working directory holding a config at every place a relative XDG_CONFIG_HOME or HOME would name.
        let workingDirectory = try TemporaryDirectory()
        for path in ["ipcurl/config", ".config/ipcurl/config", ".ipcurlrc", "x/ipcurl/config"] {
            let full = workingDirectory.path + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try pinnedConfig.write(toFile: full, atomically: true, encoding: .utf8)
        }
        let url = lab.api("a.test", "echo")
        let absent = workingDirectory.path + "/absent"
        for environment in [["XDG_CONFIG_HOME": ".", "HOME": absent], ["XDG_CONFIG_HOME": "x", "HOME": absent],
                            ["XDG_CONFIG_HOME": "", "HOME": "."], ["XDG_CONFIG_HOME": ".", "HOME": "."]] {
            let result = try ipcurl(["-s", "--doh", lab.dohURL, "--cacert", lab.ca, url], environment: environment,
                                    directory: workingDirectory.path)
            #expect(result.status == 0, "\(environment): \(result.stderr)")
            #expect((try? Echo(result.stdout).method) == "GET", "\(environment): the working directory's config is not read")
        }
        // The same file named by an absolute path is read.
        let absolute = try ipcurl([url], environment: ["XDG_CONFIG_HOME": workingDirectory.path, "HOME": absent],
                                  directory: workingDirectory.path)
        #expect((try? Echo(absolute.stdout).method) == "PUT", "\(absolute.stderr)")
    }
}
