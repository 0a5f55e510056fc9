import Foundation
import Testing

/// `-n/--netrc`, `--netrc-file` and `--netrc-optional` against curl 7.88.1: libcurl's own parser reads the file for
/// each hop's host, `-u` wins, a missing file is no error and a broken one is exit 26, as in curl; the file is a
/// secret file ipcurl holds to its rule (curl does not), and its password is in no output.
@Suite struct NetrcTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    /// A scratch directory with a private `.netrc` naming a.test (alice) and `other` (bob).
    func netrc(other: String = "b.test", mode: mode_t = 0o600) throws -> TemporaryDirectory {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/.netrc"
        try writePrivateFile("machine a.test login alice password netrc-secret-1\nmachine \(other) login bob password netrc-secret-2\n",
                             to: path)
        chmod(path, mode)
        return scratch
    }

    func authorization(_ run: Run) throws -> String? { try Echo(run.stdout).headers["authorization"] }

    @Test(arguments: [["--netrc-file", "NETRC"], ["-n"], ["--netrc"], ["--netrc-optional"], ["--netrc-optional", "--netrc-file", "NETRC"],
                      ["--netrc-file", "NETRC", "-u", "x:y"], ["-n", "USER@"], ["-n", "alice@"], ["--netrc-optional", "zed:pw@"],
                      ["--netrc", "zed:pw@"], ["--no-netrc"], ["--netrc-file", "MISSING"], ["--netrc", "--netrc-file", "MISSING"]])
    func theLoginIsCurls(options: [String]) throws {
        let scratch = try netrc()
        let userInfo = options.last?.hasSuffix("@") == true ? options.last!.replacingOccurrences(of: "USER", with: "zed") : ""
        let arguments = options.filter { !$0.hasSuffix("@") }.map {
            $0.replacingOccurrences(of: "NETRC", with: scratch.path + "/.netrc").replacingOccurrences(of: "MISSING", with: scratch.path + "/none")
        }
        let url = "https://\(userInfo)a.test:\(lab.httpsPort)/api/echo"
        let run = try oracle.compare(["-A", "same"] + arguments + [url], environment: ["HOME": scratch.path])
        if options == ["-n"] { #expect(try authorization(run) == "Basic YWxpY2U6bmV0cmMtc2VjcmV0LTE=") }
    }

    /// A redirect to another host gets that host's entry or none, never the first host's; with `-u`, nothing.
    @Test(arguments: [true, false], [[], ["-u", "x:y"]])
    func eachHopGetsItsOwnHostsLogin(otherHasEntry: Bool, user: [String]) throws {
        let other = "netrc-\(UInt32.random(in: 0...UInt32.max)).any.test"
        let scratch = try netrc(other: otherHasEntry ? other : "nobody.test")
        let url = lab.redirect("a.test", 302, to: lab.api(other, "echo"))
        let arguments = ["-sS", "-L", "--netrc-file", scratch.path + "/.netrc"] + user + [url]
        let mine = try ipcurl(aliyun + arguments)
        let pins = ["a.test", other].flatMap { ["--resolve", "\($0):\(lab.httpsPort):\(lab.ip)"] }
        let curls = try run("/usr/bin/curl", ["-q", "--cacert", lab.ca] + pins + arguments)
        #expect(mine.status == 0 && curls.status == 0, "\(mine.stderr) \(curls.stderr)")
        #expect(try authorization(mine) == authorization(curls))
        #expect(try authorization(mine) == (otherHasEntry && user.isEmpty ? "Basic Ym9iOm5ldHJjLXNlY3JldC0y" : nil))
    }

    @Test func aFileLibcurlCannotParseIsExit26() throws {
        let scratch = try TemporaryDirectory()
        try writePrivateFile("machine a.test login alice password \"unterminated\n", to: scratch.path + "/bad")
        let run = try oracle.compare(["--netrc-file", scratch.path + "/bad", lab.api("a.test", "echo")])
        #expect(run.status == 26 && run.stderr == "ipcurl: (26) .netrc parser error\n", "\(run.stderr)")
    }

    /// A `.netrc` file others may read, or write, or that another user owns, is exit 2 with what is wrong, before
    /// anything is sent; its group may read it.
    @Test(arguments: [(0o644, "readable by others (mode 0644)"), (0o604, "readable by others (mode 0604)"),
                      (0o620, "writable by its group (mode 0620)"), (0o602, "writable by others (mode 0602)"), (0o640, nil), (0o400, nil)])
    func theFileMustBePrivate(mode: Int, problem: String?) throws {
        let scratch = try netrc(mode: mode_t(mode))
        let key = "netrc-\(UInt32.random(in: 0...UInt32.max))"
        for options in [["--netrc-file", scratch.path + "/.netrc"], ["-n"], ["--netrc-optional"]] {
            let run = try oracle.ours(["-sS"] + options + [lab.api("a.test", "flaky?key=\(key)&fails=0")], environment: ["HOME": scratch.path])
            if let problem {
                #expect(run.status == 2, "\(run.stderr)")
                #expect(run.stderr == "ipcurl: \(scratch.path)/.netrc: \(problem): make it private with chmod 600 \(scratch.path)/.netrc\n",
                        "\(run.stderr)")
            } else {
                #expect(run.status == 0, "\(run.stderr)")
            }
        }
        #expect(try lab.hits(key) == (problem == nil ? 3 : 0))
    }

    @Test func aFileOfAnotherUserIsRefused() throws {
        guard geteuid() == 0 else { return }
        let scratch = try netrc()
        chown(scratch.path + "/.netrc", 65534, 65534)
        let run = try oracle.ours(["-sS", "--netrc-file", scratch.path + "/.netrc", lab.api("a.test", "echo")])
        #expect(run.status == 2 && run.stderr.contains("owned by uid 65534, not by this user or root"), "\(run.stderr)")
    }

    /// The password is in no `-v`, `--trace` or `--trace-ascii` output, and no error message.
    @Test func thePasswordIsNeverShown() throws {
        let scratch = try netrc()
        let file = scratch.path + "/.netrc"
        let url = lab.api("a.test", "echo")
        for dump in ["--trace", "--trace-ascii"] {
            let run = try oracle.ours(["-sS", "-v", dump, scratch.path + "/dump", "--netrc-file", file, url])
            let text = try String(contentsOfFile: scratch.path + "/dump", encoding: .utf8)
            let sent = try authorization(run)
            #expect(run.status == 0 && sent != nil)
            for secret in ["netrc-secret-1", "YWxpY2U6bmV0cmMtc2VjcmV0LTE"] {
                #expect(!text.contains(secret) && !run.stderr.contains(secret), "\(secret) shown")
            }
        }
        let verbose = try oracle.ours(["-sS", "-v", "--netrc-file", file, "-o", "/dev/null", url])
        #expect(verbose.stderr.contains("authorization: [redacted]") && !verbose.stderr.contains("netrc-secret-1"))
        chmod(file, 0o644)
        let refused = try oracle.ours(["-sS", "--netrc-file", file, url])
        #expect(refused.status == 2 && !refused.stderr.contains("netrc-secret"))
    }
}
