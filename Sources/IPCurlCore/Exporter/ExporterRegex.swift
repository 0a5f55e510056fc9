/// The regular expressions of a blackbox_exporter module (`fail_if_body_matches_regexp`, a header matcher's
/// `regexp`), written for Go's RE2 and run as Swift `Regex`es made to match as RE2 does: by Unicode code point (not
/// by grapheme), with `\d`, `\s`, `\w` and `\b` ASCII only, and `$` the end of the text unless `(?m)`. RE2's
/// one-letter Unicode classes (`\pL`, `\PN`) are spelled as Swift reads them (`\p{L}`). What still differs is
/// listed in docs/exporter.md: Swift accepts more (lookaround, backreferences), which blackbox would refuse.
public enum ExporterRegex {
    /// `pattern` compiled for matching as RE2 matches; throws the Swift parser's error for a pattern it refuses.
    public static func compile(_ pattern: String) throws -> Regex<AnyRegexOutput> {
        try Regex(swiftSpelling(of: pattern))
            .matchingSemantics(.unicodeScalar)
            .asciiOnlyDigits()
            .asciiOnlyWhitespace()
            .asciiOnlyWordCharacters()
            .wordBoundaryKind(.simple)
    }

    /// `pattern` with each `\pX` and `\PX` (one letter, no braces) written `\p{X}`; other escapes kept as they are.
    static func swiftSpelling(of pattern: String) -> String {
        guard pattern.contains("\\p") || pattern.contains("\\P") else { return pattern }
        var out = ""
        var scalars = pattern.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            out.unicodeScalars.append(scalar)
            guard scalar == "\\", let escaped = scalars.next() else { continue }
            out.unicodeScalars.append(escaped)
            guard escaped == "p" || escaped == "P", let name = scalars.next() else { continue }
            if name.properties.isAlphabetic && name.isASCII {
                out += "{\(name)}"
            } else {
                out.unicodeScalars.append(name)
            }
        }
        return out
    }
}
