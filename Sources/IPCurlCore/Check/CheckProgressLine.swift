#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How far a check is: probe runs finished of all (each sample counts once, its retries do not), and how many of
/// the finished ones failed.
public struct CheckProgress: Sendable, Equatable {
    /// Probe runs that have their final result.
    public var finished = 0
    /// Probe runs in the check: every address's samples, and one for each probe that could not run.
    public var total = 0
    /// Finished runs that failed.
    public var failed = 0

    /// Progress with the given counts.
    public init(finished: Int = 0, total: Int = 0, failed: Int = 0) {
        (self.finished, self.total, self.failed) = (finished, total, failed)
    }

    /// `probes 37/120, 2 failed`.
    public var line: String { "probes \(finished)/\(total), \(failed) failed" }
}

/// `probes 37/120, 2 failed` on stderr, redrawn in place with `\r` while a check runs: first drawn once the check
/// has run for a second (a quick check shows nothing), at most five times a second, and wiped by ``finish()`` before
/// the report is written, so it never mixes with a report on the same terminal. Shown only when stderr is a
/// terminal, and neither with `-s` nor with `-v` (whose lines it would cut). It is cut to the terminal's width so a
/// redraw never wraps, and a signal that stops the check ends the line first (``SignalCleanup``).
/// Not thread-safe: feed it from the check's thread.
public final class CheckProgressLine {
    static let delay: UInt64 = 1_000_000_000  // ns before the first draw

    private var terminal: TerminalLine
    private let width: Int?
    private let now: () -> UInt64
    private let began: UInt64
    private var lastDraw: UInt64?
    private var shown = ""

    /// Whether a check shows the line: stderr is a terminal, no `-s`, no `-v`.
    public static func shouldShow(silent: Bool, verbose: Bool, standardErrorIsTTY: Bool = isatty(2) != 0) -> Bool {
        !silent && !verbose && standardErrorIsTTY
    }

    /// A line on `writer` whose second starts now. `width` is the terminal's (`nil` asks fd 2 at every redraw, 80 when
    /// that fails); the line keeps its last column empty so it never wraps. `now` is a monotonic clock in
    /// nanoseconds, injectable for tests.
    public init(writer: DescriptorWriter = .standardError, width: Int? = nil,
                now: @escaping () -> UInt64 = ProgressMeter.monotonicNanoseconds) {
        terminal = TerminalLine(writer: writer)
        self.width = width
        self.now = now
        began = now()
    }

    /// Redraws with `progress` when the check has run for a second, the line changed and the last redraw is a fifth
    /// of a second old; the last run's end is drawn at once. The check calls it as runs finish and at least four
    /// times a second, so a change skipped here is drawn at the next call.
    public func update(_ progress: CheckProgress) {
        let time = now()
        guard time &- began >= Self.delay else { return }
        if let lastDraw, time &- lastDraw < ProgressMeter.redrawInterval, progress.finished < progress.total { return }
        let line = String(progress.line.prefix(TerminalLine.room(width ?? ProgressMeter.terminalWidth())))
        if line == shown { return }
        terminal.draw(line, visible: line.count)
        (shown, lastDraw) = (line, time)
    }

    /// Wipes the line, when one was drawn, and leaves the cursor at the start of the empty line.
    public func finish() {
        guard !shown.isEmpty else { return }
        terminal.end(wiping: true)
        (shown, lastDraw) = ("", nil)
    }
}
