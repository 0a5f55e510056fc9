import CurlKit
import IPCurlCore
import OptionTable

/// The TLS options of an `https://` proxy (`--proxy-cacert` … `--proxy-tlsv1`), each the proxy's counterpart of a
/// target option and kept apart from it, as in curl: `-k` never reaches the proxy, nor `--proxy-insecure` the
/// target. Secrets come from files or the environment, never the command line's text (`--proxy-pass FILE`,
/// `--proxy-tlspassword FILE`).
extension ProxyOptions {
    static let tlsRows: [OptionRow<ProxyOptions>] = [
        OptionRow("proxy-cacert", nil, .file, "file", category, "CA bundle to verify the https:// proxy with", power: .changesTrust) {
            $0.settings.tls.caFile = $1.text
        },
        OptionRow("proxy-capath", nil, .file, "dir", category, "CA directory to verify the https:// proxy with (default: --capath's)",
                  power: .changesTrust) {
            $0.settings.tls.caPath = $1.text
        },
        OptionRow("proxy-crlfile", nil, .file, "file", category, "Certificate revocation list for the https:// proxy",
                  power: .changesTrust) {
            $0.settings.tls.crlFile = $1.text
        },
        OptionRow("proxy-insecure", nil, .boolean, "", category, "Skip the https:// proxy's verification (never implied by -k)",
                  power: .skipsVerification) {
            $0.settings.tls.insecure = $1.isOn
        },
        OptionRow("proxy-pinnedpubkey", nil, .string, "hashes|file", category,
                  "The https:// proxy's public key: sha256//BASE64[;...] or a key file (mismatch: exit 90)", power: .changesTrust) {
            $0.settings.tls.pinnedPublicKey = $1.text
        },
        OptionRow("proxy-cert", nil, .string, "certificate[:password]", category,
                  "Client certificate for the https:// proxy (prefer --proxy-pass); blanked from the process list",
                  secret: .whole, power: .readsSecret) { options, argument in
            let (file, password) = ClientCertificateArgument.parse(argument.text)
            options.settings.tls.certificate = file
            if let password { options.passphrase = .inline(password, origin: "--proxy-cert") }
        },
        OptionRow("proxy-cert-type", nil, .string, "type", category, "Proxy client certificate type: PEM, DER or P12") {
            $0.settings.tls.certificateType = $1.text
        },
        OptionRow("proxy-key", nil, .file, "key", category, "Proxy client private key (default: the certificate file)",
                  power: .readsSecret) {
            $0.settings.tls.privateKey = $1.text
        },
        OptionRow("proxy-key-type", nil, .string, "type", category, "Proxy client private key type: PEM, DER or ENG") {
            $0.settings.tls.privateKeyType = $1.text
        },
        OptionRow("proxy-pass", nil, .file, "file", category,
                  "Read the proxy key's passphrase from FILE (else $IPCURL_PROXY_PASS); never from the command line",
                  secret: .whole, power: .readsSecret) {
            $0.passphrase = .file($1.text, option: "--proxy-pass")
        },
        OptionRow("proxy-ciphers", nil, .string, "list", category, "OpenSSL cipher list for the https:// proxy (TLS 1.2 and below)") {
            $0.settings.tls.ciphers = $1.text
        },
        OptionRow("proxy-tls13-ciphers", nil, .string, "list", category, "TLS 1.3 cipher suites for the https:// proxy") {
            $0.settings.tls.tls13Ciphers = $1.text
        },
        OptionRow("proxy-ssl-allow-beast", nil, .boolean, "", category, "Leave OpenSSL's BEAST workaround off for the https:// proxy") {
            $0.settings.tls.allowsBeast = $1.isOn
        },
        OptionRow("proxy-tlsv1", nil, .none, "", category, "Use TLS 1.0 or later with the https:// proxy") { options, _ in
            options.settings.tls.tlsv1 = true
        },
        OptionRow("proxy-tlsauthtype", nil, .string, "type", category, "TLS authentication with the https:// proxy: SRP") {
            options, argument in
            // As curl: SRP is the only type; anything else is its "not supported" usage error.
            guard argument.text.lowercased() == "srp" else { throw argument.problem("the installed libcurl version doesn't support this") }
            options.settings.tls.authType = argument.text
        },
        OptionRow("proxy-tlsuser", nil, .string, "name", category, "TLS-SRP user name for the https:// proxy", secret: .whole) {
            $0.settings.tls.srpUser = $1.text
        },
        OptionRow("proxy-tlspassword", nil, .file, "file", category,
                  "Read the TLS-SRP password from FILE (else $IPCURL_PROXY_TLSPASSWORD); never from the command line",
                  secret: .whole, power: .readsSecret) {
            $0.srpPasswordFile = $1.text
        },
    ]
}
