import Foundation
@testable import HTTPDNS
import Testing

/// `--resolver-cmd` against small `/bin/sh` scripts written to a fresh temporary directory per test.
/// Serialized so no script is being written while another test spawns a process (that child could inherit
/// the open file and make `exec` fail with ETXTBSY).
@Suite(.serialized) final class CommandResolverTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "ipcurl-cmd-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// Writes an executable `#!/bin/sh` script; `$DIR` in it is this test's directory.
    func script(_ body: String, name: String = "resolve.sh", mode: Int = 0o755) throws -> String {
        let path = directory + "/" + name
        try ("#!/bin/sh\nDIR='\(directory)'\n" + body + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    /// Runs `command` for `host` and `port` within a budget of `timeoutMS` (the budget is the program's time limit).
    func resolve(_ command: String, host: String = "a.test", port: Int = 443, timeoutMS: Int = 5_000)
        throws(ResolutionError) -> ResolverAnswer {
        try CommandResolver(command: command).resolve(host, port: port, within: LookupBudget(milliseconds: timeoutMS))
    }

    /// The error `resolve` throws, for message checks.
    func failure(_ command: String, host: String = "a.test", port: Int = 443, timeoutMS: Int = 5_000) -> ResolutionError? {
        do { _ = try resolve(command, host: host, port: port, timeoutMS: timeoutMS); return nil } catch { return error }
    }

    func read(_ name: String) throws -> String { try String(contentsOfFile: directory + "/" + name, encoding: .utf8) }

    /// Whether the process whose pid the script wrote to `$DIR/pid` is no child of ours any more: reaped.
    func scriptWasReaped() throws -> Bool {
        let pid = try #require(Int32(read("pid").trimmingCharacters(in: .whitespacesAndNewlines)))
        return waitpid(pid, nil, WNOHANG) == -1 && errno == ECHILD
    }

    // MARK: Answers

    @Test func singleLine() throws {
        let answer = try resolve(try script("echo a.test:443:127.0.0.2"))
        #expect(answer == ResolverAnswer(host: "a.test", addresses: [IPAddress("127.0.0.2")!], ttl: 0,
                                         source: .provider(.command, server: "resolve.sh")))
    }

    @Test func bracketedAndBareIPv6MixedWithIPv4() throws {
        let answer = try resolve(try script("echo 'a.test:443:[2001:db8::1],127.0.0.2,::1,[127.0.0.3]'"))
        #expect(answer.addresses.map(\.description) == ["2001:db8::1", "127.0.0.2", "::1", "127.0.0.3"])
    }

    @Test func linesMergeInOrderWithoutDuplicates() throws {
        let body = """
            printf 'a.test:443:127.0.0.3\\r\\n\\n+A.Test.:443:[::1],127.0.0.3\\n'
            printf '\\r\\na.test:443:127.0.0.2,::1'
            """  // CRLF, blank lines, a '+' entry, upper case, trailing dot, no final newline
        let answer = try resolve(try script(body), host: "a.test.")
        #expect(answer.host == "a.test")
        #expect(answer.addresses.map(\.description) == ["127.0.0.3", "::1", "127.0.0.2"])
    }

    @Test func programGetsExactlyHostAndPortAsSeparateArguments() throws {
        let path = try script("""
            [ "$#" -eq 2 ] && [ "$1" = a.test ] && [ "$2" = 8443 ] || { echo "bad args: $*" >&2; exit 3; }
            printf '%s\\n' "$@" > "$DIR/args"
            echo "$1:$2:127.0.0.2"
            """)
        let answer = try resolve(path, host: "A.TEST.", port: 8443)
        #expect(answer.addresses == [IPAddress("127.0.0.2")!])
        #expect(try read("args") == "a.test\n8443\n")
    }

    @Test func extraWordsComeBeforeHostAndPortAndPathIsSearched() throws {
        let path = try script("""
            printf '%s\\n' "$0" "$@" > "$DIR/args"
            echo "$3:$4:127.0.0.2"
            """)
        let answer = try resolve("  sh\t\(path)  --zone   prod ")
        #expect(answer.source == .provider(.command, server: "sh"))
        #expect(try read("args") == "\(path)\n--zone\nprod\na.test\n443\n")
    }

    @Test func environmentIsInherited() throws {
        setenv("RESOLVER_CMD_TEST_ADDRESS", "127.0.0.9", 1)
        let answer = try resolve(try script(#"echo "$1:$2:$RESOLVER_CMD_TEST_ADDRESS""#))
        #expect(answer.addresses == [IPAddress("127.0.0.9")!])
    }

    @Test func hostsThatAreNotHostNamesNeverReachTheProgram() throws {
        let path = try script(#"touch "$DIR/ran"; echo "$1:$2:127.0.0.2""#)
        for host in ["a.test;touch x", "$(id).test", "a.test 443", "a.test\n", "-x.test", ""] {
            #expect(failure(path, host: host)?.kind == .invalidName, "\(host)")
        }
        #expect(failure(path, port: 0)?.kind == .invalidName)
        #expect(!FileManager.default.fileExists(atPath: directory + "/ran"))
    }

    // MARK: Output that is not an answer

    @Test(arguments: [
        ("echo b.test:443:127.0.0.2", "line 1 'b.test:443:127.0.0.2' is not for a.test"),
        ("echo a.test:8443:127.0.0.2", "is not for port 443"),
        ("echo a.test:0443:127.0.0.2", "is not for port 443"),
        ("echo a.test:443:host.test", "has 'host.test', not an IP address"),
        ("echo a.test:443:127.0.0.2,evil", "has 'evil', not an IP address"),
        ("echo a.test:443:127.0.0.2,", "has '', not an IP address"),
        ("echo 'a.test:443:127.0.0.2 '", "has '127.0.0.2 ', not an IP address"),
        ("echo ' a.test:443:127.0.0.2'", "has an invalid host name"),
        ("echo 'a.test:443:127.0.0.2 127.0.0.3'", "not an IP address"),
        ("echo a.test:443:127.0.0.2:80", "not an IP address"),
        ("echo a.test:443:fe80::1%eth0", "not an IP address"),
        ("echo a.test:443:[127.0.0.2", "not an IP address"),
        ("echo a.test:443", "is not HOST:PORT:ADDRESS[,ADDRESS]"),
        ("echo -a.test:443", "removes an entry"),
        ("echo -a.test:443:127.0.0.2", "removes an entry"),
        ("printf 'a.test:443:127.0.0.2\\n127.0.0.3\\n'", "line 2 '127.0.0.3' is not HOST:PORT"),
        ("printf 'a.test:443:127.0.0.2\\nevil.test:443:6.6.6.6\\n'", "line 2 'evil.test:443:6.6.6.6' is not for a.test"),
        ("printf 'a.test:443:127.0.0.2\\r127.0.0.3\\n'", #"'127.0.0.2\x0d127.0.0.3', not an IP address"#),
        ("printf 'a.test:443:127.0.0.2\\0\\n'", #"'127.0.0.2\x00', not an IP address"#),
        ("printf 'a.test:443:127.0.0.2\\033[2J\\n'", #"'127.0.0.2\x1b[2J', not an IP address"#),
        ("true", "no addresses"),
        ("printf '\\n\\r\\n\\n'", "no addresses"),
    ])
    func outputThatIsNotAnAnswerFails(body: String, reason: String) throws {
        let error = try #require(failure(try script(body)))
        // Output without a single address is the program's "no such name" (noAddress); anything malformed is a
        // failure of the command (unavailable), reported as the one server it is.
        #expect(error.kind == (reason == "no addresses" ? .noAddress : .unavailable))
        #expect(error.host == "a.test")
        #expect(error.reason.hasPrefix("resolver command 'resolve.sh': "), "\(error.reason)")
        #expect(error.reason.contains(reason), "\(error.reason)")
        #expect(!error.description.contains("\n"))
        if error.kind == .unavailable {
            #expect(error.failures.map(\.server) == ["resolver command 'resolve.sh'"])
            #expect(error.failures.map(\.phase) == [.answer])
        }
    }

    @Test func longBadLineIsCutInTheReason() throws {
        let error = try #require(failure(try script("echo a.test:443:\(String(repeating: "x", count: 300))")))
        #expect(error.kind == .unavailable)
        #expect(error.reason.contains("'a.test:443:" + String(repeating: "x", count: 69) + "'..."), "\(error.reason)")
        #expect(error.description.count < 250)
    }

    @Test func outputUpToTheLimitIsRead() throws {
        // 3120 lines of 21 bytes plus 16 empty lines: exactly 65536 bytes.
        let answer = try resolve(try script("yes a.test:443:127.0.0.2 | head -n 3120; yes '' | head -n 16"))
        #expect(answer.addresses == [IPAddress("127.0.0.2")!])
    }

    @Test func outputPastTheLimitFailsAndKillsTheProgram() throws {
        let started = ContinuousClock.now
        let error = try #require(failure(try script(#"echo $$ > "$DIR/pid"; exec yes a.test:443:127.0.0.2"#), timeoutMS: 20_000))
        #expect(error.kind == .unavailable)
        #expect(error.reason.contains("output larger than 65536 bytes"), "\(error.reason)")
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(try scriptWasReaped())
    }

    // MARK: Programs that fail

    @Test func nonZeroExitFailsWithTheFirstStderrLine() throws {
        let error = try #require(failure(try script("""
            echo a.test:443:127.0.0.2
            printf '\\n   zone   not found  \\nsecond line\\n' >&2
            exit 3
            """)))
        #expect(error.kind == .unavailable)
        #expect(error.reason == "resolver command 'resolve.sh': exited with status 3: 'zone   not found'")
    }

    @Test func stderrInTheReasonIsCutAndEscaped() throws {
        let error = try #require(failure(try script("printf '\\033[31m%0200d\\n' 0 >&2; exit 1")))
        #expect(error.kind == .unavailable)
        #expect(error.reason.contains(#"status 1: '\x1b[31m0000"#), "\(error.reason)")
        #expect(error.reason.hasSuffix("0'..."))
        #expect(!error.description.contains("\u{1B}"))
    }

    @Test func exitWithoutStderr() throws {
        let error = try #require(failure(try script("exit 1")))
        #expect(error.reason == "resolver command 'resolve.sh': exited with status 1")
    }

    @Test func emptyOutputWithStderrSaysSo() throws {
        let error = try #require(failure(try script("echo 'no record' >&2")))
        #expect(error.kind == .noAddress)
        #expect(error.reason == "resolver command 'resolve.sh': no addresses: 'no record'")
    }

    @Test func deathBySignal() throws {
        let error = try #require(failure(try script(#"echo $$ > "$DIR/pid"; echo dying >&2; kill -TERM $$"#)))
        #expect(error.kind == .unavailable)
        #expect(error.reason == "resolver command 'resolve.sh': was killed by signal 15: 'dying'")
        #expect(try scriptWasReaped())
    }

    @Test func timeoutKillsTheProgramAndItsChildren() throws {
        let path = try script(#"echo $$ > "$DIR/pid"; sleep 5 & echo $! > "$DIR/sleep.pid"; wait"#)
        let started = ContinuousClock.now
        let error = try #require(failure(path, timeoutMS: 300))
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(error.kind == .timedOut)
        // The program gets what is left of the 300 ms budget when it starts: 300 or a millisecond less.
        let given = try #require(error.milliseconds)
        #expect((290...300).contains(given), "\(given)")
        #expect(error.host == "a.test")
        #expect(error.reason == "the resolver command gave no answer within \(given) ms")
        let sleeper = try #require(Int32(read("sleep.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(processIsGone(sleeper))
        #expect(try scriptWasReaped())
    }

    @Test func timeoutAfterClosingOutput() throws {
        let error = try #require(failure(try script(#"echo $$ > "$DIR/pid"; exec >&- 2>&-; sleep 5"#), timeoutMS: 300))
        #expect(error.kind == .timedOut)
        #expect(try scriptWasReaped())
    }

    @Test func missingProgram() throws {
        let error = try #require(failure(directory + "/missing"))
        #expect(error.kind == .unavailable)
        #expect(error.failures.map(\.phase) == [.connect])
        #expect(error.reason == "resolver command 'missing': cannot run '\(directory)/missing': No such file or directory")
        let unknown = try #require(failure("ipcurl-no-such-resolver-program --flag"))
        #expect(unknown.reason.hasSuffix(": cannot run 'ipcurl-no-such-resolver-program': No such file or directory"))
    }

    @Test func programThatIsNotExecutable() throws {
        let error = try #require(failure(try script("echo a.test:443:127.0.0.2", mode: 0o644)))
        #expect(error.kind == .unavailable)
        #expect(error.reason.hasSuffix(": Permission denied"), "\(error.reason)")
    }

    // MARK: Construction

    @Test(arguments: ["", " ", " \t\n "])
    func emptyCommandIsAConfigurationError(command: String) throws {
        let error = try #require(throws: ResolutionError.self) { try CommandResolver(command: command) }
        #expect(error.kind == .configuration && error.setting == .resolverCommand)
        #expect(error.reason == "empty command")
    }

    @Test func commandSplitsOnWhitespaceOnly() throws {
        let resolver = try CommandResolver(command: " /usr/local/bin/my-dns  --zone\t'prod env' \"x\" ")
        #expect(resolver.arguments == ["/usr/local/bin/my-dns", "--zone", "'prod", "env'", "\"x\""])
        #expect(resolver.programName == "my-dns")
        let error = try #require(throws: ResolutionError.self) { try CommandResolver(command: "a\0b") }
        #expect(error.kind == .configuration && error.setting == .resolverCommand)
    }

    @Test func aSpentBudgetStillGivesTheProgramOneMillisecond() throws {
        // The program's time limit comes from the lookup budget; a spent budget still runs it with the smallest
        // limit, 1 ms, rather than none.
        let error = try #require(failure(try script("sleep 5"), timeoutMS: 0))
        #expect(error.kind == .timedOut)
        #expect(error.milliseconds == 1)
    }
}
