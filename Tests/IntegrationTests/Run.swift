import Foundation

/// The result of running a command to completion.
struct Run: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String
    let stdoutBytes: Data
}

/// Runs the ipcurl binary that `swift test` built (or `$IPCURL_BIN`, e.g. the release build).
/// Each run gets an empty answer cache of its own unless `extra` names one in `IPCURL_CACHE_DIR`.
func ipcurl(_ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:],
            directory: String? = nil) throws -> Run {
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "IPCURL_DNS")
    let scratch = try TemporaryDirectory()
    environment["IPCURL_CACHE_DIR"] = scratch.path + "/cache"
    environment.merge(extra) { $1 }
    return try run(ipcurlBinary(), arguments, stdin: stdin, environment: environment, directory: directory)
}

func ipcurlBinary() -> String {
    if let path = ProcessInfo.processInfo.environment["IPCURL_BIN"] { return path }
    // The test bundle lives next to the products: .build/<triple>/debug/ipcurlPackageTests.xctest
    let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [Bundle.main.bundleURL.deletingLastPathComponent(), bundleDir, Bundle.main.bundleURL] {
        let path = candidate.appendingPathComponent("ipcurl").path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return Lab.repoRoot + "/.build/debug/ipcurl"
}

/// Runs `executable` with `arguments`, feeding `stdin`, and collects both output streams.
func run(_ executable: String, _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil,
         directory: String? = nil) throws -> Run {
    let process = Process()
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    // Drain both pipes concurrently so a large stderr cannot block the child.
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
               stderr: String(decoding: errData, as: UTF8.self), stdoutBytes: outData)
}

/// Writes `text` to `path` as a file only its owner may read or write, as ipcurl wants its secret files.
func writePrivateFile(_ text: String, to path: String) throws {
    guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
        throw LabError("cannot write \(path)")
    }
}

/// A fresh directory under the system temp dir, removed with everything in it when the value goes away.
final class TemporaryDirectory: @unchecked Sendable {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/ipcurl-test.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw LabError("mkdtemp failed")
        }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
