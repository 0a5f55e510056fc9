/// Text from servers and users made safe for one terminal line: every control character (C0, DEL, C1) and every
/// invisible formatting character (bidirectional overrides, zero-width joiners) is written as a Swift escape, so a
/// Content-Type, a vendor error code or a host name can neither move the cursor nor reorder what follows it.
public enum Printable {
    /// `text` with control and format characters escaped (`\u{1B}`), nothing else changed.
    public static func escaped(_ text: some StringProtocol) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) { out += scalar.escaped(asASCII: true) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// `text` escaped and in single quotes, so an error line stays one line and shows where the value ends.
    public static func quoted(_ text: some StringProtocol) -> String { "'" + escaped(text) + "'" }

    /// At most `limit` characters of `text`, escaped; `...` marks a cut.
    public static func excerpt(_ text: some StringProtocol, limit: Int) -> String {
        let (kept, isCut) = prefix(text, limit)
        return escaped(kept) + (isCut ? "..." : "")
    }

    /// ``excerpt(_:limit:)`` in single quotes, `...` after the closing quote marking a cut.
    public static func quotedExcerpt(_ text: some StringProtocol, limit: Int) -> String {
        let (kept, isCut) = prefix(text, limit)
        return quoted(kept) + (isCut ? "..." : "")
    }

    /// The first `limit` scalars of `text`, and whether anything was cut.
    private static func prefix(_ text: some StringProtocol, _ limit: Int) -> (String, Bool) {
        let scalars = text.unicodeScalars
        guard scalars.count > limit else { return (String(text), false) }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars.prefix(limit))
        return (String(kept), true)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: true
        default: false
        }
    }
}
