import Foundation
import Testing

/// The secret and key files ipcurl reads itself (`--httpdns-secret-file`, `--aliyun-aes-key-file`,
/// `--dnspod-key-file`, `--dnspod-token-file`, `--pass`): a regular one must be the user's or root's, readable by
/// nobody but its owner and group and writable by nobody but its owner, or the run stops with exit 2 and one line
/// before anything is sent. A pipe, a FIFO or `/dev/stdin` stores nothing and is read as it is.
@Suite struct SecretFileModeTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    /// The vendor options that name a secret file.
    enum SecretOption: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case httpdnsSecret = "--httpdns-secret-file", aliyunAESKey = "--aliyun-aes-key-file"
        case dnspodKey = "--dnspod-key-file", dnspodToken = "--dnspod-token-file"

        var testDescription: String { rawValue }

        /// The lab.env key of the lab's own file for this option.
        var labKey: String {
            switch self {
            case .httpdnsSecret: "LAB_ALIYUN_SECRET_FILE"
            case .aliyunAESKey: "LAB_ALIYUN_AES_KEY_FILE"
            case .dnspodKey: "LAB_DNSPOD_AES_KEY_FILE"
            case .dnspodToken: "LAB_DNSPOD_TOKEN_FILE"
            }
        }
    }

    /// `resolve NAME` through the lab's fixture with `option` reading `path`: it succeeds only with the right secret.
    private func resolve(_ option: SecretOption, _ path: String, _ name: String) throws -> [String] {
        let ip = try lab.value("LAB_HTTPDNS_IP")
        let http = "http://\(ip):\(try lab.value("LAB_HTTPDNS_HTTP_PORT"))"
        let vendor: [String] = switch option {
        case .httpdnsSecret: ["--aliyun", try lab.value("LAB_ALIYUN_SIGNED_ACCOUNT"), "--httpdns-server", http]
        case .aliyunAESKey: ["--aliyun", try lab.value("LAB_ALIYUN_ACCOUNT"), "--aliyun-api", "v2", "--httpdns-server", http]
        case .dnspodKey: ["--dnspod-id", try lab.value("LAB_DNSPOD_ID"), "--httpdns-server", http]
        case .dnspodToken: ["--httpdns-server", "https://\(ip):\(try lab.value("LAB_HTTPDNS_TLS_PORT"))", "--cacert", lab.ca]
        }
        return ["resolve", "--no-fallback"] + vendor + [option.rawValue, path, name]
    }

    private func uniqueName() -> String { "perm-\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).any.test" }

    /// The lab's secret for `option`, copied to a file of `mode` in `directory`.
    private func copy(_ option: SecretOption, mode: mode_t, into directory: TemporaryDirectory) throws -> (path: String, secret: String) {
        let secret = try String(contentsOfFile: try lab.value(option.labKey), encoding: .utf8)
        let path = directory.path + "/secret-\(String(mode, radix: 8))"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(secret.utf8)) && chmod(path, mode) == 0)
        return (path, secret)
    }

    @Test(arguments: SecretOption.allCases)
    func aSecretFileOpenBeyondItsGroupIsRefused(_ option: SecretOption) throws {
        let directory = try TemporaryDirectory()
        for mode: mode_t in [0o600, 0o640, 0o400, 0o440] {
            let (path, _) = try copy(option, mode: mode, into: directory)
            let name = uniqueName()
            let result = try ipcurl(try resolve(option, path, name))
            #expect(result.status == 0 && result.stdout.contains(name), "mode \(String(mode, radix: 8)): \(result.stderr)")
        }
        for (mode, why): (mode_t, String) in [(0o644, "readable by others"), (0o604, "readable by others"),
                                              (0o602, "writable by others"), (0o601, "executable by others"),
                                              (0o620, "writable by its group"), (0o660, "writable by its group")] {
            let (path, secret) = try copy(option, mode: mode, into: directory)
            let name = uniqueName()
            let result = try ipcurl(try resolve(option, path, name))
            let octal = "0" + String(mode, radix: 8)
            #expect(result.status == 2, "mode \(octal): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "ipcurl: \(path): \(why) (mode \(octal)): make it private with chmod 600 \(path)\n")
            #expect(!result.stderr.contains(secret.trimmingCharacters(in: .whitespacesAndNewlines)), "the secret is not shown")
            #expect(try FixtureStats.read(lab).byName[name] == nil, "mode \(octal): nothing is sent")
        }
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a file to another user"), arguments: SecretOption.allCases)
    func aSecretFileOfAnotherUserIsRefused(_ option: SecretOption) throws {
        let directory = try TemporaryDirectory()
        let (path, secret) = try copy(option, mode: 0o600, into: directory)
        #expect(chown(path, 65534, 65534) == 0)
        let result = try ipcurl(try resolve(option, path, uniqueName()))
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr == "ipcurl: \(path): owned by uid 65534, not by this user or root: "
                + "make it this user's with chown \(geteuid()) \(path)\n")
        #expect(!result.stderr.contains(secret.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// A pipe (process substitution, `/dev/stdin`) and a FIFO of mode 0666 hold nothing at rest: no mode is asked of them.
    @Test(arguments: SecretOption.allCases)
    func aPipeOrFIFOIsReadWhateverItsMode(_ option: SecretOption) throws {
        let source = try lab.value(option.labKey)
        let directory = try TemporaryDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "IPCURL_DNS")
        environment["IPCURL_CACHE_DIR"] = directory.path + "/cache"
        environment["SECRET_SOURCE"] = source
        environment["FIFO"] = directory.path + "/fifo"
        // `@PIPE@` and `@FIFO@` in the arguments become a process substitution and a FIFO that a writer fills.
        let substitution = """
            pipe() { local file=$1; shift; exec "${@/#@PIPE@/$file}"; }
            if [[ " $* " == *" @FIFO@ "* ]]; then
                mkfifo -m 666 "$FIFO" && chmod 666 "$FIFO" || exit 99
                timeout 20 dd if="$SECRET_SOURCE" of="$FIFO" status=none >/dev/null 2>&1 &
                exec "${@/#@FIFO@/$FIFO}"
            fi
            pipe <(cat "$SECRET_SOURCE") "$@"
            """
        for placeholder in ["@PIPE@", "@FIFO@"] {
            let name = uniqueName()
            let result = try run("/bin/bash", ["-c", substitution, "bash", ipcurlBinary()] + (try resolve(option, placeholder, name)),
                                 environment: environment)
            #expect(result.status == 0 && result.stdout.contains(name), "\(placeholder): \(result.stderr)")
        }
        let name = uniqueName()
        let stdin = try ipcurl(try resolve(option, "/dev/stdin", name), stdin: try Data(contentsOf: URL(fileURLWithPath: source)))
        #expect(stdin.status == 0 && stdin.stdout.contains(name), "/dev/stdin: \(stdin.stderr)")
    }

    @Test func thePassphraseFileFollowsTheSameRule() throws {
        let directory = try TemporaryDirectory()
        let passphrase = try String(contentsOfFile: try lab.value("LAB_CLIENT_PASS_FILE"), encoding: .utf8)
        let arguments = ["-s", "-E", try lab.value("LAB_CLIENT_CERT"), "--key", try lab.value("LAB_CLIENT_ENC_KEY"), "--pass"]
        for (mode, accepted) in [(mode_t(0o640), true), (0o644, false)] {
            let path = directory.path + "/pass-\(String(mode, radix: 8))"
            #expect(FileManager.default.createFile(atPath: path, contents: Data(passphrase.utf8)) && chmod(path, mode) == 0)
            let result = try ipcurl(arguments + [path] + lab.resolverArguments + ["--no-fallback", lab.https("mtls.test")])
            if accepted {
                #expect(result.status == 0 && result.stdout.contains("verify=SUCCESS"), "\(result.stderr)")
            } else {
                #expect(result.status == 2 && result.stdout.isEmpty, "\(result.stderr)")
                #expect(result.stderr == "ipcurl: \(path): readable by others (mode 0644): make it private with chmod 600 \(path)\n")
                #expect(!result.stderr.contains(passphrase))
            }
        }
    }

    /// `--pass`, `--proxy-pass`, `--tlspassword` and `--proxy-tlspassword` name a file where curl takes the secret
    /// itself: a secret given as curl takes it is no file to read, exit 26 with one line that never repeats it.
    @Test(arguments: ["--pass", "--proxy-pass", "--tlspassword", "--proxy-tlspassword"])
    func aSecretGivenAsCurlTakesItIsNeverRepeated(option: String) throws {
        let secret = "curl-style-secret-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        let result = try ipcurl(lab.resolverArguments + ["--no-fallback", option, secret, lab.https("a.test")])
        #expect(result.status == 26 && result.stdout.isEmpty, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("ipcurl: (26) \(option): ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!result.stderr.contains(secret), "\(result.stderr)")
    }

    /// `--proxy-pass` and `--proxy-tlspassword` name secret files too: a 0640 file is read, a 0644 one refused
    /// (exit 2, one line, nothing sent).
    @Test func theProxySecretFilesFollowTheSameRule() throws {
        let directory = try TemporaryDirectory()
        let passphrase = try String(contentsOfFile: try lab.value("LAB_CLIENT_PASS_FILE"), encoding: .utf8)
        let proxy = ["-s", "-x", try lab.value("LAB_PROXY_TLS_URL"), "--proxy-cacert", lab.ca]
        let tlsClient = ["--proxy-cert", try lab.value("LAB_CLIENT_CERT"), "--proxy-key", try lab.value("LAB_CLIENT_ENC_KEY"), "--proxy-pass"]
        for (mode, accepted) in [(mode_t(0o640), true), (0o644, false)] {
            let path = directory.path + "/pass-\(String(mode, radix: 8))"
            #expect(FileManager.default.createFile(atPath: path, contents: Data(passphrase.utf8)) && chmod(path, mode) == 0)
            for options in [tlsClient + [path], ["--proxy-tlsuser", "srpuser", "--proxy-tlspassword", path]] {
                let result = try ipcurl(proxy + options + lab.resolverArguments + ["-o", "/dev/null", lab.https("a.test")])
                let refusal = "ipcurl: \(path): readable by others (mode 0644): make it private with chmod 600 \(path)\n"
                #expect(accepted ? result.status != 2 : result.status == 2 && result.stderr == refusal, "\(options): \(result.stderr)")
                #expect(!result.stderr.contains(passphrase))
            }
        }
    }
}
