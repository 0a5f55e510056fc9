import CurlKit
import Foundation
@testable import IPCurlCore
import Testing

/// The `-d` family, `-F` parsing and the streaming body readers.
@Suite struct RequestBodyTests {
    private func drain(_ body: RequestBody, chunk: Int = 7) throws -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try body.read(into: $0) }
            if count == 0 { return out }
            out += buffer[0..<count]
        }
    }

    private func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "/ipcurl-body-\(UInt32.random(in: 0...UInt32.max))"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func dataKindsFollowCurlsRules() throws {
        let path = try file("a\r\nb\nc")
        defer { unlink(path) }
        let segments = try DataArgument.body([
            DataArgument(.ascii, "@" + path), DataArgument(.raw, "@" + path), DataArgument(.urlencode, "q=a b&c/é"),
            DataArgument(.urlencode, "=x y"), DataArgument(.urlencode, "plain text"), DataArgument(.urlencode, "f@" + path),
        ])
        let text = String(decoding: try drain(SegmentedBody(segments)), as: UTF8.self)
        #expect(text == "abc&@\(path)&q=a+b%26c%2F%C3%A9&x+y&plain+text&f=a%0D%0Ab%0Ac")  // curl 7.88: a space is +
    }

    @Test func binaryFilesStreamAsSegmentsAndRewind() throws {
        let path = try file("line1\nline2\n")
        defer { unlink(path) }
        let segments = try DataArgument.body([DataArgument(.ascii, "x=1"), DataArgument(.binary, "@" + path)])
        #expect(segments == [.bytes(Array("x=1&".utf8)), .file(path: path, size: 12)])
        let body = SegmentedBody(segments)
        #expect(body.length == 16)
        let first = try drain(body, chunk: 5)
        #expect(String(decoding: first, as: UTF8.self) == "x=1&line1\nline2\n")
        #expect(body.rewind())
        #expect(try drain(body, chunk: 64) == first)
    }

    @Test func missingFilesAreExit26() {
        #expect(throws: CurlError.readError) { try DataArgument.body([DataArgument(.ascii, "@/nonexistent/x")]) }
        #expect(throws: CurlError.readError) { try DataArgument.body([DataArgument(.urlencode, "n@/nonexistent/x")]) }
        #expect(throws: CurlError.readError) { try RequestPayload.upload("/nonexistent/x") }
        #expect(throws: CurlError.readError) { try FormPart(parsing: "f=@/nonexistent/x") }
    }

    @Test func getQueryJoinsEverything() throws {
        #expect(try DataArgument.query([DataArgument(.ascii, "a=1"), DataArgument(.urlencode, "b=x y")]) == "a=1&b=x+y")
    }

    @Test func formPartsParseCurlsSyntax() throws {
        let path = try file("content")
        defer { unlink(path) }
        let upload = try FormPart(parsing: "doc=@\(path);type=text/x;filename=n.txt")
        #expect(upload.name == "doc" && upload.content == .file(path: path) && upload.type == "text/x" && upload.filename == "n.txt")
        let contents = try FormPart(parsing: "field=<\(path)")
        #expect(contents.content == .fileContents(path: path))
        let text = try FormPart(parsing: "k=v;type=text/plain")
        #expect(text.content == .text("v") && text.type == "text/plain")
        #expect(throws: CurlError.usage("")) { try FormPart(parsing: "novalue") }
        #expect(throws: CurlError.usage("")) { try FormPart(parsing: "=x") }
        #expect(throws: CurlError.usage("")) { try FormPart(parsing: "f=@\(path);bogus=1") }
    }

    @Test func uploadAppendsTheFileNameToADirectoryURL() throws {
        let path = try file("x")
        defer { unlink(path) }
        let name = String(path.split(separator: "/").last!)
        #expect(try RequestPayload.uploadTarget(path, url: "https://a.test/up/") == "https://a.test/up/" + name)
        #expect(try RequestPayload.uploadTarget(path, url: "https://a.test") == "https://a.test/" + name)
        #expect(try RequestPayload.uploadTarget(path, url: "https://a.test/named") == "https://a.test/named")
        #expect(try RequestPayload.uploadTarget("/nonexistent/x", url: "https://a.test/up/") == "https://a.test/up/x",
                "a file that cannot be opened still names the URL curl reports")
        #expect(try RequestPayload.uploadTarget("-", url: "https://a.test/") == "https://a.test/")
        #expect(try RequestPayload.upload("-") == .uploadStream(.standardInput))
    }

    @Test func stdinIsReplayedWithinTheBoundOnly() throws {
        var pipes: [Int32] = [0, 0]
        #expect(pipe(&pipes) == 0)
        let payload = Array("streamed body".utf8)
        _ = payload.withUnsafeBytes { write(pipes[1], $0.baseAddress, $0.count) }
        close(pipes[1])
        defer { close(pipes[0]) }
        let replay = StreamReplay(descriptor: pipes[0])
        let first = try replay.reader()
        #expect(first.length == nil)
        #expect(try drain(first, chunk: 4) == payload)
        #expect(try drain(try replay.reader(), chunk: 3) == payload, "a second reader starts from the first byte")
        #expect(first.rewind())
        #expect(!replay.overflowed)
    }
}
