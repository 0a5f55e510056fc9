/// The value of curl's `-E/--cert`: `CERTIFICATE[:PASSWORD]`, where `\:` is a colon and `\\` a backslash in the
/// file name, and a `pkcs11:` URI is taken whole.
/// - SeeAlso: curl's `tool_getparam.c` (`parse_cert_parameter`), `CURLOPT_SSLCERT`, `CURLOPT_KEYPASSWD`.
public enum ClientCertificateArgument {
    /// The certificate name and, after the first unescaped colon, the passphrase (`nil` when none or empty).
    public static func parse(_ text: String) -> (certificate: String, passphrase: String?) {
        if text.lowercased().hasPrefix("pkcs11:") || !text.contains(where: { $0 == ":" || $0 == "\\" }) {
            return (text, nil)
        }
        var name = ""
        var rest = Substring(text)
        while let first = rest.first {
            rest = rest.dropFirst()
            switch first {
            case "\\":
                guard let next = rest.first else { name.append("\\"); continue }
                rest = rest.dropFirst()
                if next == "\\" || next == ":" { name.append(next) } else { name += "\\" + String(next) }
            case ":":
                return (name, rest.isEmpty ? nil : String(rest))
            default:
                name.append(first)
            }
        }
        return (name, nil)
    }
}
