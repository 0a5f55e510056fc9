#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@testable import IPCurlCore
import Testing

/// `-o`'s temporary names: within NAME_MAX, cut at a character boundary, naming their process; and the removal of
/// a gone process's leftovers, and of nothing else.
@Suite struct TemporaryNameTests {
    @Test func aTemplateNamesItsProcessAndFitsNameMax() {
        #expect(TemporaryName.template(directory: "/d/", base: "page.html", pid: 42) == "/d/.page.html.ipcurl-42-XXXXXX")
        for length in [200, 232, 240, 255] {
            let base = String(repeating: "é", count: length / 2) + (length % 2 == 1 ? "n" : "")
            let name = TemporaryName.template(directory: "", base: base, pid: 4_194_304)
            #expect(name.utf8.count <= TemporaryName.maximumLength, "\(length)")
            #expect(name.hasSuffix(".ipcurl-4194304-XXXXXX"))
            #expect(!name.contains("\u{FFFD}"), "cut between characters, not inside one")
        }
    }

    @Test func theOwnerIsReadOnlyFromAWholeTemporaryName() {
        func owner(_ name: String) -> Int32? { TemporaryName.owner(of: Array(name.utf8)) }
        #expect(owner(".page.html.ipcurl-42-a1B2c3") == 42)
        #expect(owner(".x.ipcurl-4194304-XXXXXX") == 4_194_304)
        for name in ["page.html.ipcurl-42-a1B2c3", ".page.html.ipcurl-42-a1B2c", ".page.html.ipcurl--a1B2c3",
                     ".page.html.ipcurl-4x2-a1B2c3", ".ipcurl-42-a1B2c3", ".page.html.ipcurl-42-a1B2c3.bak",
                     ".page.html.ipcurl-0-a1B2c3", ".page.html.ipcurl-99999999999-a1B2c3", ".page.html.curl-42-a1B2c3"] {
            #expect(owner(name) == nil, "\(name)")
        }
    }

    /// A fresh directory for one test, and the id of a process that has exited.
    private func scratch(_ name: String) throws -> (directory: String, gone: Int32) {
        let directory = NSTemporaryDirectory() + "ipcurl-\(name)-\(getpid())/"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        return (directory, gone.processIdentifier)
    }

    @Test func leftoversOfAGoneProcessAreRemovedAndNothingElse() throws {
        let (directory, dead) = try scratch("leftovers")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let names = [".a.ipcurl-\(dead)-AbC123", ".b.ipcurl-1-AbC123", ".c.ipcurl-\(getpid())-AbC123", "d.ipcurl-\(dead)-AbC123",
                     ".e.ipcurl-\(dead)-AbC123.keep"]
        for name in names { _ = FileManager.default.createFile(atPath: directory + name, contents: Data("x".utf8)) }
        mkdir(directory + ".f.ipcurl-\(dead)-AbC123", 0o700)
        TemporaryName.removeLeftovers(in: directory)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory))
        #expect(left == Set(names.dropFirst() + [".f.ipcurl-\(dead)-AbC123"]), "only the gone process's regular file")
    }

    /// A writer in another pid namespace looks gone by its pid, but its lock says it is alive.
    @Test func aLockedFileIsKeptThoughItsPidLooksGone() throws {
        let (directory, gone) = try scratch("locked")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let name = directory + ".held.ipcurl-\(gone)-AbC123"
        let writer = open(name, O_RDWR | O_CREAT | O_EXCL, 0o600)
        try #require(writer >= 0)
        TemporaryName.holdWhileWriting(writer)
        TemporaryName.removeLeftovers(in: directory)
        #expect(FileManager.default.fileExists(atPath: name), "a locked temporary file is in use")
        close(writer)  // the writer ends: its lock goes with it
        TemporaryName.removeLeftovers(in: directory)
        #expect(!FileManager.default.fileExists(atPath: name))
    }
}
