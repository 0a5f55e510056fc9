import CurlKit
import Foundation
import IPCurlCore
import Testing

/// What ``Diagnostics`` writes on stderr: every message and every `-v` line goes through one escaping, so text
/// from a server (a `Location`, a header, an HTTPDNS answer) cannot move the cursor, retitle the window or forge
/// a line.
@Suite struct DiagnosticsTests {
    /// What `write` sent to a `Diagnostics` of program `ipcurl` with `-v` on, as bytes.
    private func captured(_ write: (Diagnostics) -> Void) throws -> [UInt8] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("diagnostics-\(UUID().uuidString)")
        let descriptor = open(file.path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer { try? FileManager.default.removeItem(at: file) }
        let diagnostics = Diagnostics(program: "ipcurl", stream: DescriptorWriter(descriptor: descriptor))
            .with(showsErrors: true, showsWarnings: true, verbose: true)
        write(diagnostics)
        close(descriptor)
        return Array(try Data(contentsOf: file))
    }

    /// No byte below 0x20 but the line feed, no DEL, no C1 control, and valid UTF-8.
    private func isTerminalSafe(_ bytes: [UInt8]) -> Bool {
        guard let text = String(validating: bytes, as: UTF8.self) else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "\n" || !($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }
    }

    static let hostile = "\u{1B}]0;PWNED\u{07}\u{1B}[31mevil\r\u{9B}2J\u{0}\tx"

    @Test func anErrorBuiltFromServerTextIsOneEscapedLine() throws {
        let error = CurlError.unsupportedProtocol.with(message: "Protocol \"\(Self.hostile)\" not supported by ipcurl")
        let out = try captured { $0.error(error) }
        #expect(isTerminalSafe(out), "\(String(decoding: out, as: UTF8.self))")
        #expect(String(decoding: out, as: UTF8.self)
            == "ipcurl: (1) Protocol \"\\x1b]0;PWNED\\x07\\x1b[31mevil\\x0d\\xc2\\x9b2J\\x00\\x09x\" not supported by ipcurl\n")
    }

    @Test func warningsNotesAndTraceLinesAreEscapedToo() throws {
        let out = try captured {
            $0.warning("a.test: TLS failed at 127.0.0.2 (\(Self.hostile))")
            $0.note("removed \(Self.hostile)")
            $0.trace("* HTTPDNS a.test: \(Self.hostile)\n* second line\n")
        }
        #expect(isTerminalSafe(out), "\(String(decoding: out, as: UTF8.self))")
        let lines = String(decoding: out, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5 && lines[4].isEmpty, "one line each: \(lines)")
        #expect(lines[0].hasPrefix("ipcurl: warning: a.test: TLS failed at 127.0.0.2 (\\x1b]0;PWNED"))
        #expect(lines[3] == "* second line")
    }

    @Test func plainTextIsWrittenUnchanged() throws {
        let text = "Could not resolve host: é.test (名前) 'quoted' \\ 100%"
        #expect(try captured { $0.note(text) } == Array("ipcurl: \(text)\n".utf8))
    }
}
