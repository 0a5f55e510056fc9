#if canImport(Glibc)
import Glibc
#endif
import CurlKit

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
    /// An unreadable file is exit 26 (as curl reports unreadable input files); an empty secret is a usage error.
    public static func load(file: String?, variable: String?) throws(CurlError) -> Secret? {
        let text: String
        let origin: String
        if let file {
            text = String(decoding: try LocalFiles.read(file), as: UTF8.self)
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

    /// Whether the secret can go into a URL query as it is (`A-Z a-z 0-9 - . _ ~`).
    public var isURLSafe: Bool {
        value.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                || [UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~")].contains(byte)
        }
    }
}

private func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" }
