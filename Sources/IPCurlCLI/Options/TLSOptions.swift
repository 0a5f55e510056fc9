#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import IPCurlCore
import OptionTable

/// The target's TLS options, spelled as in curl: client certificate, pinned key, versions, ciphers, OCSP.
/// Fetch only, and never applied to the HTTPDNS queries (see ``TargetTLSOptions``).
struct TLSOptions: Sendable {
    var tls = TargetTLSOptions()
    /// Where the key's passphrase comes from; the last of `-E CERT:PASSWORD` and `--pass FILE` wins, as in curl.
    var passphrase: KeyPassphrase?
    /// `--engine list`: print the engines and transfer nothing, as curl.
    var listsEngines = false
    /// `--tlspassword FILE`.
    var tlsAuthPasswordFile: String?

    static let category = ResolverOptions.tlsCategory

    static let rows: [OptionRow<TLSOptions>] = [
        OptionRow("cert", "E", .string, "certificate[:password]", category,
                  "Client certificate file (and its key's passphrase: prefer --pass); blanked from the process list",
                  secret: .whole, power: .readsSecret) { options, argument in
            let (file, password) = ClientCertificateArgument.parse(argument.text)
            options.tls.certificate = file
            if let password { options.passphrase = .inline(password, origin: "-E") }
        },
        OptionRow("cert-type", nil, .string, "type", category, "Client certificate type: PEM, DER or P12") {
            $0.tls.certificateType = $1.text
        },
        OptionRow("key", nil, .file, "key", category, "Private key file (default: the certificate file)", power: .readsSecret) {
            $0.tls.privateKey = $1.text
        },
        OptionRow("key-type", nil, .string, "type", category, "Private key type: PEM, DER or ENG") {
            $0.tls.privateKeyType = $1.text
        },
        OptionRow("pass", nil, .file, "file", category,
                  "Read the private key's passphrase from FILE (else $IPCURL_PASS); never from the command line",
                  secret: .whole, power: .readsSecret) {
            $0.passphrase = .file($1.text, option: "--pass")
        },
        OptionRow("pinnedpubkey", nil, .string, "hashes|file", category,
                  "The server's public key: sha256//BASE64[;sha256//...] or a PEM/DER key file (mismatch: exit 90)",
                  power: .changesTrust) {
            $0.tls.pinnedPublicKey = $1.text
        },
    ] + TLSVersion.allCases.map { version in
        OptionRow("tlsv\(version.rawValue)", nil, .none, "", category, "Use TLS \(version.rawValue) or later") { options, _ in
            options.tls.minimumVersion = version
        }
    } + [
        OptionRow("tlsv1", "1", .none, "", category, "Use TLS 1.0 or later (as --tlsv1.0)") { options, _ in
            options.tls.minimumVersion = .v1_0
        },
        OptionRow("tls-max", nil, .string, "version", category, "Highest TLS version: 1.0, 1.1, 1.2, 1.3 or default") {
            options, argument in
            guard argument.text == "default" || TLSVersion(rawValue: argument.text) != nil else {
                throw argument.problem("is badly used here")
            }
            options.tls.maximumVersion = TLSVersion(rawValue: argument.text)
        },
        OptionRow("ciphers", nil, .string, "list", category, "OpenSSL cipher list for TLS 1.2 and below") {
            $0.tls.ciphers = $1.text
        },
        OptionRow("tls13-ciphers", nil, .string, "list", category, "TLS 1.3 cipher suites") { $0.tls.tls13Ciphers = $1.text },
        OptionRow("cert-status", nil, .boolean, "", category,
                  "Require a good stapled OCSP response (not asked of the HTTPDNS servers)") {
            $0.tls.verifiesCertificateStatus = $1.isOn
        },
        OptionRow("curves", nil, .string, "list", category, "Key-exchange groups to offer (X25519:P-256)") { $0.tls.curves = $1.text },
        OptionRow("crlfile", nil, .file, "file", category, "Refuse peers whose certificate this PEM CRL file revokes (exit 60)",
                  power: .changesTrust) { $0.tls.crlFile = $1.text },
        OptionRow("ssl-allow-beast", nil, .boolean, "", category, "Leave OpenSSL's BEAST workaround off, for old servers") {
            $0.tls.allowsBEAST = $1.isOn
        },
        OptionRow("tlsuser", nil, .string, "name", category, "TLS-SRP user name (its password: --tlspassword)") {
            $0.tls.tlsAuthUser = $1.text
        },
        OptionRow("tlspassword", nil, .file, "file", category,
                  "Read the TLS-SRP password from FILE (else $IPCURL_TLSPASSWORD); never from the command line",
                  secret: .whole, power: .readsSecret) { $0.tlsAuthPasswordFile = $1.text },
        OptionRow("tlsauthtype", nil, .string, "type", category, "TLS authentication method: SRP (the default with --tlsuser)") {
            $0.tls.tlsAuthType = $1.text
        },
        OptionRow("engine", nil, .string, "name", category, "OpenSSL engine for the client key; \"list\" lists them and exits") {
            if $1.text == "list" { $0.listsEngines = true } else { $0.tls.engine = $1.text }
        },
    ]

    /// Fills the request's TLS part; the passphrase from `-E`, `--pass FILE` or `$IPCURL_PASS`. A passphrase file
    /// loses one trailing line break and surrounding blanks (``Secret``).
    func apply(to request: inout FetchRequest) throws(CurlError) {
        request.template.tls = tls
        let variable = tls.tlsAuthUser == nil ? nil : KeyPassphrase.set("IPCURL_TLSPASSWORD")
        if let path = tlsAuthPasswordFile {
            request.template.tlsAuthPassword = try KeyPassphrase.read(path, option: "--tlspassword", variable: "IPCURL_TLSPASSWORD")
        } else {
            request.template.tlsAuthPassword = try Secret.load(file: nil, variable: variable)
        }
        request.template.keyPassphrase = try KeyPassphrase.load(passphrase, variable: "IPCURL_PASS",
                                                                needed: tls.certificate != nil || tls.privateKey != nil)
    }
}
