import CurlKit
import HTTPDNS
import Locking

/// Everything the program tells its user on stderr, and the one writer of its `PROGRAM: ` lines: errors, warnings
/// and notes, plus the `-v` trace lines (`* HTTPDNS …`) that say what was decided. It owns `-s`/`-S` (``showsErrors``,
/// ``showsWarnings``), `-v` (``verbose``), colour and the stream, so Core reports events as they happen and never
/// spells the prefix itself. A value: each operation of a command line carries its own copy of the flags.
///
/// Every line is escaped here with ``Printable`` on its way out, so no control character from a URL, a `Location`, a
/// header or an answer that a message quotes reaches the terminal; text that needs no escaping costs one scan.
/// - SeeAlso: curl's `--silent`, `--show-error`, `--verbose`, `--stderr`; swift-format's `DiagnosticsEngine`.
public struct Diagnostics: Sendable {
    /// How serious a line is; it picks the prefix and whether `-s` hides it.
    public enum Severity: Sendable {
        /// `PROGRAM: (N) message`, or `PROGRAM: message` for a usage error; hidden by `-s` without `-S`.
        case error
        /// `PROGRAM: warning: message`; hidden by `-s`.
        case warning
        /// `PROGRAM: message`: what a command did (`cache clear`), always shown.
        case note
    }

    /// The name every line starts with, as curl's start with `curl: `.
    public let program: String
    /// Where the lines go: stderr, or `--stderr FILE` after the entry point redirected descriptor 2.
    public var stream: DescriptorWriter
    /// Whether errors are printed (`-s` without `-S` turns them off; usage errors always print).
    public var showsErrors = true
    /// Whether warnings are printed (off with `-s`).
    public var showsWarnings = true
    /// `-v`: the decision trace.
    public var verbose = false
    /// Whether what is drawn on a terminal may be coloured (`NO_COLOR` unset, `TERM` not `dumb`).
    public var colour: Bool
    /// The lines ``warnOnce(_:)`` printed, shared by every copy: each `--next` operation's diagnostics are copies.
    private let told = ToldLines()

    /// Diagnostics of `program` on `stream` with every error and warning shown and no trace.
    public init(program: String, stream: DescriptorWriter = .standardError) {
        self.program = program
        self.stream = stream
        colour = ProgressMeter.colourAllowed()
    }

    /// Prints `error` as curl does (``text(of:)``) unless errors are hidden; a usage error always prints.
    public func error(_ error: CurlError) {
        guard showsErrors || error == .usage("") else { return }
        emit(.error, Self.text(of: error))
    }

    /// What follows `PROGRAM: ` for `error`, the one form for every subcommand: `(N) message` as curl prints a
    /// failure, the message alone for a usage error (exit 2), as curl prints its option errors (`curl: option
    /// --max-time: expected a proper numerical parameter`).
    public static func text(of error: CurlError) -> String { error == .usage("") ? error.message : error.description }

    /// Prints `line` as `PROGRAM: line`, at `severity`.
    public func emit(_ severity: Severity, _ line: String) {
        switch severity {
        case .error, .note: stream.write("\(program): \(Printable.escaped(line))\n")
        case .warning: if showsWarnings { stream.write("\(program): warning: \(Printable.escaped(line))\n") }
        }
    }

    /// `PROGRAM: warning: text` unless `-s`.
    public func warning(_ text: String) { emit(.warning, text) }

    /// `PROGRAM: warning: text` unless `-s`, once per run whichever operation (a
    /// ``with(showsErrors:showsWarnings:verbose:)`` copy) tells it: a warning about the run's setup, not a transfer's.
    public func warnOnce(_ text: String) {
        if showsWarnings, told.isFirst(text) { warning(text) }
    }

    /// `PROGRAM: text`, always.
    public func note(_ text: String) { emit(.note, text) }

    /// Writes `text` (whole `-v` lines, newline included) when ``verbose``, each line escaped.
    public func trace(_ text: @autoclosure () -> String) {
        if verbose { stream.write(Printable.escapedLines(text())) }
    }

    /// `-v`'s `* HTTPDNS line` for each of `lines` (policy notes: cache problems, background refreshes).
    public func traceNotes(_ lines: [String]) { trace(DecisionLog.notes(lines)) }

    /// A copy with `-s`, `-S` and `-v` as one operation of the command line sets them.
    public func with(showsErrors: Bool, showsWarnings: Bool, verbose: Bool) -> Diagnostics {
        var copy = self
        (copy.showsErrors, copy.showsWarnings, copy.verbose) = (showsErrors, showsWarnings, verbose)
        return copy
    }
}

/// The lines a run's ``Diagnostics`` told once, under a lock: parallel transfers warn from their own threads.
private final class ToldLines: @unchecked Sendable {
    private var lines: [String] = []
    private let lock = Lock()

    /// Whether `line` is told for the first time; it counts as told from now on.
    func isFirst(_ line: String) -> Bool {
        lock.locked {
            guard !lines.contains(line) else { return false }
            lines.append(line)
            return true
        }
    }
}
