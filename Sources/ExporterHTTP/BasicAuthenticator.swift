internal import CMicroHTTPD
import Locking

/// Checks basic-auth credentials against bcrypt hashes as exporter-toolkit does: libcrypt's `crypt_r` does the
/// bcrypt, one at a time (a burst of wrong passwords costs one core); a verified `Authorization` value is
/// remembered by its SHA-256, so bcrypt's cost is paid once per credential; a user who does not exist costs the same
/// bcrypt (against another user's hash) as one who does.
/// - SeeAlso: `crypt_r`, `crypt_checksalt`, `gnutls_hash_fast`.
final class BasicAuthenticator: @unchecked Sendable {
    /// How many verified credentials are remembered; past it, an arbitrary one is forgotten.
    static let rememberedLimit = 100
    private let hashes: [String: String]
    private let decoy: String
    private let lock = Lock()
    private let bcryptLock = Lock()
    private var verified: [[UInt8]: String] = [:]
    private var bcryptRuns = 0

    /// Refuses a hash that is not bcrypt or that libcrypt does not take.
    init?(users: [String: String]) throws(HTTPServerError) {
        let sorted = users.sorted { $0.key < $1.key }
        guard let first = sorted.first else { return nil }
        for (user, hash) in sorted {
            guard Self.isBcrypt(hash), ipc_crypt_setting_ok(hash) != 0 else {
                throw HTTPServerError("basic auth user \"\(user)\": the password hash is not a bcrypt hash")
            }
        }
        hashes = users
        decoy = first.value
    }

    /// The shape of a whole bcrypt hash: `$2a$`, `$2b$` or `$2y$`, a two-digit cost, `$`, then 53 characters of
    /// bcrypt's Base64 (salt and digest), 60 in all; libcrypt's `crypt_checksalt` checks only the setting in front.
    static func isBcrypt(_ hash: String) -> Bool {
        let bytes = Array(hash.utf8)
        guard bytes.count == 60, ["$2a$", "$2b$", "$2y$"].contains(where: { hash.hasPrefix($0) }), bytes[6] == UInt8(ascii: "$"),
              bytes[4...5].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return false }
        return bytes[7...].allSatisfy { byte in
            byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/") || (byte < 128 && Character(Unicode.Scalar(byte)).isLetter)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// How many times bcrypt ran (for tests: a remembered credential does not run it).
    var bcryptCount: Int { bcryptLock.locked { bcryptRuns } }

    /// The user that `authorization` (an `Authorization` header value) verifies as, or nil. `credentials` parses it
    /// into user and password, and is asked only when the value is not remembered.
    func user(authorization: String, credentials: () -> (user: String, password: String)?) -> String? {
        let key = Self.sha256(authorization)
        if let key, let user = lock.locked({ verified[key] }) { return user }
        guard let (user, password) = credentials() else { return nil }
        let hash = hashes[user]
        let matches = bcryptLock.locked {
            bcryptRuns += 1
            return ipc_crypt_matches(password, hash ?? decoy) == 1
        }
        guard matches, hash != nil else { return nil }
        if let key { lock.locked {
            if verified.count >= Self.rememberedLimit { verified.remove(at: verified.startIndex) }
            verified[key] = user
        } }
        return user
    }

    /// The key a credential is remembered by; nil (nothing remembered) should GnuTLS fail to hash.
    private static func sha256(_ text: String) -> [UInt8]? {
        var digest = [UInt8](repeating: 0, count: 32)
        let bytes = Array(text.utf8)
        let ok = digest.withUnsafeMutableBufferPointer { out in ipc_tls_sha256(bytes, bytes.count, out.baseAddress) }
        return ok == 1 ? digest : nil
    }
}
