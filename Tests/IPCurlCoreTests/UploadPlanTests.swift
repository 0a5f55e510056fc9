import CurlKit
import Foundation
@testable import IPCurlCore
import Testing

/// `-T` as curl 7.88 plans it: the file name a directory URL gets, a globbed file name with a globbed URL, streams
/// that are not regular files, a `-F` list of files, and the replay reader of a FIFO.
@Suite struct UploadPlanTests {
    @Test func theFileNameGoesBeforeTheQueryWhenThePathNamesNoFile() throws {
        let appended = [
            ("https://a.test/up/", "dir/x.txt", "https://a.test/up/x.txt"),
            ("https://a.test", "x.txt", "https://a.test/x.txt"),
            ("https://a.test?q=1", "x.txt", "https://a.test/x.txt?q=1"),
            ("https://a.test/up/?q=1#frag", "x.txt", "https://a.test/up/x.txt?q=1#frag"),
            ("https://a.test/up/", "a b+c.txt", "https://a.test/up/a%20b%2bc.txt"),  // libcurl lower-cases %2B in a path
            ("https://a.test/up/", "C:\\dir\\w.txt", "https://a.test/up/w.txt"),
            ("a.test:8080/", "x.txt", "http://a.test:8080/x.txt"),
        ]
        for (url, file, target) in appended { #expect(try CurlURL.uploadTarget(url, file: file) == target, "\(url)") }
        for url in ["https://a.test/named", "https://a.test/named?q=/", "https://a.test/dir/named#x/"] {
            #expect(try CurlURL.uploadTarget(url, file: "x.txt") == url)
        }
        #expect(throws: CurlError.malformedURL) { try CurlURL.uploadTarget("https://a b/", file: "x.txt") }
    }

    @Test func aGlobbedUploadRunsEveryURLForEachFileInTurn() throws {
        let job = FetchJob(operations: [FetchJob.Operation(diagnostics: Diagnostics(program: "test"), session: .failure(.usage("")))])
        let slots = [URLSlot(url: "https://h/[1-2]/", output: nil, remoteName: false, operation: 0, globoff: false, upload: "{a,b}.txt"),
                     URLSlot(url: "https://h/{x}", output: nil, remoteName: false, operation: 0, globoff: false),
                     URLSlot(url: "https://h/[1]/", output: nil, remoteName: false, operation: 0, globoff: true, upload: "{a}")]
        let planned = Array(try job.plan(slots).get())
        #expect(planned.map(\.url) == ["https://h/1/", "https://h/2/", "https://h/1/", "https://h/2/", "https://h/x", "https://h/[1]/"])
        #expect(planned.map(\.upload) == ["a.txt", "a.txt", "b.txt", "b.txt", nil, "{a}"])
        #expect(planned.map(\.urlNumber) == [0, 0, 0, 0, 1, 2])
    }

    @Test func streamsThatAreNotRegularFilesAreChunkedUploads() throws {
        #expect(try RequestPayload.upload(".") == .uploadStream(.standardInputNonBlocking))
        #expect(try RequestPayload.uploadTarget(".", url: "https://a.test/") == "https://a.test/")
        let payload = try RequestPayload.upload("/dev/stdin")
        #expect(payload == .uploadStream(.file(path: "/dev/stdin")))
        #expect(try RequestPayload.uploadTarget("/dev/stdin", url: "https://a.test/up/") == "https://a.test/up/stdin")
        #expect(payload.inferredMethod == "PUT")
    }

    @Test func aFormListOfFilesIsOnePartWithAPartPerFile() throws {
        let directory = NSTemporaryDirectory() + "/ipcurl-list-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in ["a.txt", "b,c.txt"] { try Data("x".utf8).write(to: URL(fileURLWithPath: directory + "/" + name)) }
        let part = try FormPart(parsing: "f=@\(directory)/a.txt;type=text/a, \"\(directory)/b,c.txt\";filename=n")
        guard case .files(let files) = part.content else { Issue.record("not a list: \(part.content)"); return }
        #expect(part.name == "f" && part.type == nil && files.count == 2)
        #expect(files[0].content == .file(path: directory + "/a.txt") && files[0].type == "text/a")
        #expect(files[1].content == .file(path: directory + "/b,c.txt") && files[1].filename == "n" && files[1].type == nil)
        #expect(throws: CurlError.readError) { try FormPart(parsing: "f=@\(directory)/a.txt,\(directory)/missing") }
        #expect(try FormPart(parsing: "f=@\(directory)/a.txt;type=text/a").content == .file(path: directory + "/a.txt"))
        #expect(try FormPart(parsing: "k=a,b").content == .text("a,b"), "only a file list splits at commas")
    }

    @Test func aFIFOIsOpenedAtTheFirstReadAndReplayed() throws {
        let path = NSTemporaryDirectory() + "/ipcurl-fifo-\(UInt32.random(in: 0...UInt32.max))"
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let writer = Thread {
            let descriptor = open(path, O_WRONLY)
            _ = "through a fifo".withCString { write(descriptor, $0, strlen($0)) }
            close(descriptor)
        }
        writer.start()
        let replay = StreamReplay(path: path)
        var out: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 5)
        let reader = try replay.reader()
        while case let count = try buffer.withUnsafeMutableBytes({ try reader.read(into: $0) }), count > 0 { out += buffer[0..<count] }
        #expect(String(decoding: out, as: UTF8.self) == "through a fifo")
        #expect(reader.rewind())
        let again = try replay.reader()
        var second: [UInt8] = []
        while case let count = try buffer.withUnsafeMutableBytes({ try again.read(into: $0) }), count > 0 { second += buffer[0..<count] }
        #expect(second == out)
    }

    @Test func aNonBlockingReadWithNothingWaitingAsksToPause() throws {
        var pipes: [Int32] = [0, 0]
        #expect(pipe(&pipes) == 0)
        defer { close(pipes[0]); close(pipes[1]) }
        let flags = fcntl(pipes[0], F_GETFL)
        do {
            let replay = StreamReplay(descriptor: pipes[0], nonBlocking: true)
            var buffer = [UInt8](repeating: 0, count: 8)
            let reader = try replay.reader()
            #expect(throws: RequestBodyWouldBlock.self) { try buffer.withUnsafeMutableBytes { try reader.read(into: $0) } }
            _ = "ab".withCString { write(pipes[1], $0, 2) }
            #expect(try buffer.withUnsafeMutableBytes { try reader.read(into: $0) } == 2)
        }
        #expect(fcntl(pipes[0], F_GETFL) == flags, "the descriptor's flags are restored")
    }
}
