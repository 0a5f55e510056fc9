import Foundation
import Testing

/// Repeated `-b` (strings joined with `;`, every file read) and `-c/--cookie-jar`, against curl 7.88.1: the same
/// Cookie header reaches the echo backend and the same jar is written, across a redirect too.
@Suite struct CookieJarTests: LabSuite {
    let fixture: LabFixture
    let files: TemporaryDirectory
    init() throws {
        fixture = try LabFixture()
        files = try TemporaryDirectory()
        try "a.test\tFALSE\t/\tFALSE\t0\tjar1\tv1\n".write(toFile: files.path + "/j1", atomically: true, encoding: .utf8)
        try "a.test\tFALSE\t/\tFALSE\t0\tjar2\tv2\n".write(toFile: files.path + "/j2", atomically: true, encoding: .utf8)
    }

    @Test(arguments: [["-b", "a=1", "-b", "b=2"], ["-b", "a=1", "-b", "DIR/j1", "-b", "DIR/j2"], ["-b", "DIR/j1", "-b", "c=3"]])
    func repeatedCookieOptionsMatchCurl(arguments: [String]) throws {
        let resolved = arguments.map { $0.replacingOccurrences(of: "DIR", with: files.path) }
        try oracle.compare(["-A", "same"] + resolved + [oracle.lab.api("a.test", "echo")])
    }

    @Test(arguments: ["set-cookie?x=1&y=2", "redirect?code=302&to=%2Fapi%2Fset-cookie%3Fr%3D9"])
    func jarsMatchCurl(path: String) throws {
        let url = oracle.lab.api("a.test", path)
        let ours = files.path + "/ours-\(path.hashValue)", theirs = files.path + "/theirs-\(path.hashValue)"
        try oracle.compare(["-L", "-b", files.path + "/j1", "-c", ours, "-o", "/dev/null", url],
                           ["-L", "-b", files.path + "/j1", "-c", theirs, "-o", "/dev/null", url])
        let written = try String(contentsOfFile: ours, encoding: .utf8)
        #expect(written == (try String(contentsOfFile: theirs, encoding: .utf8)))
        #expect(written.contains("jar1\tv1"))
    }
}
