import CurlKit
@testable import IPCurlCore
import Testing

/// Every dump (`-v`, `--trace`, `--trace-ascii`) redacts the values of `Authorization`, `Proxy-Authorization` and
/// `Cookie` in every shape libcurl prints them: HTTP/1 header lines (blanks before the name or the colon, any letter
/// case) and the lines that continue their values, HTTP/2's `h2h3 [name: value]` info lines; and the user info of a
/// proxy libcurl took from the environment.
@Suite struct DumpRedactionTests {
    static let secret = "S3CRET"

    /// Lines carrying the secret in every shape, each as libcurl hands it over (kind and text).
    static let shapes: [(TraceKind, String)] = [
        (.headerOut, "Authorization: Bearer S3CRET\r\n"),
        (.headerOut, "authorization: Bearer S3CRET\r\n"),
        (.headerOut, "AUTHORIZATION : Bearer S3CRET\r\n"),
        (.headerOut, "Authorization\t: Bearer S3CRET\r\n"),
        (.headerOut, "Proxy-Authorization: Basic S3CRET\r\n"),
        (.headerOut, "proxy-authorization  :Basic S3CRET\r\n"),
        (.headerOut, "Cookie: a=S3CRET; b=2\r\n"),
        (.headerOut, "cookie:S3CRET\r\n"),
        (.headerOut, "GET / HTTP/1.1\r\nHost: a.test\r\nCookie: S3CRET\r\nAuthorization: S3CRET\r\n\r\n"),
        (.headerOut, "  Authorization: Bearer S3CRET\r\n"),
        (.headerOut, "Authorization: Bearer\r\n\tS3CRET\r\n"),
        (.headerOut, "X-A: 1\r\nCookie: a=1;\r\n b=S3CRET\r\n\r\n"),
        (.headerIn, "Authorization: Basic\r\n  \t S3CRET\r\n"),
        (.headerIn, "Set-Cookie: session=S3CRET; Path=/; HttpOnly\r\n"),
        (.headerIn, "set-cookie : S3CRET\r\n"),
        (.text, "h2h3 [set-cookie: session=S3CRET]\n"),
        (.text, "h2h3 [authorization: Bearer S3CRET]\n"),
        (.text, "h2h3 [Authorization : Bearer S3CRET]\n"),
        (.text, "h2h3 [proxy-authorization: Basic S3CRET]\n"),
        (.text, "h2h3 [cookie: a=]S3CRET]\n"),
        (.text, "h2h3 [cookie: a=b; c=S3CRET]\n"),
        (.text, "Uses proxy env variable https_proxy == 'http://user:S3CRET@proxy.test:3128'\n"),
        (.text, "Uses proxy env variable all_proxy == 'http:/user:ab/S3CRET@proxy.test:3128'\n"),
    ]

    private func bytes(_ text: String, _ body: (UnsafeRawBufferPointer) -> String) -> String {
        Array(text.utf8).withUnsafeBytes(body)
    }

    @Test func noShapeReachesAnyDump() {
        let dumps = [TraceOutput(descriptor: -1, asciiOnly: false, stamped: false),
                     TraceOutput(descriptor: -1, asciiOnly: true, stamped: false)]
        for (kind, text) in Self.shapes {
            let verbose = bytes(text) { VerboseTrace.render(kind, $0) }
            #expect(!verbose.contains(Self.secret) && verbose.contains("[redacted]"), "-v: \(verbose)")
            for dump in dumps {
                let rendered = bytes(text) { dump.render(kind, $0) }
                // The hex column spells the bytes out: read them back so a secret split across rows is found too.
                let shown = rendered + String(decoding: Self.hexBytes(rendered), as: UTF8.self)
                #expect(!shown.contains(Self.secret) && shown.contains("[redacted]"), "\(dump.asciiOnly ? "--trace-ascii" : "--trace"): \(rendered)")
            }
        }
    }

