import CurlKit
import IPCurlCore
import OptionTable

/// The target's TLS options, spelled as in curl: client certificate, pinned key, versions, ciphers, OCSP.
/// Fetch only, and never applied to the HTTPDNS queries (see ``TargetTLSOptions``).
struct TLSOptions: Sendable {
    var tls = TargetTLSOptions()
    /// Where the key's passphrase comes from; the last of `-E CERT:PASSWORD` and `--pass FILE` wins, as in curl.
    var passphrase: KeyPassphrase?

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
                  power: .readsSecret) {
            $0.passphrase = .file($1.text)
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
    ]

    /// Fills the request's TLS part; the passphrase from `-E`, `--pass FILE` or `$IPCURL_PASS`. A passphrase file
    /// loses one trailing line break and surrounding blanks (``Secret``).
    func apply(to request: inout FetchRequest) throws(CurlError) {
        request.template.tls = tls
        request.template.keyPassphrase = try KeyPassphrase.load(passphrase, variable: "IPCURL_PASS",
                                                                needed: tls.certificate != nil || tls.privateKey != nil)
    }
}
