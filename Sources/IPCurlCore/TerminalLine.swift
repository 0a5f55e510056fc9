/// A line redrawn in place on a terminal with `\r`, as the transfer progress meter (``ProgressMeter``) and check's
/// progress line (``CheckProgressLine``) draw theirs: each draw covers with blanks what the last one left, it keeps
/// the terminal's last column empty so nothing wraps, and while it is on stderr a signal that ends the process
/// ends the line first (``SignalCleanup``).
struct TerminalLine {
    let writer: DescriptorWriter
    /// The columns the shown line takes; 0 when none is shown.
    private(set) var width = 0

    /// The columns a line may take on a terminal `columns` wide: all but the last.
    static func room(_ columns: Int) -> Int { max(columns - 1, 1) }

    /// Draws `line`, which takes `visible` columns, over the one shown.
    mutating func draw(_ line: String, visible: Int) {
        writer.write("\r" + line + String(repeating: " ", count: max(width - visible, 0)))
        width = visible
        markOnScreen(true)
    }

    /// Ends the shown line: after it with a line feed, or (`wiping`) by blanking it and going back to its start.
    mutating func end(wiping: Bool) {
        writer.write(wiping ? "\r" + String(repeating: " ", count: width) + "\r" : "\n")
        width = 0
        markOnScreen(false)
    }

    private func markOnScreen(_ onScreen: Bool) {
        if writer === DescriptorWriter.standardError { SignalCleanup.setProgressLineOnScreen(onScreen) }
    }
}
