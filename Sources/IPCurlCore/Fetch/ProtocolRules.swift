import CurlKit

/// curl's `--proto`, `--proto-redir` and `--proto-default` over ipcurl's own redirect loop: the schemes the first
/// URL and each redirect may use, and the scheme a URL without one gets. ipcurl speaks http and https only, so the
/// sets are subsets of those two.
/// - SeeAlso: `CURLOPT_PROTOCOLS_STR`, `CURLOPT_REDIR_PROTOCOLS_STR`, `CURLOPT_DEFAULT_PROTOCOL`.
public struct ProtocolRules: Sendable, Equatable {
    /// Some of ipcurl's two schemes, by name; other names are not among them. Two bits, not a `Set<String>`:
    /// every request carries two of these, and a set of strings costs its metadata a conformance lookup at start-up.
    public struct Schemes: Sendable, Equatable, ExpressibleByArrayLiteral {
        private var bits: UInt8 = 0

        /// The schemes among `names` (`http`, `https`); any other name is left out.
        public init(_ names: some Sequence<String>) {
            for name in names { bits |= Self.bit(name) }
        }

        public init(arrayLiteral names: String...) { self.init(names) }

        /// Both schemes, without building their names.
        static let both = Schemes(bits: 0b11)

        private init(bits: UInt8) { self.bits = bits }

        /// Whether `scheme` (lower case) is one of these.
        public func contains(_ scheme: String) -> Bool { bits & Self.bit(scheme) != 0 }

        private static func bit(_ name: String) -> UInt8 { name == "http" ? 1 : name == "https" ? 2 : 0 }
    }

    /// ipcurl's schemes: what every request may use unless `--proto` narrows it.
    public static let spoken = Schemes.both

    /// `--proto`: every request, redirects included.
    public var allowed = Self.spoken
    /// `--proto-redir`: the requests a redirect leads to (curl's default for redirects, http https ftp ftps since
    /// 7.65.2, holds both of ipcurl's).
    public var redirectAllowed = Self.spoken
    /// `--proto-default`: the scheme of a URL written without one (curl guesses http, or ftp for `ftp.` names).
    public var defaultScheme: String?

    public init() {}

    /// Throws curl's exit 1 when `scheme` may not be used, for the first URL or (`redirect`) a redirect's.
    public func require(_ scheme: String, redirect: Bool) throws(CurlError) {
        guard !allowed.contains(scheme) || (redirect && !redirectAllowed.contains(scheme)) else { return }
        throw CurlError.unsupportedProtocol.with(message: "Protocol \"\(scheme)\" not supported or disabled in libcurl")
    }

    /// `url` with ``defaultScheme`` before it when it names no scheme, as libcurl reads it (`Curl_is_absolute_url`: a
    /// letter, then letters, digits, `+`, `-` or `.`, then `:/`); else `url` as it is.
    public func absolute(_ url: String) -> String {
        guard let defaultScheme else { return url }
        let bytes = Array(url.utf8.prefix(42))
        let isSchemeByte = { (byte: UInt8) in
            (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        let isLetter = { (byte: UInt8) in byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z") }
        if let first = bytes.first, isLetter(first) {
            let end = bytes.dropFirst().firstIndex { !isSchemeByte($0) } ?? bytes.count
            if end + 1 < bytes.count, bytes[end] == UInt8(ascii: ":"), bytes[end + 1] == UInt8(ascii: "/") { return url }
        }
        return defaultScheme + "://" + url
    }
}
