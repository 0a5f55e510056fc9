@testable import IPCurlCore
import Testing

/// The check's progress line: nothing in the first second, at most five redraws a second, the end drawn at once,
/// wiped by `finish()`.
@Suite struct CheckProgressLineTests {
    private let ms: UInt64 = 1_000_000

    /// Runs `body` with a line writing into a pipe and returns everything it wrote.
    private func output(width: Int = 80, _ body: (CheckProgressLine, ManualClock) -> Void) -> String {
        let clock = ManualClock()
        return captured { body(CheckProgressLine(writer: $0, width: width, now: { clock.now }), clock) }
    }

    @Test func nothingInTheFirstSecondThenThrottledThenWiped() {
        let written = output { line, clock in
            clock.now = 900 * ms
            line.update(CheckProgress(finished: 1, total: 120))
            clock.now = 1_000 * ms
            line.update(CheckProgress(finished: 37, total: 120, failed: 2))
            clock.now = 1_100 * ms
            line.update(CheckProgress(finished: 38, total: 120, failed: 2))  // within a fifth of a second: skipped
            clock.now = 1_250 * ms
            line.update(CheckProgress(finished: 38, total: 120, failed: 2))
            line.update(CheckProgress(finished: 120, total: 120, failed: 2))  // the end: drawn at once
            line.finish()
        }
        #expect(written == "\rprobes 37/120, 2 failed\rprobes 38/120, 2 failed\rprobes 120/120, 2 failed"
            + "\r" + String(repeating: " ", count: 24) + "\r", "\(written.debugDescription)")
    }

    @Test func aShorterLineCoversTheLongerOne() {
        let written = output { line, clock in
            clock.now = 2_000 * ms
            line.update(CheckProgress(finished: 10, total: 100, failed: 10))
            clock.now = 3_000 * ms
            line.update(CheckProgress(finished: 9, total: 10, failed: 0))
        }
        #expect(written == "\rprobes 10/100, 10 failed\rprobes 9/10, 0 failed   ", "\(written.debugDescription)")
    }

    @Test func aNarrowTerminalGetsTheLineCutSoItNeverWraps() {
        let written = output(width: 12) { line, clock in
            clock.now = 1_500 * ms
            line.update(CheckProgress(finished: 37, total: 120, failed: 2))
        }
        #expect(written == "\rprobes 37/1", "\(written.debugDescription)")
    }

    @Test func aQuickCheckWritesNothing() {
        let written = output { line, clock in
            line.update(CheckProgress(finished: 1, total: 1))
            line.finish()
        }
        #expect(written.isEmpty)
    }

    @Test func shownOnlyOnATerminalWithoutSilentOrVerbose() {
        #expect(CheckProgressLine.shouldShow(silent: false, verbose: false, standardErrorIsTTY: true))
        #expect(!CheckProgressLine.shouldShow(silent: true, verbose: false, standardErrorIsTTY: true))
        #expect(!CheckProgressLine.shouldShow(silent: false, verbose: true, standardErrorIsTTY: true))
        #expect(!CheckProgressLine.shouldShow(silent: false, verbose: false, standardErrorIsTTY: false))
    }
}
