import OptionTable

/// curl 7.88's options that cannot change an HTTP(S) transfer through ipcurl: those of the protocols ipcurl does
/// not speak (FTP, SMTP, IMAP, POP3, TFTP, TELNET, SSH, LDAP) and those of other builds of libcurl (Schannel,
/// Secure Transport, c-ares, HTTP/3). A shared option list keeps working: each is parsed as curl parses it (a value
/// taken, a number checked) and gives one warning saying why it has no effect; the options curl 7.88 itself
/// refuses with this libcurl (`--http3`, `--dns-servers`, `--metalink`) are refused the same way (exit 2).
/// - SeeAlso: curl's `src/tool_getparam.c` (`aliases[]`), `docs/differences.md` ("Options without effect").
struct IgnoredOptions: Sendable {
    /// One warning per option given, in command-line order.
    var warnings: [String] = []

    static let category = OptionCategory("other", "curl options for other protocols and builds: accepted, without effect")

    /// Why an option has no effect (the warning's end), or that curl refuses it with this libcurl.
    enum Reason: Sendable {
        case protocols(String)
        case build(String)
        case refused(String)

        var text: String {
            switch self {
            case .protocols(let names): "it is for \(names), and ipcurl speaks HTTP and HTTPS only"
            case .build(let why), .refused(let why): why
            }
        }
    }

    private static let ftp = Reason.protocols("FTP")
    private static let mail = Reason.protocols("SMTP, IMAP and POP3")
    private static let ssh = Reason.protocols("SCP and SFTP")
    private static let schannel = Reason.build("it is for Schannel (Windows) builds; this libcurl uses OpenSSL")
    private static let noCAres = Reason.refused("the installed libcurl version doesn't support this")

    /// Every such option: long name, short letter, what it takes, and why it has no effect.
    static let table: [(long: String, short: Character?, argument: ArgumentKind, reason: Reason)] = [
        ("ftp-account", nil, .string, ftp), ("ftp-alternative-to-user", nil, .string, ftp),
        ("ftp-create-dirs", nil, .boolean, ftp), ("ftp-method", nil, .string, ftp), ("ftp-pasv", nil, .boolean, ftp),
        ("ftp-port", "P", .string, ftp), ("ftp-pret", nil, .boolean, ftp), ("ftp-skip-pasv-ip", nil, .boolean, ftp),
        ("ftp-ssl-ccc", nil, .boolean, ftp), ("ftp-ssl-ccc-mode", nil, .string, ftp), ("ftp-ssl-control", nil, .boolean, ftp),
        ("disable-eprt", nil, .boolean, ftp), ("disable-epsv", nil, .boolean, ftp), ("krb", nil, .string, ftp),
        ("quote", "Q", .string, .protocols("FTP and SFTP")), ("append", "a", .boolean, .protocols("FTP and SFTP uploads")),
        ("use-ascii", "B", .boolean, .protocols("FTP and LDAP")), ("list-only", "l", .boolean, .protocols("FTP and POP3")),
        ("ssl", nil, .boolean, .protocols("FTP, IMAP, POP3, SMTP and LDAP (https is TLS already)")),
        ("ssl-reqd", nil, .boolean, .protocols("FTP, IMAP, POP3, SMTP and LDAP (https is TLS already)")),
        ("mail-from", nil, .string, .protocols("SMTP")), ("mail-rcpt", nil, .string, .protocols("SMTP")),
        ("mail-rcpt-allowfails", nil, .boolean, .protocols("SMTP")), ("mail-auth", nil, .string, .protocols("SMTP")),
        ("sasl-authzid", nil, .string, mail), ("sasl-ir", nil, .boolean, mail), ("login-options", nil, .string, mail),
        ("tftp-blksize", nil, .number, .protocols("TFTP")), ("tftp-no-options", nil, .boolean, .protocols("TFTP")),
        ("telnet-option", "t", .string, .protocols("TELNET")),
        ("compressed-ssh", nil, .boolean, ssh), ("hostpubmd5", nil, .string, ssh), ("hostpubsha256", nil, .string, ssh),
        ("pubkey", nil, .string, ssh), ("create-file-mode", nil, .string, .protocols("SFTP, SCP and FILE")),
        ("false-start", nil, .boolean, .build("TLS False Start needs a Secure Transport build; this libcurl uses OpenSSL")),
        ("ssl-no-revoke", nil, .boolean, schannel), ("ssl-revoke-best-effort", nil, .boolean, schannel),
        ("ssl-auto-client-cert", nil, .boolean, schannel), ("proxy-ssl-auto-client-cert", nil, .boolean, schannel),
        ("random-file", nil, .file, .build("libcurl 7.84 and later ignore it")),
        ("egd-file", nil, .file, .build("libcurl 7.84 and later ignore it")),
        ("sslv2", "2", .none, .build("SSLv2 is not supported (curl ignores it too)")),
        ("sslv3", "3", .none, .build("SSLv3 is not supported (curl ignores it too)")),
        ("npn", nil, .boolean, .build("libcurl has no NPN (curl ignores it too)")),
        ("styled-output", nil, .boolean, .build("ipcurl writes headers without styles")),
        ("libcurl", nil, .file, .build("ipcurl writes no libcurl source code")),
        ("http3", nil, .none, noCAres), ("http3-only", nil, .none, noCAres), ("dns-servers", nil, .string, noCAres),
        ("dns-interface", nil, .string, noCAres), ("dns-ipv4-addr", nil, .string, noCAres),
        ("dns-ipv6-addr", nil, .string, noCAres), ("metalink", nil, .boolean, .refused("is disabled")),
    ]

    static let rows: [OptionRow<IgnoredOptions>] = table.map { entry in
        let help: String
        switch entry.reason {
        case .refused(let why): help = "Refused, as curl 7.88 refuses it here: \(why)"
        default: help = "No effect: " + entry.reason.text
        }
        return OptionRow(entry.long, entry.short, entry.argument, entry.argument.takesValue ? "value" : "", category, help,
                         repeatable: true) { options, argument in
            if case .refused(let why) = entry.reason { throw argument.problem(why) }
            if entry.argument == .number { _ = try argument.integer(in: 0...Int(Int32.max)) }
            if entry.long == "create-file-mode" { try Self.checkMode(argument) }
            // A boolean turned off asks for what ipcurl does anyway (--no-npn warns, as curl's does).
            guard argument.isOn || entry.long == "npn" else { return }
            options.warnings.append("\(argument.spelling) has no effect: \(entry.reason.text)")
        }
    }

    /// `--create-file-mode`'s value as curl checks it: octal, at most 0777.
    private static func checkMode(_ argument: OptionArgument) throws(OptionError) {
        guard !argument.text.isEmpty, argument.text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x37 }),
              let mode = Int(argument.text, radix: 8), mode <= 0o777 else {
            throw argument.problem("expected a proper numerical parameter")
        }
    }
}
