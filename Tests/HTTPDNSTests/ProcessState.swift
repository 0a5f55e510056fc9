import Foundation

/// Whether `pid` has exited (gone, or a zombie nobody reaped yet), waiting up to a second for it.
func processIsGone(_ pid: Int32) -> Bool {
    for _ in 0..<100 {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let state = stat.split(separator: ")").last?.split(separator: " ").first
        else { return true }
        if state == "Z" || state == "X" { return true }
        usleep(10_000)
    }
    return false
}
