#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names of ``OutputFile``'s temporary files, `.NAME.ipcurl-PID-XXXXXX` beside `NAME`, and the removal of
/// those a killed process left behind.
///
/// The process id in the name says whose file it is: once no process has that id, the file is a leftover (a
/// SIGKILL, a power cut) and the next ipcurl that writes into the directory removes it. Its writer also holds a
/// `flock(2)` on it for as long as it lives (the kernel drops it with the process, SIGKILL included), so a file
/// whose pid only looks gone (a writer in another pid namespace, sharing the directory) is still skipped while
/// its lock is held. Only regular files of this user whose whole name has that shape are touched.
enum TemporaryName {
    /// The longest file name most file systems allow (`NAME_MAX`).
    static let maximumLength = 255
    private static let marker = Array(".ipcurl-".utf8)

    /// `path` as its directory (with the trailing slash, empty for the working directory) and its last component.
    static func split(_ path: String) -> (directory: String, base: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }

    /// The `mkstemp(3)` template for a temporary file beside `base`: `.BASE.ipcurl-PID-XXXXXX`, with `BASE` cut (at
    /// a character boundary) so the name stays within ``maximumLength`` bytes.
    static func template(directory: String, base: String, pid: Int32 = getpid()) -> String {
        let suffix = ".ipcurl-\(pid)-XXXXXX"
        var kept = Array(base.utf8.prefix(maximumLength - 1 - suffix.utf8.count))
        if kept.count < base.utf8.count {
            while let last = kept.last, last & 0xC0 == 0x80 { kept.removeLast() }  // continuation bytes
            if let last = kept.last, last >= 0xC0 { kept.removeLast() }  // a lead byte whose sequence was cut
        }
        return directory + "." + String(decoding: kept, as: UTF8.self) + suffix
    }

    /// The process id in `name` when it is a temporary file's name (`.ANY.ipcurl-PID-XXXXXX`), else `nil`.
    static func owner(of name: [UInt8]) -> Int32? {
        guard name.first == UInt8(ascii: "."), name.count > 1 + marker.count + 8 else { return nil }
        let random = name.suffix(6)
        guard random.allSatisfy({ isalnum(Int32($0)) != 0 }), name[name.count - 7] == UInt8(ascii: "-") else { return nil }
        let head = name[..<(name.count - 7)]
        guard let digitsStart = head.lastIndex(where: { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }).map({ $0 + 1 }),
              digitsStart < head.endIndex, head.endIndex - digitsStart <= 10,
              digitsStart - marker.count >= 1, Array(head[(digitsStart - marker.count)..<digitsStart]) == marker else { return nil }
        var pid: Int64 = 0
        for digit in head[digitsStart...] { pid = pid * 10 + Int64(digit - UInt8(ascii: "0")) }
        return pid > 0 && pid <= Int64(Int32.max) ? Int32(pid) : nil
    }

    /// Removes the temporary files in `directory` (empty: the working directory) whose process is gone.
    static func removeLeftovers(in directory: String) {
        let path = directory.isEmpty ? "." : directory
        guard let stream = opendir(path) else { return }
        defer { closedir(stream) }
        let me = getpid(), user = geteuid()
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard let pid = owner(of: name), pid != me, SignalCleanup.processIsGone(pid) else { continue }
            let full = (Array(directory.utf8) + name + [0]).map { CChar(bitPattern: $0) }  // the name's bytes as they are
            var info = stat()
            guard lstat(full, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == user else { continue }
            let opened = open(full, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            if opened < 0 {
                if errno == EACCES { unlink(full) }  // a mode without read permission: the pid decides alone
                continue
            }
            if flock(opened, LOCK_EX | LOCK_NB) == 0 { unlink(full) }  // nobody alive holds it
            close(opened)
        }
    }

    /// Marks `descriptor`, a temporary file just made, as in use for as long as this process lives.
    static func holdWhileWriting(_ descriptor: Int32) { _ = flock(descriptor, LOCK_EX | LOCK_NB) }
}
