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
    /// `--pass FILE`, and the option that named it.
    case file(String, option: String)

    /// The passphrase `given` says, else `variable`'s value when `needed`; a passphrase file loses one trailing
    /// line break and surrounding blanks (``Secret``).
    static func load(_ given: KeyPassphrase?, variable: String, needed: Bool) throws(CurlError) -> Secret? {
        switch given {
        case .inline(let text, let origin): return Secret(value: text, origin: origin)
        case .file(let path, let option): return try read(path, option: option, variable: variable)
        case nil: return needed ? try Secret.load(file: nil, variable: set(variable)) : nil
        }
    }

    /// The secret in the file `option` names (`--pass`, `--proxy-pass`, `--tlspassword`, `--proxy-tlspassword`),
    /// where curl takes the secret itself: a value that is no file to read may be the secret, given as curl takes
    /// it, so its message (exit 26, as curl's unreadable input) never repeats it.
    static func read(_ path: String, option: String, variable: String) throws(CurlError) -> Secret? {
        do throws(CurlError) {
            return try Secret.load(file: path, variable: nil)
        } catch where error == .readError {
            throw CurlError.readError.with(message: "\(option): the file it names cannot be read: give a file holding the secret "
                                           + "(or $\(variable)); ipcurl never takes the secret itself on the command line")
        }
    }

    /// `name` when that environment variable is set and not empty (as curl's variables, an empty one is unset).
    static func set(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return name
    }
}
