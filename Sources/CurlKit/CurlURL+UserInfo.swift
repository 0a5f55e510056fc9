internal import CCurl

/// Where a URL's user info lies in the text as typed, whether libcurl accepts the URL or not: the one rule that
/// keeps it out of the process list (a `-x` or `--doh` value blanked) and out of every message quoting a URL.
extension CurlURL {
    /// The UTF-8 byte range of the user info in `text`, without the `@` that ends it; `nil` when there is none.
    ///
    /// It starts after the scheme's colon and every slash after it (`http:/`, `http://` and `http:///` all name a
    /// scheme to libcurl), or at the start of the text without a `scheme:/` (`user:pw@host:port`, a proxy as curl
    /// takes it, or `http:user:pw@host`). It ends at the last `@` before the first `/`, `?` or `#` in a URL libcurl
    /// accepts; in one it rejects, at the last `@` of the text, since a password holding `/`, `?` or `#` is what
    /// cut the authority short (`https://user:ab/CD@host/`).
    public static func userInfoBytes(in text: String) -> Range<Int>? {
        let bytes = Array(text.utf8)
        let start = authorityStart(bytes)
        let authorityEnd = bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
        let end = isAccepted(text) ? authorityEnd ?? bytes.count : bytes.count
        guard let at = bytes[start..<end].lastIndex(of: UInt8(ascii: "@")) else { return nil }
        return start..<at
    }

    /// `text` without its user info and the `@` after it (``userInfoBytes(in:)``), everything else as typed.
    public static func withoutUserInfo(_ text: String) -> String {
        guard let userInfo = userInfoBytes(in: text) else { return text }
        let bytes = Array(text.utf8)
        return String(decoding: bytes[..<userInfo.lowerBound] + bytes[(userInfo.upperBound + 1)...], as: UTF8.self)
    }

    /// `text` without its user info, cut at its query or fragment: the one form of a URL, parsed or not, that a
    /// message quotes (a resolver's, a proxy's, a target's that libcurl rejects).
    public static func redacted(text: String) -> String {
        String(withoutUserInfo(text).prefix { $0 != "?" && $0 != "#" })
    }

    /// Where the authority starts: after `scheme:` and the slashes that follow it, or at 0 when the text does not
    /// start with a scheme followed by a slash.
    private static func authorityStart(_ bytes: [UInt8]) -> Int {
        // RFC 3986's scheme: a letter, then letters, digits, `+`, `-` and `.`.
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        func isSchemeByte(_ byte: UInt8) -> Bool { isLetter(byte) || (0x30...0x39).contains(byte) || byte == 0x2B || byte == 0x2D || byte == 0x2E }
        guard let first = bytes.first, isLetter(first),
              let colon = bytes.firstIndex(where: { !isSchemeByte($0) }), bytes[colon] == 0x3A,
              colon + 1 < bytes.count, bytes[colon + 1] == 0x2F else { return 0 }
        return bytes[(colon + 1)...].firstIndex { $0 != 0x2F } ?? bytes.count
    }

    /// Whether libcurl's URL parser takes `text` as curl takes a proxy (a scheme guessed when there is none).
    private static func isAccepted(_ text: String) -> Bool {
        guard let handle = curl_url() else { return false }
        defer { curl_url_cleanup(handle) }
        return curl_url_set(handle, CURLUPART_URL, text, UInt32(CURLU_GUESS_SCHEME) | UInt32(CURLU_NON_SUPPORT_SCHEME)) == CURLUE_OK
    }
}
