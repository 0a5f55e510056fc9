#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Alibaba Cloud HTTPDNS's v2 API (`GET /v2/d`) for one account: it builds queries and reads answers
/// (``read(_:for:)``), and asks no server itself (``AliyunV2Resolver`` races the servers).
///
/// A query names 1–5 hosts (``Names``) and the families wanted (`q`: `4`, `6` or `4,6`), optionally the client's
/// address (`cip`), and carries `exp` (the current time plus ``signatureLifetime``) and `v=1.0`. With a
/// ``SigningKey`` it is signed: `s` is the lowercase hex HMAC-SHA256, keyed with the hex-decoded secret, of the
/// signed parameters' `key=value` pairs with non-empty values, sorted by key, joined with `&`, values raw (before
/// percent-encoding). Plain (`m=0`), the signed parameters are `id, m, dn, q, cip, exp, v`. Encrypted
/// (``Encryption``: `m=1` AES-CBC, `m=2` AES-GCM), `dn`, `q` and `cip` travel only inside `enc`, the lowercase hex
/// of IV ‖ ciphertext [‖ tag] of their JSON object, and the signed parameters are `enc, exp, id, m, v`. `tags` and
/// `sdns-*` are not sent. In the URL every value is percent-encoded, RFC 3986's unreserved characters kept (`,` is
/// `%2C`).
/// - SeeAlso: Alibaba Cloud EMAS HTTPDNS "域名解析接口" (https://help.aliyun.com/document_detail/2978980.html); the
///   iOS SDK `AlicloudHttpDNS/HttpdnsRemoteResolver.m` and the Android SDK
///   `httpdns-sdk/src/main/java/com/alibaba/sdk/android/httpdns/resolve/ResolveHostHelper.java` and
///   `impl/SignService.java` (aliyun/alibabacloud-httpdns-{ios,android}-sdk).
public struct AliyunV2: Sendable {
    /// The API's path on every service address.
    public static let path = "/v2/d"
    /// The most names one query may carry.
    public static let batchLimit = 5
    /// How long a query's signature stays valid: `exp` is the current time plus this many seconds, as in the iOS and
    /// Android SDKs.
    public static let signatureLifetime = 600
    /// The `v` parameter.
    public static let version = "1.0"

    /// The `m` parameter: how the query's names and the answer travel.
    /// - SeeAlso: "域名解析接口" §3.1 (`m`); the Android SDK `impl/AESEncryptService.java` (`PLAIN("0")`,
    ///   `AES_CBC("1")`, `AES_GCM("2")`).
    public enum Mode: Int, Sendable {
        /// In clear.
        case plain = 0
        /// AES-128-CBC with PKCS#7 padding and a 16-byte IV; no integrity.
        case cbc = 1
        /// AES-128-GCM with a 12-byte IV and a 16-byte tag; authenticated.
        case gcm = 2
    }

    /// The account ID (`id`).
    public let account: String
    /// The address the answers are for (`cip`), when not the address the query comes from.
    public let clientIP: IPAddress?
    /// How queries and answers are encrypted.
    public let encryption: Encryption
    private let signingKey: SigningKey?

    /// The API for `account` (1–32 ASCII letters or digits, else a configuration error of
    /// ``ResolutionError/Setting/aliyunAccount``), signing when `signingKey` is given.
    public init(account: String, signingKey: SigningKey?, encryption: Encryption = .plain,
                clientIP: IPAddress? = nil) throws(ResolutionError) {
        self.account = try AliyunResolver.checked(account: account)
        self.signingKey = signingKey
        self.encryption = encryption
        self.clientIP = clientIP
    }

    /// Whether queries are signed.
    public var isSigned: Bool { signingKey != nil }

    /// The query for `names` and `families` as of `now` (Unix seconds). Throws only when encryption fails (no
    /// random bytes).
    public func query(_ names: Names, families: AddressFamilies, now: Int = Int(time(nil))) throws(CipherError) -> Query {
        try query(names, families: families, now: now, iv: nil)
    }

