import CurlKit
@testable import IPCurlCore
import Testing

/// Every dump (`-v`, `--trace`, `--trace-ascii`) redacts the values of `Authorization`, `Proxy-Authorization` and
/// `Cookie` in every shape libcurl prints them: HTTP/1 header lines, HTTP/2's `h2h3 [name: value]` info lines, any
/// letter case, blanks before the colon.
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
        (.text, "h2h3 [authorization: Bearer S3CRET]\n"),
        (.text, "h2h3 [Authorization : Bearer S3CRET]\n"),
        (.text, "h2h3 [proxy-authorization: Basic S3CRET]\n"),
        (.text, "h2h3 [cookie: a=]S3CRET]\n"),
        (.text, "h2h3 [cookie: a=b; c=S3CRET]\n"),
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
        let ascii = TraceOutput(descriptor: -1, asciiOnly: true, stamped: false)
        #expect(bytes("h2h3 [cookie: a=b]\n") { ascii.render(.text, $0) } == "== Info: h2h3 [cookie: [redacted]]\n")
        #expect(bytes("Cookie : a=b\r\nX-Cookie: keep\r\n") { ascii.render(.headerOut, $0) }
            == "=> Send header, 37 bytes (0x25)\n0000: Cookie : [redacted]\n0015: X-Cookie: keep\n")
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
