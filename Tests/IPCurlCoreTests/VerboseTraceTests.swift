import CurlKit
import IPCurlCore
import Testing

@Suite struct VerboseTraceTests {
    private func render(_ kind: TraceKind, _ text: String) -> String {
        Array(text.utf8).withUnsafeBytes { VerboseTrace.render(kind, $0) }
    }

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
}