    /// The query with a chosen IV; for known answers only.
    func query(_ names: Names, families: AddressFamilies, now: Int, iv: [UInt8]?) throws(CipherError) -> Query {
        let q = families.families.map { $0 == .v4 ? "4" : "6" }.joined(separator: ",")
        let dn = names.names.joined(separator: ",")
        let expiry = String(now + Self.signatureLifetime)
        var parameters: [(name: String, value: String)] = [("id", account), ("m", String(encryption.mode.rawValue))]
        switch encryption.mode {
        case .plain:
            parameters += [("dn", dn), ("q", q)] + (clientIP.map { [("cip", $0.description)] } ?? [])
        case .cbc, .gcm:
            // Names are HostName-normalized and the address is inet_ntop text: nothing here needs JSON escaping.
            let object = #"{"dn":"\#(dn)","q":"\#(q)""# + (clientIP.map { #","cip":"\#($0)""# } ?? "") + "}"
            parameters.append(("enc", Hex.encode(try encryption.seal(Array(object.utf8), iv: iv))))
        }
        parameters += [("v", Self.version), ("exp", expiry)]
        // Every parameter sent so far is a signed one; `s` itself is not.
        let signedText = signingKey.map { _ in Self.signedText(parameters) }
        if let signingKey, let signedText { parameters.append(("s", signingKey.signature(of: signedText))) }
        let query = parameters.map { "\($0.name)=\(Self.percentEncoded($0.value))" }.joined(separator: "&")
        return Query(names: names, families: families, mode: encryption.mode, path: Self.path + "?" + query,
                     signedText: signedText)
    }

    /// The text the signature covers: `key=value` pairs with non-empty values, sorted by the keys' bytes, joined
    /// with `&`.
    static func signedText(_ parameters: [(name: String, value: String)]) -> String {
        parameters.filter { !$0.value.isEmpty }
            .sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
            .map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    }

    private static let upperHexDigits = Array("0123456789ABCDEF".utf8)

    /// `value` with every byte but RFC 3986's unreserved characters (`A-Z a-z 0-9 - . _ ~`) written as `%XX`.
    static func percentEncoded(_ value: String) -> String {
        var out: [UInt8] = []
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), upperHexDigits[Int(byte >> 4)], upperHexDigits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension AliyunV2 {
    /// One query's names: 1 to ``AliyunV2/batchLimit`` valid DNS names, normalized (``HostName/normalized(_:)``),
    /// each once.
    /// - SeeAlso: "域名解析接口" §3.1 (`dn`: "最多支持5个域名"); the Android SDK
    ///   `resolve/BatchResolveHostService.java` (`maxCountPerRequest = 5`).
    public struct Names: Sendable, Equatable {
        /// The names, in the order first given.
        public let names: [String]

        /// `names` normalized, duplicates dropped; `nil` when one is not a valid DNS name, or when none or more than
        /// ``AliyunV2/batchLimit`` remain.
        public init?(_ names: [String]) {
            var unique: [String] = []
            for name in names {
                guard let normalized = HostName.normalized(name) else { return nil }
                if !unique.contains(normalized) { unique.append(normalized) }
            }
            guard (1...AliyunV2.batchLimit).contains(unique.count) else { return nil }
            self.names = unique
        }

        /// The valid names of `hosts`, normalized and each once, in batches of at most ``AliyunV2/batchLimit``;
        /// names that are not valid DNS names are left out.
        public static func batches(_ hosts: [String]) -> [Names] {
            var unique: [String] = []
            for host in hosts {
                if let name = HostName.normalized(host), !unique.contains(name) { unique.append(name) }
            }
            return stride(from: 0, to: unique.count, by: AliyunV2.batchLimit).compactMap { start in
                Names(Array(unique[start..<min(start + AliyunV2.batchLimit, unique.count)]))
            }
        }
    }

    /// A query ready to send: its path (with the query string) and what its answer is read against.
    /// - SeeAlso: the iOS SDK `HttpdnsRemoteResolver.m` (`constructHttpdnsResolvingUrl`, `buildFinalUrlWithBase`).
    public struct Query: Sendable {
        /// The names asked about.
        public let names: Names
        /// The families asked for.
        public let families: AddressFamilies
        /// How the query and its answer are encrypted.
        public let mode: Mode
        /// `/v2/d?…`, to append to a service address.
        public let path: String
        /// The text the signature covers, for diagnosis (it holds no secret); `nil` for an unsigned query.
        public let signedText: String?
    }

    /// The key `s` is computed with: the console's signing secret, hex-decoded.
    /// - SeeAlso: the Android SDK `impl/SignService.java` (`CommonUtil.decodeHex(mSecretKey)`), the iOS SDK
    ///   `Utils/HttpdnsUtil.m` (`dataFromHexString`).
    public struct SigningKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        private let bytes: [UInt8]

        /// `SigningKey(redacted)`: no description, dump or mirror shows the key.
        public var description: String { "SigningKey(redacted)" }
        public var debugDescription: String { description }
        public var customMirror: Mirror { Mirror(self, children: [:]) }

        /// The key from `hex`: hex digits in either case, an even number of them, nothing else (white space
        /// included). Throws a ``CipherError`` that does not quote the text.
        public init(hex: String) throws(CipherError) {
            guard !hex.isEmpty, let bytes = Hex.decode(hex) else {
                throw CipherError("the signing secret must be hex digits (an even number of them), as the console shows it")
            }
            self.bytes = bytes
        }

        /// The lowercase hex HMAC-SHA256 of `text`.
        func signature(of text: String) -> String { HMACSHA256.hex(key: bytes, text) }
    }