    @Test func theNameAndTheLineEndingsStay() {
        #expect(bytes("h2h3 [Authorization : Bearer S3CRET]\n") { VerboseTrace.render(.text, $0) } == "* h2h3 [Authorization : [redacted]]\n")
        #expect(bytes("AUTHORIZATION : Bearer S3CRET\r\n") { VerboseTrace.render(.headerOut, $0) } == "> AUTHORIZATION : [redacted]\n")
        #expect(bytes("Authorization: a\r\n\tS3CRET\r\nX: keep\r\n\tkeep\r\n") { VerboseTrace.render(.headerOut, $0) }
            == "> Authorization: [redacted]\n>  [redacted]\n> X: keep\n> \\x09keep\n")
        #expect(bytes("Uses proxy env variable http_proxy == 'http://u:S3CRET@proxy.test:3128'\n") { VerboseTrace.render(.text, $0) }
            == "* Uses proxy env variable http_proxy == 'http://[redacted]@proxy.test:3128'\n")
        let ascii = TraceOutput(descriptor: -1, asciiOnly: true, stamped: false)
        #expect(bytes("h2h3 [cookie: a=b]\n") { ascii.render(.text, $0) } == "== Info: h2h3 [cookie: [redacted]]\n")
        #expect(bytes("Cookie : a=b\r\nX-Cookie: keep\r\n") { ascii.render(.headerOut, $0) }
            == "=> Send header, 37 bytes (0x25)\n0000: Cookie : [redacted]\n0015: X-Cookie: keep\n")
    }

    /// A line, or a value folded over several lines, that spans trace callbacks is redacted whole, in every dump:
    /// a request header block cut at every byte (libcurl dumps a partly sent block in pieces), and response header
    /// lines one per callback, as libcurl hands them over.
    @Test func aValueSpanningCallbacksIsRedactedWhole() {
        let renderers: [(String, (TraceKind, UnsafeRawBufferPointer, CredentialRedaction.Stream) -> String)] = [
            ("-v", { VerboseTrace.render($0, $1, redaction: $2) }),
            ("--trace", { TraceOutput(descriptor: -1, asciiOnly: false, stamped: false).render($0, $1, redaction: $2) }),
            ("--trace-ascii", { TraceOutput(descriptor: -1, asciiOnly: true, stamped: false).render($0, $1, redaction: $2) }),
        ]
        let secret = "Q9Z8W7"
        // Any two bytes of the secret in a row, in the text or the hex columns read back, is a leak.
        func shown(_ rendered: String) -> String { rendered + String(decoding: Self.hexBytes(rendered), as: UTF8.self) }
        func leaks(_ rendered: String) -> Bool { zip(secret, secret.dropFirst()).contains { shown(rendered).contains("\($0)\($1)") } }
        let text = "GET / HTTP/1.1\r\nAuthorization: Bearer Q9Z8W7\r\nCookie: a=1;\r\n\tb=Q9Z8W7\r\nX-Keep: keep\r\n\r\n"
        let block = Array(text.utf8), kept = Array(text.utf8).count - "X-Keep: keep\r\n\r\n".utf8.count
        let responses = ["HTTP/1.1 200 OK\r\n", "Authorization: Basic\r\n", " Q9Z8W7\r\n", "\tQ9Z8W7\r\n", "X-Keep: keep\r\n"]
        for (name, render) in renderers {
            for cut in 0...block.count {
                let stream = CredentialRedaction.Stream()
                let rendered = block[..<cut].withUnsafeBytes { render(.headerOut, $0, stream) }
                    + block[cut...].withUnsafeBytes { render(.headerOut, $0, stream) }
                #expect(!leaks(rendered) && shown(rendered).contains("[redacted]"), "\(name), cut at \(cut): \(rendered)")
                // A cut inside the line shows it on two lines, as libcurl's pieces; elsewhere it is whole.
                #expect(cut > kept && cut < kept + 12 || shown(rendered).contains("X-Keep: keep"), "\(name), cut at \(cut): \(rendered)")
            }
            let stream = CredentialRedaction.Stream()
            let rendered = responses.map { line in Array(line.utf8).withUnsafeBytes { render(.headerIn, $0, stream) } }.joined()
            #expect(!leaks(rendered) && shown(rendered).contains("X-Keep: keep"), "\(name): \(rendered)")
        }
    }

    @Test func otherHeadersAreLeftAlone() {
        for line in ["X-Cookie: keep\r\n", "X-Authorization-Hint: keep\r\n", "Set-Cookie-Policy: keep\r\n", "h2h3 [x-cookie: keep]\n",
                     "h2h3 [:path: /cookie: keep]\n"] {
            #expect(bytes(line) { VerboseTrace.render(.headerOut, $0) }.contains("keep"), "\(line)")
        }
    }

    /// The bytes of a `--trace` dump's hex columns, in order.
    static func hexBytes(_ dump: String) -> [UInt8] {
        dump.split(separator: "\n").flatMap { line -> [UInt8] in
            guard line.count > 6, line.dropFirst(4).hasPrefix(": ") else { return [] }
            return line.dropFirst(6).split(separator: " ", omittingEmptySubsequences: false).prefix(16)
                .compactMap { $0.count == 2 ? UInt8($0, radix: 16) : nil }
        }
    }
}
