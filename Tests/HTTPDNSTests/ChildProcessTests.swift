import Foundation
@testable import HTTPDNS
import Testing

/// `ChildProcess.run` directly, with `/bin/sh -c` one-liners: what the child inherits (descriptors, environment)
/// and how a child that exits while a grandchild still holds its output ends.
///
/// Serialized so the environment and descriptor changes of one test never overlap another test of this suite; the
/// variable names are unique to this file, so no other suite (they run in parallel) reads or writes them.
@Suite(.serialized) struct ChildProcessTests {
    func run(_ script: String, timeoutMS: Int = 5_000) throws -> ChildProcess.Completed {
        try ChildProcess.run(["sh", "-c", script], hiding: ["IPCURL_"], timeoutMS: timeoutMS, outputLimit: 65_536,
                             errorOutputLimit: 4_096)
    }

    func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    // MARK: Descriptors

    /// The shell's own descriptors, listed by an `ls` it forks (`; :` keeps it from exec'ing `ls` in its place,
    /// and a glob would show the directory descriptor the shell opens to expand it).
    @Test func onlyStandardDescriptorsAreInherited() throws {
        let inheritable = open("/dev/null", O_RDONLY)
        try #require(inheritable >= 3)
        defer { close(inheritable) }
        #expect(fcntl(inheritable, F_SETFD, 0) == 0)  // clear FD_CLOEXEC, whatever open did
        var socketPair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &socketPair) == 0)
        defer { socketPair.forEach { close($0) } }

        let completed = try run("ls /proc/$$/fd; :")
        #expect(completed.termination == .exited(0))
        #expect(lines(completed.output).sorted() == ["0", "1", "2"], "\(lines(completed.output))")
        #expect(completed.errorOutput.isEmpty, "\(String(decoding: completed.errorOutput, as: UTF8.self))")
    }

    @Test func standardDescriptorsAreDevNullAndThePipes() throws {
        let completed = try run("readlink /proc/$$/fd/0 /proc/$$/fd/1 /proc/$$/fd/2; echo to-stderr >&2")
        #expect(completed.termination == .exited(0))
        let targets = lines(completed.output)
        try #require(targets.count == 3, "\(targets)")
        #expect(targets[0] == "/dev/null")
        #expect(targets[1].hasPrefix("pipe:") && targets[2].hasPrefix("pipe:") && targets[1] != targets[2], "\(targets)")
        #expect(completed.errorOutput == Array("to-stderr\n".utf8))
    }

    // MARK: Environment

    @Test func ipcurlVariablesAreNotPassedOn() throws {
        let names = ["IPCURL_CHILDPROCESS_TEST_SECRET", "IPCURL_", "CHILDPROCESS_TEST_VISIBLE", "CHILDPROCESS_TEST_IPCURL_X",
                     "ipcurl_childprocess_test_lower"]
        for name in names { setenv(name, "value-of-\(name)", 1) }
        defer { names.forEach { unsetenv($0) } }

        let completed = try run("env")
        #expect(completed.termination == .exited(0))
        let environment = lines(completed.output)
        #expect(!environment.contains { $0.hasPrefix("IPCURL_") }, "\(environment.filter { $0.hasPrefix("IPCURL_") })")
        #expect(environment.contains("CHILDPROCESS_TEST_VISIBLE=value-of-CHILDPROCESS_TEST_VISIBLE"))
        #expect(environment.contains("CHILDPROCESS_TEST_IPCURL_X=value-of-CHILDPROCESS_TEST_IPCURL_X"))
        #expect(environment.contains("ipcurl_childprocess_test_lower=value-of-ipcurl_childprocess_test_lower"))
        #expect(environment.contains { $0.hasPrefix("PATH=") })
        // The parent keeps its own.
        #expect(String(cString: getenv("IPCURL_CHILDPROCESS_TEST_SECRET")) == "value-of-IPCURL_CHILDPROCESS_TEST_SECRET")
    }

    // MARK: A child that exits before its output closes

    @Test func grandchildHoldingTheOutputDoesNotTurnAnAnswerIntoATimeout() throws {
        let started = ContinuousClock.now
        let completed = try run("echo $$; echo a.test:443:127.0.0.2; sleep 30 & echo $!", timeoutMS: 10_000)
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(completed.termination == .exited(0))
        let output = lines(completed.output)
        try #require(output.count == 3, "\(output)")
        #expect(output[1] == "a.test:443:127.0.0.2")
        let child = try #require(Int32(output[0])), sleeper = try #require(Int32(output[2]))
        #expect(waitpid(child, nil, WNOHANG) == -1 && errno == ECHILD)  // reaped
        #expect(processIsGone(sleeper))  // killed with the process group
    }

    @Test func exitStatusIsKeptWhenAGrandchildHoldsTheOutput() throws {
        let started = ContinuousClock.now
        let completed = try run("echo partial >&2; sleep 30 & exit 3", timeoutMS: 10_000)
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(completed.termination == .exited(3))
        #expect(completed.errorOutput == Array("partial\n".utf8))
    }

    @Test func grandchildrenWithTheirOwnOutputAreKilledToo() throws {
        let completed = try run("sleep 30 >/dev/null 2>&1 & echo $!")
        #expect(completed.termination == .exited(0))
        let sleeper = try #require(Int32(lines(completed.output).first ?? ""))
        #expect(processIsGone(sleeper))
    }

    @Test func timeoutStillAppliesWhileTheChildRuns() throws {
        let started = ContinuousClock.now
        #expect(throws: ChildProcess.Failure.timedOut) { try run("echo a.test:443:127.0.0.2; sleep 30", timeoutMS: 300) }
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func outputLimitStillAppliesWhenAGrandchildWrites() throws {
        #expect(throws: ChildProcess.Failure.outputTooLarge) { try run("yes & sleep 0.2", timeoutMS: 10_000) }
    }
}
