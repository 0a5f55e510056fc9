import CurlKit
import IPCurlCore
import OptionTable

/// The credential parts of option values that ``ArgumentScrubber`` blanks from the process list, beyond the whole
/// values curl blanks (`-u`, `-U`, `-E`): a credential header's value, a `-b` cookie string's values, and a server
/// or proxy URL's user info and query values. What names the option's target stays readable.
enum SecretArguments {
    /// `-H`: the value of an `Authorization`, `Proxy-Authorization` or `Cookie` header, on every line of the
    /// argument (a value may hold CR LF and further header lines), with the lines that continue it; the names and
    /// colons stay. The rule of every dump (``CredentialRedaction/headerValues(in:)``).
    static let header = SecretBytes { CredentialRedaction.headerValues(in: Array($0.utf8)) }

    /// `-b`: each cookie's value in a cookie string (a value with `=`: anything else is a file name, as curl tells
    /// them apart); the names and separators stay.
    static let cookie = SecretBytes { value in
        let bytes = Array(value.utf8)
        guard bytes.contains(UInt8(ascii: "=")) else { return [] }
        return pieces(of: bytes, in: 0..<bytes.count, separatedBy: UInt8(ascii: ";")).compactMap { valueRange(of: $0, in: bytes) }
    }

    /// `--doh`, `--doh-json`, `--httpdns-server`, `-x`: the URL's user info (``CurlURL/userInfoBytes(in:)``,
    /// whatever the number of slashes, with or without a scheme) and each query parameter's value (a parameter
    /// without `=` whole), as `-v` hides them; the scheme, host, port and path stay.
    static let url = SecretBytes { value in
        let bytes = Array(value.utf8)
        let userInfo = CurlURL.userInfoBytes(in: value)
        var secret = userInfo.map { [$0] } ?? []
        let afterUserInfo = userInfo.map { $0.upperBound + 1 } ?? 0
        let mark = bytes[afterUserInfo...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
        guard let question = mark, bytes[question] == UInt8(ascii: "?") else { return secret }
        let queryEnd = bytes[question...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        for parameter in pieces(of: bytes, in: (question + 1)..<queryEnd, separatedBy: UInt8(ascii: "&")) where !parameter.isEmpty {
            secret.append(valueRange(of: parameter, in: bytes) ?? parameter)
        }
        return secret
    }

    /// The ranges between `separator`s within `range`.
    private static func pieces(of bytes: [UInt8], in range: Range<Int>, separatedBy separator: UInt8) -> [Range<Int>] {
        var found: [Range<Int>] = [], start = range.lowerBound
        for index in range where bytes[index] == separator {
            found.append(start..<index)
            start = index + 1
        }
        found.append(start..<range.upperBound)
        return found
    }

    /// What follows the first `=` of `piece`, when there is anything; `nil` without `=`.
    private static func valueRange(of piece: Range<Int>, in bytes: [UInt8]) -> Range<Int>? {
        guard let equals = bytes[piece].firstIndex(of: UInt8(ascii: "=")) else { return nil }
        return equals + 1 < piece.upperBound ? (equals + 1)..<piece.upperBound : nil
    }
}
