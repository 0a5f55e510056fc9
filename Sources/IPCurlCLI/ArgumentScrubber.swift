#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Blanks secret option values in the process's own argv memory, as curl does for `-u`, so `ps` and
/// `/proc/PID/cmdline` stop showing them once the options are parsed. The parser says where each value is.
enum ArgumentScrubber {
    /// Overwrites with spaces each value at `positions`: an index into the arguments after the program name and
    /// the byte offset where the value starts.
    static func blank(_ positions: [(index: Int, offset: Int)]) {
        for (index, offset) in positions where index + 1 < Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index + 1] else { continue }
            let length = strlen(argument)
            if length > offset { memset(argument + offset, 0x20, length - offset) }
        }
    }
}
