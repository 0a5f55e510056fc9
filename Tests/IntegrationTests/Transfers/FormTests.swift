import Foundation
import Testing

/// `-F` and `--form-string` in curl's syntax, compared part by part with curl 7.88.1: the lab's `/api/form`
/// parses the multipart body and reports each part's name, filename, type, headers and content digest.
@Suite struct FormTests: LabSuite {
    let fixture: LabFixture
    let files: TemporaryDirectory
    init() throws {
        fixture = try LabFixture()
        files = try TemporaryDirectory()
        try "hi\n".write(toFile: files.path + "/f1.txt", atomically: true, encoding: .utf8)
        try "spaced\n".write(toFile: files.path + "/a file.txt", atomically: true, encoding: .utf8)
        try "X-A: 1\n# a comment\nX-B: 2\n".write(toFile: files.path + "/headers", atomically: true, encoding: .utf8)
    }

    @Test(arguments: [
        "k=v", "k=\"v;x\"", "k=v;x=unknown-in-curl", "k=v;type=a/b", "k=v; type=a/b", "k=;type=a/b", "k=\"a\\\"b\\\\c\"",
        "k=\"q\"x", "k=v;type=text/plain;charset=utf-8", "k=v;headers=X-C: 3;type=a/b", "k=v;encoder=base64",
        "f=@DIR/f1.txt", "f=@\"DIR/a file.txt\"", "f=@DIR/f1.txt;type=text/html;charset=utf-8",
        "f=@DIR/f1.txt;headers=\"X-A: 1\"", "f=@DIR/f1.txt;headers=@DIR/headers", "f=@DIR/f1.txt;filename=\"x y.txt\"",
        "f=@DIR/f1.txt;type=a/b;filename=z", "f=@DIR/f1.txt;filename=z;type=a/b", "f=@DIR/f1.txt;type=\"a/b\"",
        "f=<DIR/f1.txt;type=a/b",
    ])
    func formPartsMatchCurl(part: String) throws {
        let argument = part.replacingOccurrences(of: "DIR", with: files.path)
        let url = oracle.lab.https("a.test", "/api/form")
        if part.contains("unknown-in-curl") {
            // curl warns and drops an unknown parameter; ipcurl refuses it (a listed difference).
            let ours = try oracle.ours(["-sS", "-F", argument, url])
            #expect(ours.status == 2 && ours.stderr.contains("unknown parameter"), "\(ours.stderr)")
            return
        }
        let run = try oracle.compare(["-F", argument, url])
        #expect(run.stdout.hasPrefix("{\"parts\":[{"), "\(run.stdout)")
    }

    @Test func formStringIsLiteralAndKeepsOrderWithForm() throws {
        let url = oracle.lab.https("a.test", "/api/form")
        let run = try oracle.compare(["--form-string", "k=@not-a-file;type=x", "-F", "a=1", "--form-string", "z=<y", url])
        #expect(run.stdout.contains("\"name\":\"k\"") && run.stdout.contains("\"name\":\"z\""), "\(run.stdout)")
    }

    @Test func theFormEchoListsEveryFileOfAFileList() throws {
        // A file list is one nested multipart/mixed part: /api/form lists its files, so a dropped one shows.
        try "two\n".write(toFile: files.path + "/f2.txt", atomically: true, encoding: .utf8)
        let url = oracle.lab.https("a.test", "/api/form")
        let three = try oracle.theirs(["-s", "-F", "f=@\(files.path)/f1.txt,\(files.path)/f2.txt;type=text/x,\(files.path)/a file.txt", url])
        let two = try oracle.theirs(["-s", "-F", "f=@\(files.path)/f1.txt,\(files.path)/f2.txt;type=text/x", url])
        #expect(three.status == 0 && two.status == 0)
        func listedFiles(_ run: Run) throws -> [[String: Any]] {
            let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            let part = (object?["parts"] as? [[String: Any]])?.first
            return part?["parts"] as? [[String: Any]] ?? []
        }
        let listed = try listedFiles(three)
        #expect(listed.map { $0["filename"] as? String } == ["f1.txt", "f2.txt", "a file.txt"], "\(three.stdout)")
        #expect(listed.map { $0["length"] as? Int } == [3, 4, 7])
        #expect(listed.dropFirst().first?["content_type"] as? String == "text/x")
        #expect(listed.first?["sha256"] as? String == (try sha256(ofFile: files.path + "/f1.txt")))
        #expect(try listedFiles(two).count == 2)
    }
}
