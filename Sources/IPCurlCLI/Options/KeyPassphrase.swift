#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import IPCurlCore

/// Where a client key's passphrase comes from: the `:PASSWORD` of `-E`/`--proxy-cert`, or the file `--pass` /
/// `--proxy-pass` names (never the command line's text); the last given wins, as in curl. Without either, an
/// environment variable (`$IPCURL_PASS`, `$IPCURL_PROXY_PASS`), read only when there is a key to unlock.
enum KeyPassphrase: Sendable {
    /// `-E CERT:PASSWORD`: the text, and the option for messages.
    case inline(String, origin: String)
    /// `--pass FILE`.
    case file(String)

    /// The passphrase `given` says, else `variable`'s value when `needed`; a passphrase file loses one trailing
    /// line break and surrounding blanks (``Secret``).
    static func load(_ given: KeyPassphrase?, variable: String, needed: Bool) throws(CurlError) -> Secret? {
        switch given {
        case .inline(let text, let origin): return Secret(value: text, origin: origin)
        case .file(let path): return try Secret.load(file: path, variable: nil)
        case nil: return needed ? try Secret.load(file: nil, variable: set(variable)) : nil
        }
    }

    /// `name` when that environment variable is set and not empty (as curl's variables, an empty one is unset).
    static func set(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return name
    }
}
