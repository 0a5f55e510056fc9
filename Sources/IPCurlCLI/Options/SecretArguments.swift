import IPCurlCore
import OptionTable

/// The credential parts of option values that ``ArgumentScrubber`` blanks from the process list, beyond the whole
/// values curl blanks (`-u`, `-U`, `-E`): a credential header's value, a `-b` cookie string's values, and a server
/// or proxy URL's user info and query values. What names the option's target stays readable.
enum SecretArguments {
    /// `-H`: the value of an `Authorization`, `Proxy-Authorization` or `Cookie` header; the name and colon stay.
    static let header = SecretBytes { value in
        let bytes = Array(value.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon + 1 < bytes.count else { return [] }
        var name = bytes[..<colon]
        while let last = name.last, last == 0x20 || last == 0x09 { name = name.dropLast() }
        let lowered = String(decoding: name.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        return CredentialRedaction.secretHeaderNames.contains(lowered) ? [(colon + 1)..<bytes.count] : []
    }

    /// `-b`: each cookie's value in a cookie string (a value with `=`: anything else is a file name, as curl tells
    /// them apart); the names and separators stay.
    static let cookie = SecretBytes { value in
        let bytes = Array(value.utf8)
        guard bytes.contains(UInt8(ascii: "=")) else { return [] }
        return pieces(of: bytes, in: 0..<bytes.count, separatedBy: UInt8(ascii: ";")).compactMap { valueRange(of: $0, in: bytes) }
    }

    /// `--doh`, `--doh-json`, `--httpdns-server`, `-x`: the URL's user info and each query parameter's value (a
    /// parameter without `=` whole), as `-v` hides them; the scheme, host, port and path stay.
    static let url = SecretBytes { value in
        let bytes = Array(value.utf8)
        var start = 0
        if let slashes = bytes.indices.first(where: { bytes[$0...].starts(with: Array("://".utf8)) }),
           !bytes[..<slashes].contains(UInt8(ascii: "/")) {
            start = slashes + 3
        }
        let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
        var secret: [Range<Int>] = []
        if let at = bytes[start..<end].lastIndex(of: UInt8(ascii: "@")), at > start { secret.append(start..<at) }
        let mark = bytes[end...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
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
