import Foundation
import Testing

/// Text a server chose reaches stderr (messages and `-v`) only through one escaping: C0 and C1 controls, DEL and
/// bytes that are not UTF-8 as `\xNN`. Stdout and `-D` are data and keep every byte, as curl's.
@Suite struct TerminalSafetyTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    /// Every C0 control but CR and LF (which end a header line) and NUL (which libcurl refuses in a header),
    /// DEL, every C1 control as UTF-8, bytes that are not UTF-8, a CSI colour, an OSC title, an OSC 8 link.
    static let hostileBytes: [UInt8] = {
        let controls: [UInt8] = Array(UInt8(1)...0x1F).filter { $0 != 0x0A && $0 != 0x0D } + [0x7F]
        let c1: [UInt8] = (UInt32(0x80)...0x9F).flatMap { Array(String(Unicode.Scalar($0)!).utf8) }
        let invalid: [UInt8] = [0x80, 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80, 0xFF, 0xE2, 0x82, 0x20]
        let sequences = Array("\u{1B}[31mred \u{1B}]0;PWNED\u{07} \u{1B}]8;;https://evil.test/\u{1B}\\link\u{1B}]8;;\u{1B}\\ é".utf8)
        return controls + c1 + invalid + sequences
    }()

    /// No byte below 0x20 but the line feed, no DEL, no C1 control, and valid UTF-8.
    static func isTerminalSafe(_ bytes: Data) -> Bool {
        guard let text = String(validating: bytes, as: UTF8.self) else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "\n" || !($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }
    }

    /// A `Location` libcurl cannot parse (it has no scheme, and controls in its path) ends as `curl -L` ends on it:
    /// exit 3 and libcurl's reason, one line, nothing of the server's text raw on stderr; the chain counts the hop and
    /// keeps its URL, as curl's `-w` shows.
    @Test(arguments: ["\u{1B}]0;PWNED\u{07}\u{1B}[31mevil:x", "/a\u{01}b"])
    func aRedirectToTerminalSequencesIsOneEscapedErrorLine(location: String) throws {
        let server = try ScriptedResponder(response: Array("HTTP/1.1 302 Found\r\nLocation: ".utf8) + Array(location.utf8)
                                                        + Array("\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
        let format = "%{num_redirects} %{url_effective} %{redirect_url}"
        let result = try oracle.ours(["-sS", "-L", "-w", format, server.url()])
        let curls = try run("/usr/bin/curl", ["-sS", "-L", "-w", format, server.url()], environment: CurlOracle.environment())
        #expect(result.status == 3 && curls.status == 3, "ipcurl \(result.status) \(result.stderr), curl \(curls.status) \(curls.stderr)")
        #expect(Self.isTerminalSafe(Data(result.stderr.utf8)), "\(result.stderr.debugDescription)")
        #expect(result.stderr == "ipcurl: (3) The redirect target URL could not be parsed: Bad path\n", "\(result.stderr)")
        #expect(result.stderr.dropFirst("ipcurl".count) == curls.stderr.dropFirst("curl".count), "curl: \(curls.stderr)")
        #expect(result.stdout == curls.stdout && result.stdout == "1 \(server.url()) ", "\(result.stdout.debugDescription)")
    }

    @Test func verboseShowsHostileHeaderBytesAsHexWhileStdoutAndDumpHeaderKeepThem() throws {
        let head = Array("HTTP/1.1 200 OK\r\nX-Evil: ".utf8) + Self.hostileBytes
            + Array("\r\nContent-Type: text/plain\r\nContent-Length: \(Self.hostileBytes.count)\r\nConnection: close\r\n\r\n".utf8)
        let server = try ScriptedResponder(response: head + Self.hostileBytes)
        let scratch = try TemporaryDirectory()
        // --stderr keeps stderr's bytes as written: a lossy decoding would hide the bytes that are not UTF-8.
        let result = try oracle.ours(["-sS", "-v", "--stderr", scratch.path + "/stderr", "-D", scratch.path + "/headers", server.url()])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutBytes == Data(Self.hostileBytes), "stdout is the body, byte for byte")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/headers")) == Data(head), "-D holds the header block as received")
        let stderr = try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/stderr"))
        let text = String(decoding: stderr, as: UTF8.self)
        #expect(Self.isTerminalSafe(stderr), "\(text.debugDescription)")
        #expect(text.contains("< HTTP/1.1 200 OK\n"), "\(text)")
        let line = text.split(separator: "\n").first { $0.hasPrefix("< X-Evil: ") }.map(String.init) ?? ""
        #expect(line.hasPrefix("< X-Evil: \\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08\\x09\\x0b\\x0c\\x0e"), "\(line)")
        #expect(line.contains("\\x1f\\x7f\\xc2\\x80\\xc2\\x81"), "\(line)")
        #expect(line.contains("\\xc2\\x9f\\x80\\xc0\\xaf\\xed\\xa0\\x80\\xf4\\x90\\x80\\x80\\xff\\xe2\\x82 "), "\(line)")
        #expect(line.hasSuffix("\\x1b[31mred \\x1b]0;PWNED\\x07 \\x1b]8;;https://evil.test/\\x1b\\link\\x1b]8;;\\x1b\\ é"), "\(line)")
    }

    @Test func stdoutAndDumpHeaderAreTheBytesCurlWrites() throws {
        let head = Array("HTTP/1.1 200 OK\r\nX-Evil: ".utf8) + Self.hostileBytes
            + Array("\r\nContent-Length: \(Self.hostileBytes.count)\r\nConnection: close\r\n\r\n".utf8)
        let server = try ScriptedResponder(response: head + Self.hostileBytes)
        let scratch = try TemporaryDirectory()
        let ours = try oracle.ours(["-sS", "-D", scratch.path + "/ours", server.url()])
        let curls = try run("/usr/bin/curl", ["-sS", "-D", scratch.path + "/curls", server.url()], environment: CurlOracle.environment())
        #expect(ours.status == 0 && curls.status == 0, "\(ours.stderr)\(curls.stderr)")
        #expect(ours.stdoutBytes == curls.stdoutBytes && ours.stdoutBytes == Data(Self.hostileBytes))
        let mine = try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/ours"))
        #expect(mine == (try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/curls"))) && mine == Data(head))
    }
}
