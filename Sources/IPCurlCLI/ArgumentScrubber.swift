#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Blanks secret parts of option values in the process's own argv memory, as curl does for `-u`, so `ps` and
/// `/proc/PID/cmdline` stop showing them once the options are parsed. The parser says where each part is.
enum ArgumentScrubber {
    /// Overwrites with spaces the bytes at each of `positions`: an index into argv (0 is the program's name) and
    /// the byte range within that argument.
    static func blank(_ positions: [(index: Int, bytes: Range<Int>)]) {
        for (index, bytes) in positions where index < Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let end = min(bytes.upperBound, strlen(argument))
            if end > bytes.lowerBound { memset(argument + bytes.lowerBound, 0x20, end - bytes.lowerBound) }
        }
    }
}
