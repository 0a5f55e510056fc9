import CurlKit
import IPCurlCore
import Testing

@Suite struct VerboseTraceTests {
    private func render(_ kind: TraceKind, _ text: String) -> String {
        Array(text.utf8).withUnsafeBytes { VerboseTrace.render(kind, $0) }
    }

    private func render(_ kind: TraceKind, bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { VerboseTrace.render(kind, $0) }
    }

    /// `\xNN` for each byte, lowercase hex.
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { "\\x" + ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }

    @Test func prefixesEveryLineLikeCurl() {
        #expect(render(.headerOut, "GET / HTTP/1.1\r\nHost: a.test\r\n\r\n") == "> GET / HTTP/1.1\n> Host: a.test\n> \n")
        #expect(render(.headerIn, "HTTP/1.1 200 OK\r\n") == "< HTTP/1.1 200 OK\n")
        #expect(render(.text, "Connected\n") == "* Connected\n")
    }

    @Test func redactsCredentialHeadersInEveryForm() {
        let out = render(.headerOut, "GET / HTTP/1.1\r\nAUTHORIZATION: Basic dXNlcjpwYXNz\r\nproxy-authorization: x\r\nCookie: a=b\r\nX-Cookie: keep\r\n")
        #expect(out == "> GET / HTTP/1.1\n> AUTHORIZATION: [redacted]\n> proxy-authorization: [redacted]\n> Cookie: [redacted]\n> X-Cookie: keep\n")
        #expect(render(.text, "h2h3 [authorization: Bearer abc]\n") == "* h2h3 [authorization: [redacted]]\n")
        #expect(render(.text, "h2h3 [cookie: a=b]\n") == "* h2h3 [cookie: [redacted]]\n")
    }

    /// Every C0 control but the line feed (which ends the line), DEL, every C1 control as UTF-8, and bytes that
    /// are not UTF-8 (a lone continuation byte, overlong forms, a surrogate, a code point past U+10FFFF, a cut
    /// sequence) reach the terminal as `\xNN`; UTF-8 text is kept.
    @Test func responseHeaderLinesShowEveryControlAndInvalidByteAsHex() {
        var cases: [([UInt8], String)] = (Array(UInt8(0)...0x1F) + [0x7F]).filter { $0 != 0x0A }.map { ([$0], hex([$0])) }
        cases += (UInt32(0x80)...0x9F).map { value in
            let bytes = Array(String(Unicode.Scalar(value)!).utf8)
            return (bytes, hex(bytes))
        }
        let invalid: [[UInt8]] = [[0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF],
                                  [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE], [0xFF],
                                  [0xE2, 0x82], [0xF0, 0x9F, 0x99]]
        cases += invalid.map { ($0, hex($0)) }
        cases += [(Array("é 名前 🙂".utf8), "é 名前 🙂")]
        for (bytes, shown) in cases {
            let line = Array("X-Evil: <".utf8) + bytes + Array(">\r\n".utf8)
            #expect(render(.headerIn, bytes: line) == "< X-Evil: <" + shown + ">\n", "\(bytes)")
        }
        // A cut sequence at the very end of the block, with no line ending after it.
        #expect(render(.headerIn, bytes: Array("X: a".utf8) + [0xE2, 0x82]) == "< X: a\\xe2\\x82\n")
    }

    @Test func terminalSequencesInAnyTraceLineAreDefused() {
        let location = "Location: \u{1B}]0;PWNED\u{07}\u{1B}[31mevil:x\r\n"
        #expect(render(.headerIn, location) == "< Location: \\x1b]0;PWNED\\x07\\x1b[31mevil:x\n")
        #expect(render(.headerIn, "Link: \u{1B}]8;;https://evil.test/\u{1B}\\click\u{1B}]8;;\u{1B}\\\r\n")
            == "< Link: \\x1b]8;;https://evil.test/\\x1b\\click\\x1b]8;;\\x1b\\\n")
        #expect(render(.text, "Server certificate: CN=\u{1B}[2J\n") == "* Server certificate: CN=\\x1b[2J\n")
        #expect(render(.headerOut, "GET /\u{1B}[31m HTTP/1.1\r\n") == "> GET /\\x1b[31m HTTP/1.1\n")
    }

    /// TAB is a control character like the others: a header value's TAB is shown as `\x09`, so what the terminal
    /// shows is exactly what was received (a TAB and blanks look alike).
    @Test func aTabInAHeaderLineIsShownAsHex() {
        #expect(render(.headerIn, "Server:\tnginx\r\n") == "< Server:\\x09nginx\n")
    }
}
