#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import IPCurlCore
import Testing

/// Serialized: one test fills every slot. `runCleanup(only:)` is limited to this suite's own slots so a concurrent
/// suite's registered files are never touched.
@Suite(.serialized) struct SignalCleanupTests {
    private func temporaryFile() -> String {
        var template = Array("/tmp/ipcurl-cleanup-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        #expect(descriptor >= 0)
        close(descriptor)
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    private func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
    private func bit(_ token: Int) -> UInt64 { 1 << UInt64(token) }

    @Test func cleanupRemovesRegisteredFilesAndKeepsUnregisteredOnes() {
        let doomed = temporaryFile(), kept = temporaryFile(), bystander = temporaryFile()
        defer { for path in [doomed, kept, bystander] { unlink(path) } }
        let first = SignalCleanup.register(path: doomed), second = SignalCleanup.register(path: kept)
        #expect(first >= 0 && second >= 0 && first != second)
        SignalCleanup.unregister(second)
        SignalCleanup.runCleanup(only: bit(first) | bit(second))
        SignalCleanup.unregister(first)
        #expect(!exists(doomed))
        #expect(exists(kept))
        #expect(exists(bystander))
    }

    @Test func slotsRunOutThenComeBack() {
        var tokens: [Int] = []
        while case let token = SignalCleanup.register(path: "/nonexistent/ipcurl-slot"), token >= 0 {
            tokens.append(token)
        }
        #expect(tokens.count >= 8)
        #expect(Set(tokens).count == tokens.count)
        for token in tokens { SignalCleanup.unregister(token) }
        let again = SignalCleanup.register(path: "/nonexistent/ipcurl-slot")
        #expect(again >= 0)
        SignalCleanup.unregister(again)
    }

    @Test func slotsHoldTheirOwnPathAfterReuse() {
        let long = temporaryFile() + String(repeating: "x", count: 200), short = temporaryFile()
        defer { unlink(short); unlink(String(long.dropLast(200))) }
        let token = SignalCleanup.register(path: long)
        SignalCleanup.unregister(token)
        let reused = SignalCleanup.register(path: short)  // a shorter path in a (likely) reused slot
        SignalCleanup.runCleanup(only: bit(reused))
        SignalCleanup.unregister(reused)
        #expect(!exists(short), "the terminating NUL ends the shorter path")
    }

    @Test func unusablePathsAndTokensAreRefusedQuietly() {
        #expect(SignalCleanup.register(path: String(repeating: "a", count: SignalCleanup.maximumPathLength + 1)) == -1)
        #expect(SignalCleanup.register(path: "/tmp/a\u{0}b") == -1)
        SignalCleanup.unregister(-1)
        SignalCleanup.unregister(SignalCleanup.slotCount)
    }

    @Test func installReplacesTheDefaultDispositionOnceAndKeepsIgnoredSignals() {
        var before = sigaction(), after = sigaction()
        sigaction(SIGTERM, nil, &before)
        SignalCleanup.install()
        SignalCleanup.install()
        sigaction(SIGTERM, nil, &after)
        let handler = { (action: sigaction) in unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) }
        if handler(before) == 1 {  // inherited as ignored: stays ignored
            #expect(handler(after) == 1)
        } else {
            #expect(handler(after) > 1, "neither SIG_DFL (0) nor SIG_IGN (1)")
            #expect(sigismember(&after.sa_mask, SIGINT) == 1)
        }
    }
}
