import HTTPDNS

/// HTML escaping for text from a server or a user (header values, failure reasons, certificate subjects, labels):
/// the five markup characters become character references, so the text can never open a tag, close an attribute or
/// start an entity; controls other than tab and line feed, and Unicode noncharacters (which HTML parsers report as
/// errors), are shown as their UTF-8 bytes in `\xNN` form, the text report's spelling.
enum HTMLText {
    /// `value` safe as element content and inside a double- or single-quoted attribute.
    static func escape(_ value: String) -> String {
        MarkupText.escaped(value) { scalar in
            switch scalar {
            case "\"": "&quot;"
            case "'": "&#39;"
            case "\t", "\n": nil
            case _ where isShownAsBytes(scalar.value): Printable.escaped(bytes: String(scalar).utf8)
            default: nil
            }
        }
    }

    /// C0 controls (CR included), DEL, C1 controls and noncharacters.
    private static func isShownAsBytes(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
    }
}

/// The escaping HTML and XML share: `&`, `<` and `>` become entities, and every other scalar is written as `other`
/// spells it (`nil`: itself; `""` drops it).
enum MarkupText {
    static func escaped(_ value: String, other: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: if let spelled = other(scalar) { out += spelled } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
