import Foundation

/// What `/usr/bin/curl` did: its exit code, the response's status (0 when none came), header lines and body.
struct CurlResult: Sendable {
    let exit: Int32
    let status: Int
    let headers: [String]
    let body: String
    let stderr: String

    /// The first value of response header `name` (any case).
    func header(_ name: String) -> String? {
        for line in headers {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}

/// A curl process started and not yet waited for, so several can run at once.
final class RunningCurl: @unchecked Sendable {
    private let process = Process()
    private let out = Pipe(), err = Pipe()
    private let headerFile: String

    init(_ arguments: [String]) throws {
        headerFile = NSTemporaryDirectory() + "/exporterhttp-headers-\(UUID().uuidString)"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        // -q: no ~/.curlrc; no proxy for loopback; a bound on the whole transfer so a broken server fails the test
        // instead of hanging it.
        process.arguments = ["-q", "-sS", "--noproxy", "*", "--max-time", "120", "-D", headerFile] + arguments
        process.environment = ["PATH": "/usr/bin:/bin"]
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits for curl to end and reads what it got.
    func finish() -> CurlResult {
        let body = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let headerText = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: headerFile)
        // The last response's block (after 100 Continue or similar); the status line starts it.
        let blocks = headerText.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }
        let lines = blocks.last?.components(separatedBy: "\r\n") ?? []
        let status = lines.first.flatMap { line in line.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
        return CurlResult(exit: process.terminationStatus, status: status, headers: Array(lines.dropFirst()),
                          body: String(decoding: body, as: UTF8.self), stderr: String(decoding: errors, as: UTF8.self))
    }
}

/// Runs curl to completion.
func curl(_ arguments: [String]) throws -> CurlResult {
    try RunningCurl(arguments).finish()
}

/// Runs a command and returns its standard output; fails the test when it exits non-zero.
@discardableResult
func command(_ executable: String, _ arguments: [String], stdin: String? = nil, in directory: String? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw TestError("\(executable) \(arguments) exited \(process.terminationStatus)") }
    return String(decoding: data, as: UTF8.self)
}

struct TestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
