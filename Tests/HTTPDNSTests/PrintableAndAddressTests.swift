@testable import HTTPDNS
import Testing

/// ``Printable``, the one escaping of text for a terminal line: C0 and C1 controls, DEL, invisible formatting
/// characters and bytes that are not UTF-8 become `\xNN`, one per byte; everything else is kept.
@Suite struct PrintableTests {
    /// The oracle: `\xNN` for each byte, lowercase hex.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { "\\x" + ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    @Test func everyC0ControlAndDELIsWrittenAsHex() {
        for byte in Array(UInt8(0)...0x1F) + [0x7F] {
            let text = "a" + String(Unicode.Scalar(byte)) + "b"
            #expect(Printable.escaped(text) == "a" + Self.hex([byte]) + "b", "byte \(byte)")
            #expect(Printable.quoted(text) == "'a" + Self.hex([byte]) + "b'")
        }
    }

    @Test func everyC1ControlIsWrittenAsItsUTF8Bytes() {
        for value in UInt32(0x80)...0x9F {
            let text = String(Unicode.Scalar(value)!)
            #expect(Printable.escaped("x" + text) == "x" + Self.hex(Array(text.utf8)), "U+\(String(value, radix: 16))")
        }
    }

    @Test(arguments: [
        ("\u{1B}[31mred\u{1B}[0m", #"\x1b[31mred\x1b[0m"#),                     // CSI colour
        ("\u{1B}]0;PWNED\u{07}title", #"\x1b]0;PWNED\x07title"#),               // OSC window title, BEL-terminated
        ("\u{1B}]8;;https://evil.test/\u{1B}\\click\u{1B}]8;;\u{1B}\\",          // OSC 8 hyperlink, ST-terminated
         #"\x1b]8;;https://evil.test/\x1b\click\x1b]8;;\x1b\"#),
        ("\u{9B}2J", #"\xc2\x9b2J"#),                                           // the single-character CSI
        ("abc\u{202E}gpj.exe", #"abc\xe2\x80\xaegpj.exe"#),                      // RIGHT-TO-LEFT OVERRIDE
        ("\u{2066}x\u{2069}", #"\xe2\x81\xa6x\xe2\x81\xa9"#),                   // bidi isolates
        ("zero\u{200B}width", #"zero\xe2\x80\x8bwidth"#),
        ("line\u{2028}sep", #"line\xe2\x80\xa8sep"#),
    ])
    func escapeSequencesAndFormatCharactersAreDefused(_ text: String, _ shown: String) {
        #expect(Printable.escaped(text) == shown)
        #expect(!Printable.escaped(text).unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test func printableTextIsUnchanged() {
        for text in ["a.test", "Ünïcödé 名前", "quote ' and \\ backslash", "emoji 🙂", ""] {
            #expect(Printable.escaped(text) == text)
        }
        #expect(Printable.quoted("a b") == "'a b'")
    }

    @Test func excerptsAreCutAndEscaped() {
        #expect(Printable.excerpt("abcdef", limit: 6) == "abcdef")
        #expect(Printable.excerpt("abcdef", limit: 3) == "abc...")
        #expect(Printable.excerpt("\u{1B}[2Jabc", limit: 3) == #"\x1b[2..."#)
        #expect(Printable.excerpt("x\u{202E}y", limit: 2) == #"x\xe2\x80\xae..."#)
    }
}

@Suite struct UsableAddressTests {
    @Test(arguments: ["0.0.0.0", "0.1.2.3", "0.255.255.255", "224.0.0.1", "239.255.255.250", "239.1.2.3", "255.255.255.255",
                      "::", "ff02::1", "ff0e::1", "ff00::"])
    func unusable(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(!address.isUsable())
        #expect(!address.isUsable(v6Only: true))
    }

    @Test(arguments: ["1.2.3.4", "127.0.0.1", "10.0.0.1", "1.0.0.0", "223.255.255.255", "::1", "2001:db8::1",
                      "fc00::1", "::2"])
    func usable(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.isUsable())
        #expect(address.isUsable(v6Only: true))
    }

    @Test func anIPv4MappedAddressIsUnusableOnlyWhenOnlyIPv6IsWanted() throws {
        let mapped = try #require(IPAddress("::ffff:1.2.3.4"))
        #expect(mapped.family == .v6)
        #expect(mapped.isUsable())
        #expect(!mapped.isUsable(v6Only: true))
        let compatible = try #require(IPAddress("::1.2.3.4"))  // deprecated IPv4-compatible, not mapped
        #expect(compatible.isUsable(v6Only: true))
    }
}
