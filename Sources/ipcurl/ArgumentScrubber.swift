#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Blanks secret option values in the process's own argv memory, as curl does for `-u`, so `ps` and
/// `/proc/PID/cmdline` stop showing them once the options are parsed.
enum ArgumentScrubber {
    /// Overwrites with spaces every value given to one of `options` (`-u x`, `-ux`, `--user x`, `--user=x`).
    static func blankValues(of options: Set<String>) {
        let count = Int(CommandLine.argc)
        var index = 1
        while index < count, let argument = CommandLine.unsafeArgv[index] {
            let text = String(cString: argument)
            if text == "--" { return }
            if options.contains(text), index + 1 < count {
                blank(CommandLine.unsafeArgv[index + 1], from: 0)
                index += 2
                continue
            }
            for option in options {
                if option.hasPrefix("--"), text.hasPrefix(option + "=") { blank(argument, from: option.utf8.count + 1) }
                if !option.hasPrefix("--"), text.hasPrefix(option), text.count > option.count { blank(argument, from: option.utf8.count) }
            }
            index += 1
        }
    }

    private static func blank(_ argument: UnsafeMutablePointer<CChar>?, from offset: Int) {
        guard let argument else { return }
        let length = strlen(argument)
        if length > offset { memset(argument + offset, 0x20, length - offset) }
    }
}
