#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Blanks secret option values in the process's own argv memory, as curl does for `-u`, so `ps` and
/// `/proc/PID/cmdline` stop showing them once the options are parsed.
enum ArgumentScrubber {
    /// Short options that take a value, so a group such as `-so FILE` or `-suser:pw` can be read the way
    /// argument-parser reads it: the first value-taking letter consumes the rest, or the next argument.
    static let shortOptionsWithValues = Set("XHdowDFTAeubm")

    /// Overwrites with spaces every value given to `short` / `long` (`-u x`, `-ux`, `-su x`, `--user x`, `--user=x`).
    static func blankValues(short: Character, long: String) {
        let count = Int(CommandLine.argc)
        var index = 1
        while index < count, let argument = CommandLine.unsafeArgv[index] {
            let text = String(cString: argument)
            index += 1
            if text == "--" { return }
            if text == long, index < count {
                blank(CommandLine.unsafeArgv[index], from: 0)
                index += 1
            } else if text.hasPrefix(long + "=") {
                blank(argument, from: long.utf8.count + 1)
            } else if text.hasPrefix("-"), !text.hasPrefix("--"),
                      let letter = text.dropFirst().firstIndex(where: shortOptionsWithValues.contains) {
                let rest = text.utf8.distance(from: text.startIndex, to: text.index(after: letter))
                if rest == text.utf8.count {
                    if text[letter] == short, index < count { blank(CommandLine.unsafeArgv[index], from: 0) }
                    index += 1
                } else if text[letter] == short {
                    blank(argument, from: rest)
                }
            }
        }
    }

    private static func blank(_ argument: UnsafeMutablePointer<CChar>?, from offset: Int) {
        guard let argument else { return }
        let length = strlen(argument)
        if length > offset { memset(argument + offset, 0x20, length - offset) }
    }
}
