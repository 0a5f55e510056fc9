import CurlKit
import Foundation
import IPCurlCore
import Testing

@Suite struct ProviderChoiceTests {
    @Test func environmentForms() throws {
        #expect(try ProviderChoice(environment: "aliyun:139450") == ProviderChoice(.aliyun, ["139450"]))
        #expect(try ProviderChoice(environment: "dnspod") == ProviderChoice(.dnspod))
        #expect(try ProviderChoice(environment: "dnspod:1234") == ProviderChoice(.dnspod, ["1234"]))
        #expect(try ProviderChoice(environment: "doh") == ProviderChoice(.doh))
        #expect(try ProviderChoice(environment: "doh:https://1.1.1.1/dns-query") == ProviderChoice(.doh, ["https://1.1.1.1/dns-query"]))
        #expect(try ProviderChoice(environment: "doh-json:https://dns.google/resolve") == ProviderChoice(.dohJSON, ["https://dns.google/resolve"]))
        #expect(try ProviderChoice(environment: "command:/bin/my-dns --zone a") == ProviderChoice(.command, ["/bin/my-dns --zone a"]))
    }

    @Test(arguments: ["", "aliyun", "aliyun:", "doh:", "doh-json", "dnspod:", "command", "Aliyun:1", "system", "doh\n"])
    func badEnvironmentIsAUsageError(_ value: String) {
        #expect(throws: CurlError.usage("")) { try ProviderChoice(environment: value) }
    }

    @Test func usageMessageEscapesControlCharacters() {
        do {
            _ = try ProviderChoice(environment: "bad\nvalue")
            Issue.record("accepted")
        } catch {
            #expect(error.message.hasPrefix("IPCURL_DNS='bad\\x0avalue': expected"))
        }
    }
}

@Suite struct SecretTests {
    /// A file of mode `mode` (the owner's alone by default) holding `contents`.
    private func file(_ contents: String, mode: Int = 0o600) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ipcurl-secret-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(contents.utf8), attributes: [.posixPermissions: mode]))
        return path
    }

    /// The status of a file of `type` (regular by default) with permission bits `mode`, owned by `uid`.
    private func status(_ mode: mode_t, uid: uid_t, type: mode_t = S_IFREG) -> stat {
        var info = stat()
        info.st_mode = type | mode
        info.st_uid = uid
        return info
    }

    @Test func fileWinsAndTrailingLineBreakIsDropped() throws {
        let path = try file("  s3cret-value\r\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        setenv("IPCURL_TEST_SECRET", "from-environment", 1)
        defer { unsetenv("IPCURL_TEST_SECRET") }
        #expect(try Secret.load(file: path, variable: "IPCURL_TEST_SECRET") == Secret(value: "s3cret-value", origin: path))
        #expect(try Secret.load(file: nil, variable: "IPCURL_TEST_SECRET")?.value == "from-environment")
        #expect(try Secret.load(file: nil, variable: "IPCURL_TEST_UNSET_SECRET") == nil)
    }

    @Test(arguments: ["", "\n", "two\nlines", "tab\tinside", "nul\u{0}inside"])
    func emptyOrMultiLineSecretsAreRefusedWithoutShowingThem(_ contents: String) throws {
        let path = try file(contents)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try Secret.load(file: path, variable: nil)
            Issue.record("accepted \(contents.debugDescription)")
        } catch {
            #expect(error == .usage(""))
            #expect(!error.message.contains("lines") && !error.message.contains("inside"))
        }
    }

    @Test func theOwnerAndItsGroupMayReadARegularSecretFileAndOnlyTheOwnerWriteIt() {
        let user: uid_t = 1000
        for (uid, mode) in [(user, mode_t(0o600)), (user, 0o400), (user, 0o640), (user, 0o440), (user, 0o700), (user, 0o750),
                            (0, 0o440), (0, 0o640), (0, 0o600)] {
            #expect(Secret.permissionProblem(status(mode, uid: uid), of: "/k", user: user) == nil,
                    "uid \(uid) mode \(String(mode, radix: 8))")
        }
        let fix = ": make it private with chmod 600 /k"
        for (uid, mode, problem) in [
            (user, mode_t(0o644), "readable by others (mode 0644)" + fix), (user, 0o604, "readable by others (mode 0604)" + fix),
            (0, 0o444, "readable by others (mode 0444)" + fix), (user, 0o602, "writable by others (mode 0602)" + fix),
            (user, 0o601, "executable by others (mode 0601)" + fix), (user, 0o620, "writable by its group (mode 0620)" + fix),
            (0, 0o660, "writable by its group (mode 0660)" + fix), (user, 0o4666, "readable by others (mode 04666)" + fix),
            (1234, 0o600, "owned by uid 1234, not by this user or root: make it this user's with chown 1000 /k"),
            (1234, 0o644, "owned by uid 1234, not by this user or root: make it this user's with chown 1000 /k"),
        ] {
            #expect(Secret.permissionProblem(status(mode, uid: uid), of: "/k", user: user) == problem)
        }
        // Nothing is stored in a pipe, a FIFO, a terminal or /dev/null, whoever owns it and whatever its mode.
        for type in [S_IFIFO, S_IFCHR, S_IFSOCK] {
            #expect(Secret.permissionProblem(status(0o666, uid: 1234, type: type), of: "/dev/fd/3", user: user) == nil)
        }
        #expect(Secret.permissionProblem(status(0o644, uid: 0), of: "/a\u{1b}b", user: 0)
                == "readable by others (mode 0644): make it private with chmod 600 /a\\x1bb", "the path is escaped")
    }

    @Test func aSecretFileReadableByOthersIsAUsageErrorThatDoesNotShowIt() throws {
        let open = try file("s3cret-value\n", mode: 0o644)
        defer { try? FileManager.default.removeItem(atPath: open) }
        do {
            _ = try Secret.load(file: open, variable: nil)
            Issue.record("accepted a file of mode 0644")
        } catch {
            #expect(error == .usage(""))
            #expect(error.message == "\(open): readable by others (mode 0644): make it private with chmod 600 \(open)")
            #expect(!error.message.contains("s3cret"))
        }
        let shared = try file("s3cret-value\n", mode: 0o640)
        defer { try? FileManager.default.removeItem(atPath: shared) }
        #expect(try Secret.load(file: shared, variable: nil)?.value == "s3cret-value")
    }

    /// A secret file (and the default config file, read the same way) is judged on the descriptor it is read from:
    /// a file swapped in at its path between the check and the read is neither judged nor read.
    @Test func theFileJudgedIsTheFileReadWhateverThePathBecomes() throws {
        let path = try file("s3cret-value\n")
        let planted = try file("planted-value\n", mode: 0o644)
        defer { for each in [path, planted] { try? FileManager.default.removeItem(atPath: each) } }
        var judged: mode_t = 0
        let bytes = try LocalFiles.read(path, atMost: 1 << 20) { info throws(CurlError) in
            judged = info.st_mode & 0o777
            #expect(rename(planted, path) == 0, "the path names another file from here on")
        }
        #expect(judged == 0o600, "the status checked is the opened file's")
        #expect(String(decoding: bytes, as: UTF8.self) == "s3cret-value\n", "the bytes read are the opened file's")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "planted-value\n", "while the path names the planted one")
    }

    @Test func urlSafety() {
        #expect(Secret(value: "Ab9-._~", origin: "x").isURLSafe)
        for unsafe in ["a&b", "a b", "a=b", "a%", "a/b", "a?b", "é"] { #expect(!Secret(value: unsafe, origin: "x").isURLSafe) }
    }
}
