#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CurlKit
import HTTPDNS

/// Writes a finished report so that a reader polling the file (node_exporter's textfile collector, a CI step) sees
/// the old content or the new, never half of either: an ``OutputFile`` (a temporary file beside the target, removed
/// on SIGINT/SIGTERM, renamed over it; an existing file keeps its mode and owner, a symlink keeps pointing where it
/// did, a path that is not a regular file is written directly) that also flushes the file and its directory to
/// disk. `-` is stdout.
public enum ReportFile {
    /// Writes `text` to `path` (`-` for stdout); a failure is `CurlError.writeError` (exit 23) naming the path.
    public static func write(_ text: String, to path: String) throws(CurlError) {
        try write(text, to: path, standardOutput: .standardOutput)
    }

    /// ``write(_:to:)`` with `-` meaning `standardOutput`.
    static func write(_ text: String, to path: String, standardOutput: DescriptorWriter) throws(CurlError) {
        if path == "-" {
            guard standardOutput.write(text) else { throw failure("stdout") }
            return
        }
        let file = OutputFile(path: path)
        file.syncsToDisk = true
        let written = Array(text.utf8).withUnsafeBytes { file.write($0) }
        guard written else { throw file.failure ?? failure(path) }
        try file.commit()
    }

    /// Exit 23 with `errno`'s text, naming `path` on one line.
    private static func failure(_ path: String) -> CurlError {
        CurlError.writeError.with(message: "Failed to write the report to \(Printable.escaped(path)): \(String(cString: strerror(errno)))")
    }
}
