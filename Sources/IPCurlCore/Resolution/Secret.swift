#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS

/// A credential read from a file or the environment, never from argv; its text never appears in a message.
public struct Secret: Sendable, Equatable {
    /// The value, with one trailing line break (and surrounding blanks) removed.
    public let value: String
    /// Where it came from (`FILE` or `$NAME`), for error messages.
    public let origin: String

    /// A secret with a known value and origin.
    public init(value: String, origin: String) {
        self.value = value
        self.origin = origin
    }

    /// Reads `file` if given, else the environment variable `variable` (if any); `nil` when neither is set.
    /// An unreadable file is exit 26 (as curl reports unreadable input files); an empty secret, or a regular file
    /// that others could read or change (``permissionProblem(_:of:user:)``, judged on the opened file), is a usage
    /// error.
    public static func load(file: String?, variable: String?) throws(CurlError) -> Secret? {
        let text: String
        let origin: String
        if let file {
            let bytes = try LocalFiles.read(file, atMost: .max) { info throws(CurlError) in
                guard let problem = permissionProblem(info, of: file) else { return }
                throw CurlError.usage("\(Printable.escaped(file)): \(problem)")
            }
            text = String(decoding: bytes, as: UTF8.self)
            origin = file
        } else if let variable, let raw = getenv(variable) {
            text = String(cString: raw)
            origin = "$" + variable
        } else {
            return nil
        }
        let value = String(text.unicodeScalars.drop(while: isBlank).reversed().drop(while: isBlank).reversed()
            .map(Character.init))
        guard !value.isEmpty else { throw CurlError.usage("\(origin): the secret is empty") }
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            throw CurlError.usage("\(origin): the secret must be one line of printable characters")
        }
        return Secret(value: value, origin: origin)
    }

    /// Holds the secret file at `path` that libcurl reads itself (a `.netrc` file) to the rule of
    /// ``permissionProblem(_:of:user:)``: a usage error naming what is wrong when it is not private. A path with
    /// nothing there passes: curl reads no file then.
    public static func requirePrivate(file path: String) throws(CurlError) {
        var info = stat()
        guard stat(path, &info) == 0, let problem = permissionProblem(info, of: path) else { return }
        throw CurlError.usage("\(Printable.escaped(path)): \(problem)")
    }

    /// Why the secret file at `path` with status `info` is not private enough, with the fix; `nil` when it is. A
    /// regular file must be owned by `user` or root (a Kubernetes secret volume is root's), and readable by nobody
    /// but its owner and group and writable by nobody but its owner. A pipe, a FIFO or a device stores nothing
    /// and passes whatever its owner and mode.
    public static func permissionProblem(_ info: stat, of path: String, user: uid_t = geteuid()) -> String? {
        guard info.st_mode & S_IFMT == S_IFREG else { return nil }
        let shown = Printable.escaped(path)
        if info.st_uid != user && info.st_uid != 0 {
            return "owned by uid \(info.st_uid), not by this user or root: make it this user's with chown \(user) \(shown)"
        }
        let reason: String
        switch info.st_mode {
        case let mode where mode & S_IROTH != 0: reason = "readable by others"
        case let mode where mode & S_IWOTH != 0: reason = "writable by others"
        case let mode where mode & S_IXOTH != 0: reason = "executable by others"
        case let mode where mode & S_IWGRP != 0: reason = "writable by its group"
        default: return nil
        }
        let octal = String(info.st_mode & 0o7777, radix: 8)
        let mode = String(repeating: "0", count: max(1, 4 - octal.count)) + octal
        return "\(reason) (mode \(mode)): make it private with chmod 600 \(shown)"
    }

    /// Whether the secret can go into a URL query as it is (`A-Z a-z 0-9 - . _ ~`).
    public var isURLSafe: Bool {
        value.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                || [UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~")].contains(byte)
        }
    }
}

private func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" }