    /// How queries and answers are encrypted: plain, or AES-128 (CBC or GCM) with the account's key.
    /// - SeeAlso: the Android SDK `impl/AESEncryptService.java` (modes `0`, `1`, `2`; IVs of 16 and 12 bytes), the
    ///   iOS SDK `HttpdnsRemoteResolver.m` (`encryptParams`, `decryptData`).
    public struct Encryption: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The mode queries are sent in.
        public let mode: Mode
        private let key: [UInt8]

        /// `Encryption(gcm)`: the mode only; no description, dump or mirror shows the key.
        public var description: String { "Encryption(\(mode))" }
        public var debugDescription: String { description }
        public var customMirror: Mirror { Mirror(self, children: ["mode": mode]) }

        /// No encryption.
        public static let plain = Encryption(mode: .plain, key: [])

        private init(mode: Mode, key: [UInt8]) {
            self.mode = mode
            self.key = key
        }

        /// Encryption in `mode` with the key `hexKey`, 32 hex digits (16 bytes) as the console shows it. Throws a
        /// ``CipherError`` (not quoting the key) for another key, or when this libcrypto lacks the cipher.
        public init(_ mode: Mode, hexKey: String) throws(CipherError) {
            guard let key = Hex.decode(hexKey), key.count == 16 else {
                throw CipherError("the AES key must be 32 hex digits (16 bytes)")
            }
            switch mode {
            case .plain: break
            case .cbc: _ = try SymmetricCipher(.aes, key: key)
            case .gcm: _ = try AESGCM(key: key)
            }
            self.init(mode: mode, key: key)
        }

        /// `plaintext` sealed in ``mode``: IV ‖ ciphertext (CBC) or IV ‖ ciphertext ‖ tag (GCM), with a fresh IV
        /// unless one is given (for known answers); plain mode returns it as it is.
        func seal(_ plaintext: [UInt8], iv: [UInt8]? = nil) throws(CipherError) -> [UInt8] {
            switch mode {
            case .plain: return plaintext
            case .cbc:
                let cipher = try SymmetricCipher(.aes, key: key)
                if let iv { return try cipher.encrypt(plaintext, iv: iv) }
                return try cipher.encrypt(plaintext)
            case .gcm:
                let cipher = try AESGCM(key: key)
                if let iv { return try cipher.seal(plaintext, iv: iv) }
                return try cipher.seal(plaintext)
            }
        }

        /// The plaintext of `data` sealed in `mode` (the answer's own) with this key.
        func open(_ data: [UInt8], mode: Mode) throws(CipherError) -> [UInt8] {
            switch mode {
            case .plain: return data
            case .cbc: return try SymmetricCipher(.aes, key: key).decrypt(data)
            case .gcm: return try AESGCM(key: key).open(data)
            }
        }
    }
}
