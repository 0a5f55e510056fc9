#if canImport(Glibc)
import Glibc
#endif
import CSystem
import CurlKit
import HTTPDNS

/// `--etag-save FILE`: opened (truncated) before the transfer, as curl opens it, and given each response's `ETag`
/// value on a line of its own; `-` is stdout.
/// - SeeAlso: curl's `--etag-save`.
final class ETagFile {
    private let writer: DescriptorWriter
    private let descriptor: Int32

    /// `nil` when the file cannot be created (curl then skips the transfer with a warning).
    init?(path: String) {
        descriptor = path == "-" ? 1 : (try? PlantedFiles.open(path, O_WRONLY | O_CREAT | O_TRUNC)) ?? -1
        guard descriptor >= 0 else { return nil }
        writer = DescriptorWriter(descriptor: descriptor)
    }

    deinit { if descriptor > 2 { close(descriptor) } }

    /// One header line: an `ETag:` line (any letter case) has its value, without the blanks around it, written.
    func receive(_ line: UnsafeRawBufferPointer) {
        guard line.count > 5, line.last == UInt8(ascii: "\n"),
              zip(line.prefix(5), "etag:".utf8).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) else { return }
        var value = Array(line.dropFirst(5))
        while let last = value.last, last == 0x20 || (0x09...0x0D).contains(last) { value.removeLast() }
        let start = value.firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? value.count
        guard start < value.count else { return }
        _ = (Array(value[start...]) + [UInt8(ascii: "\n")]).withUnsafeBytes { writer.write($0) }
    }
}

/// What `-R/--remote-time` and `--xattr` put on a downloaded file once it is in place.
/// - SeeAlso: curl's `-R`, `--xattr` (`src/tool_xattr.c`), `CURLINFO_FILETIME_T`.
enum FileStamps {
    /// Sets `path`'s access and modification times to `time` (seconds since 1970); nothing when the server gave no
    /// time, as curl.
    static func setModificationTime(_ time: Int64?, of path: String, _ diagnostics: Diagnostics) {
        guard let time else { return }
        var times = [timespec(tv_sec: Int(time), tv_nsec: 0), timespec(tv_sec: Int(time), tv_nsec: 0)]
        if utimensat(AT_FDCWD, path, &times, 0) != 0 {
            diagnostics.warning("Failed to set filetime \(time) on outfile: \(String(cString: strerror(errno)))")
        }
    }

    /// Sets `user.xdg.origin.url` (the URL without user info), `user.xdg.referrer.url` and `user.mime_type`
    /// from the transfer, each one the transfer has; a file system without extended attributes gets a warning.
    static func setAttributes(of path: String, from handle: EasyHandle, url: String, _ diagnostics: Diagnostics) {
        let origin = (try? CurlURL(handle.effectiveURL ?? url, pathAsIs: true))?.text(withUserInfo: nil) ?? url
        for (name, value) in [("user.xdg.origin.url", origin), ("user.xdg.referrer.url", handle.referer),
                              ("user.mime_type", handle.contentType)] {
            guard let value, !value.isEmpty else { continue }
            let failed = csystem_set_attribute(path, name, value, value.utf8.count) != 0
            if failed {
                diagnostics.warning("Error setting extended attributes on '\(Printable.escaped(path))': \(String(cString: strerror(errno)))")
                return
            }
        }
    }
}
