import CurlKit
import Foundation
import Glibc
import Testing
@testable import IPCurlCore

/// ``ReportFile``: a reader sees the old file or the new one, never a partial one, and nothing is left behind.
@Suite struct CheckReportFileTests {
    private let manager = FileManager.default

    private func inode(_ path: String) -> UInt64 {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }

    @Test func writesANewFileAndLeavesNoTemporaryFile() throws {
        let directory = try CheckReportFixture.temporaryDirectory()
        defer { try? manager.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ipcurl.prom").path
        try ReportFile.write("a 1\n# EOF\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a 1\n# EOF\n")
        #expect(try manager.contentsOfDirectory(atPath: directory.path) == ["ipcurl.prom"])
    }

    @Test func replacesByRenameSoAnOpenReaderKeepsTheOldFile() throws {
        let directory = try CheckReportFixture.temporaryDirectory()
        defer { try? manager.removeItem(at: directory) }
        let path = directory.appendingPathComponent("report.json").path
        try ReportFile.write("old\n", to: path)
        chmod(path, 0o640)
        let before = inode(path)
        let reader = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? reader.close() }
        try ReportFile.write("new content\n", to: path)
        #expect(String(decoding: try reader.readToEnd() ?? Data(), as: UTF8.self) == "old\n")  // never truncated in place
        #expect(inode(path) != before)  // a new file was renamed over the old name
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new content\n")
        #expect((try manager.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o640)
        #expect(try manager.contentsOfDirectory(atPath: directory.path) == ["report.json"])
    }

    @Test func aSymlinkStaysALinkAndItsTargetIsReplaced() throws {
        let directory = try CheckReportFixture.temporaryDirectory()
        defer { try? manager.removeItem(at: directory) }
        let target = directory.appendingPathComponent("real.prom").path, link = directory.appendingPathComponent("link.prom").path
        try ReportFile.write("one\n", to: target)
        try manager.createSymbolicLink(atPath: link, withDestinationPath: "real.prom")
        try ReportFile.write("two\n", to: link)
        #expect(try manager.destinationOfSymbolicLink(atPath: link) == "real.prom")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "two\n")
        #expect(Set(try manager.contentsOfDirectory(atPath: directory.path)) == ["real.prom", "link.prom"])
    }

    @Test func aDeviceIsWrittenDirectly() throws {
        try ReportFile.write("discarded\n", to: "/dev/null")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test func aFailureIsExit23NamingThePathOnOneLine() throws {
        let path = "/nonexistent-ipcurl-dir/x\ny.prom"
        let error = try #require(throws: CurlError.self) { try ReportFile.write("x", to: path) }
        #expect(error == .writeError && error.exitCode == 23)
        #expect(error.message.contains("/nonexistent-ipcurl-dir/x\\x0ay.prom") && !error.message.contains("\n"))
    }

    @Test func dashIsStandardOutput() throws {
        let directory = try CheckReportFixture.temporaryDirectory()
        defer { try? manager.removeItem(at: directory) }
        let capture = directory.appendingPathComponent("stdout").path
        let file = open(capture, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(file >= 0)
        try ReportFile.write("report on stdout\n", to: "-", standardOutput: DescriptorWriter(descriptor: file))
        close(file)
        #expect(try String(contentsOfFile: capture, encoding: .utf8) == "report on stdout\n")
        #expect(!manager.fileExists(atPath: "-"))
        let readOnly = open("/dev/null", O_RDONLY)  // writing to it fails
        defer { close(readOnly) }
        let error = try #require(throws: CurlError.self) {
            try ReportFile.write("x", to: "-", standardOutput: DescriptorWriter(descriptor: readOnly))
        }
        #expect(error.exitCode == 23 && error.message.hasPrefix("Failed to write the report to stdout: "))
    }

    @Test func colourOnlyOnATerminalWithoutNoColor() throws {
        let terminal = open("/dev/ptmx", O_RDWR | O_NOCTTY)  // a pseudo-terminal master is a terminal
        try #require(terminal >= 0, "no /dev/ptmx")
        defer { close(terminal) }
        #expect(CheckReport.wantsColour(fileDescriptor: terminal, noColor: nil))
        #expect(CheckReport.wantsColour(fileDescriptor: terminal, noColor: ""))
        #expect(!CheckReport.wantsColour(fileDescriptor: terminal, noColor: "1"))
        let null = open("/dev/null", O_WRONLY)
        defer { close(null) }
        #expect(!CheckReport.wantsColour(fileDescriptor: null, noColor: nil))
    }
}
