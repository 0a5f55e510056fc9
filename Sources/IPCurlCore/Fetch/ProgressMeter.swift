#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line transfer progress bar, redrawn in place with `\r` at most five times a second: bytes done, and when
/// the total is known a percentage, a bar, the total and an ETA; plus the rate over the last few seconds.
/// Feed it libcurl's progress callback (`EasyHandle.onProgress`), call ``reset()`` when a retry or a redirect hop
/// starts over and ``finish()`` when the transfer ends. Not thread-safe: use it from the transfer's thread.
/// - SeeAlso: curl's `-#`/`--progress-bar`; https://no-color.org for `NO_COLOR`.
public final class ProgressMeter {
    static let redrawInterval: UInt64 = 200_000_000  // ns: at most five redraws a second
    static let rateWindow: UInt64 = 5_000_000_000  // ns of samples the rate is averaged over

    private let colour: Bool
    private let width: Int?
    private let now: () -> UInt64
    private var samples: [(time: UInt64, bytes: Int64)] = []
    private var done: Int64 = 0, total: Int64 = 0, uploading = false, started = false
    private var lastDraw: UInt64?
    private var shown: TerminalLine

    /// curl's rule: a bar only when standard error is a terminal, the body goes to a file and `-s` is off.
    public static func shouldShow(silent: Bool, outputIsFile: Bool, standardErrorIsTTY: Bool = isatty(2) != 0) -> Bool {
        !silent && outputIsFile && standardErrorIsTTY
    }

    /// `false` when `NO_COLOR` is set to anything non-empty or `TERM` is `dumb`; `variable` reads the environment.
    public static func colourAllowed(_ variable: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> Bool {
        (variable("NO_COLOR") ?? "").isEmpty && variable("TERM") != "dumb"
    }

    /// - Parameters:
    ///   - colour: whether the bar may be green (see ``colourAllowed(_:)``).
    ///   - width: the terminal width; `nil` asks fd 2 (`TIOCGWINSZ`) at every redraw, 80 when that fails.
    ///   - now: a monotonic clock in nanoseconds, injectable for tests.
    public init(writer: DescriptorWriter = .standardError, colour: Bool = ProgressMeter.colourAllowed(), width: Int? = nil,
                now: @escaping () -> UInt64 = ProgressMeter.monotonicNanoseconds) {
        shown = TerminalLine(writer: writer)
        self.colour = colour
        self.width = width
        self.now = now
    }

    /// Takes libcurl's four counters; shows the upload while it runs (or while nothing came back), the download after.
    public func update(downloadTotal: Int64, downloaded: Int64, uploadTotal: Int64, uploaded: Int64) {
        let up = (uploadTotal > 0 || uploaded > 0) && (uploaded < uploadTotal || downloaded == 0)
        let count = up ? uploaded : downloaded
        if up != uploading || count < done { samples.removeAll() }  // other side, or the counter started over
        (uploading, done, total, started) = (up, count, up ? uploadTotal : downloadTotal, true)
        let time = now()
        if let lastDraw, time &- lastDraw < Self.redrawInterval { return }
        draw(at: time)
    }

    /// Starts the counters and the rate over (a retry or a redirect hop); the line is overwritten at the next redraw.
    public func reset() {
        samples.removeAll()
        (done, total) = (0, 0)
    }

    /// Draws the final state and ends the line; does nothing when no progress was ever reported.
    public func finish() {
        guard started else { return }
        draw(at: now())
        shown.end(wiping: false)
        (started, lastDraw) = (false, nil)
        samples.removeAll()
    }

    private func draw(at time: UInt64) {
        samples.append((time, done))
        while samples.count > 2, time &- samples[1].time >= Self.rateWindow { samples.removeFirst() }
        let elapsed = time &- samples[0].time
        let rate = elapsed > 0 ? Double(max(done - samples[0].bytes, 0)) * 1e9 / Double(elapsed) : nil
        let line = Self.render(done: done, total: total, rate: rate, width: width ?? Self.terminalWidth(), colour: colour)
        shown.draw(line, visible: Self.visibleWidth(line))
        lastDraw = time
    }

    /// One progress line without `\r`, at most `width - 1` columns (the last column stays empty so nothing wraps).
    /// `total <= 0` means unknown: no percentage, bar or ETA. `rate` is bytes per second, `nil` before it is known.
    static func render(done: Int64, total: Int64, rate: Double?, width: Int, colour: Bool) -> String {
        let room = TerminalLine.room(width)
        let speed = rate.map { bytes(Int64(min(max($0, 0), 9.2e18))) + "/s" } ?? "-- B/s"
        guard total > 0 else { return fit([bytes(done), speed], room) }
        let fraction = min(max(Double(done) / Double(total), 0), 1)
        let tenths = Int((fraction * 1000).rounded(.down))  // 99.99% is not 100.0%
        let percent = "\(tenths / 10).\(tenths % 10)%"
        let percentField = String(repeating: " ", count: 6 - percent.count) + percent
        let fields = ["\(bytes(done)) / \(bytes(total))", speed, "ETA " + eta(remaining: total - done, rate: rate)]
        let stats = fields.joined(separator: "  ")
        let barWidth = room - percentField.count - stats.count - 4  // " [" and "] "
        guard barWidth >= 5 else { return fit([percentField + " " + fields[0]] + fields[1...], room) }
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let hashes = String(repeating: "#", count: filled)
        let bar = colour && filled > 0 ? "\u{1B}[32m" + hashes + "\u{1B}[0m" : hashes
        return percentField + " [" + bar + String(repeating: " ", count: barWidth - filled) + "] " + stats
    }

    /// Joins `fields` with two spaces, dropping trailing fields and then clipping until the line fits in `room`.
    private static func fit(_ fields: [String], _ room: Int) -> String {
        var fields = fields
        while fields.count > 1, fields.joined(separator: "  ").count > room { fields.removeLast() }
        return String(fields.joined(separator: "  ").prefix(room))
    }

    /// `m:ss` or `h:mm:ss`; `--:--` when the rate is unknown or the wait exceeds 99:59:59.
    static func eta(remaining: Int64, rate: Double?) -> String {
        if remaining <= 0 { return "0:00" }
        guard let rate, rate > 0, Double(remaining) / rate < 360_000 else { return "--:--" }
        let seconds = Int((Double(remaining) / rate).rounded(.up))
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }

    /// `512 B`, `1.5 KiB`, `12.3 MiB`, `1.0 GiB` and on up to EiB, with one decimal above bytes.
    static func bytes(_ count: Int64) -> String {
        if count < 1024 { return "\(max(count, 0)) B" }
        let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        var (scaled, index) = (Double(count) / 1024, 0)
        while index < units.count - 1, (scaled * 10).rounded() >= 10240 { (scaled, index) = (scaled / 1024, index + 1) }
        let tenths = Int((scaled * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[index])"
    }

    /// Columns a line takes on screen: ANSI `ESC ... m` sequences take none.
    static func visibleWidth(_ line: String) -> Int {
        var (count, escaped) = (0, false)
        for scalar in line.unicodeScalars {
            if escaped { escaped = scalar != "m" } else if scalar == "\u{1B}" { escaped = true } else { count += 1 }
        }
        return count
    }

    static func terminalWidth() -> Int {
        var size = winsize()
        return ioctl(2, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }

    /// `CLOCK_MONOTONIC` in nanoseconds.
    public static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
