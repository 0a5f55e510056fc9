@testable import HTTPDNS
import Testing

@Suite struct PrintableTests {
    @Test(arguments: [
        ("a\u{1B}[31mb", #"a\u{1B}[31mb"#),          // C0: ESC would start a terminal sequence
        ("a\nb\r\t\0", #"a\nb\r\t\0"#),                // C0 with short escapes
        ("\u{07}\u{08}", #"\u{07}\u{08}"#),           // BEL, BS
        ("del\u{7F}", #"del\u{7F}"#),                  // DEL
        ("c1\u{85}\u{9B}2J", #"c1\u{0085}\u{009B}2J"#), // C1: NEL and the single-byte CSI
        ("abc\u{202E}gpj.exe", #"abc\u{202E}gpj.exe"#), // RIGHT-TO-LEFT OVERRIDE
        ("\u{2066}x\u{2069}", #"\u{2066}x\u{2069}"#), // bidi isolates
        ("zero\u{200B}width\u{200D}", #"zero\u{200B}width\u{200D}"#),
        ("line\u{2028}sep", #"line\u{2028}sep"#),
    ])
    func controlAndFormatCharactersAreEscaped(_ text: String, _ shown: String) {
        #expect(Printable.escaped(text) == shown)
        #expect(Printable.quoted(text) == "'" + shown + "'")
        #expect(!Printable.escaped(text).unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format })
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
        #expect(Printable.excerpt("\u{1B}[2Jabc", limit: 3) == #"\u{1B}[2..."#)
        #expect(Printable.excerpt("x\u{202E}y", limit: 2) == #"x\u{202E}..."#)
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
