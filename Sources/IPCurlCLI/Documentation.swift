import HTTPDNS
import OptionTable

/// The man page and shell completions of ipcurl, rendered from the same option tables the parser reads, so
/// every option is documented and completed exactly as it is parsed. `ipcurl-docs` writes them at build time.
public enum Documentation {
    /// Every subcommand with its usage line, summary and options, in the registry's order (fetch, the default, first).
    public static var subcommands: [SubcommandSummary] { Subcommands.all.map { $0.documentSummary } }

    /// The exit-code table (``ExitCodes/table``): code, curl's name without `CURLE_`, meaning.
    public static var exitCodes: [ExitCodeRow] { ExitCodes.table }

    /// The `resolver:` keys a targets file may not say, each with what its option does (``CheckTargetsFile``).
    public static var targetsFileRefusals: [(key: String, reason: String)] { CheckTargetsFile.refusedKeys }

    /// `ipcurl.1`.
    public static func manPage() -> String { page.render() }

    /// The manual as plain text, what `ipcurl --manual` prints.
    public static func manualText() -> String { page.renderText() }

    private static var page: ManPage {
        ManPage(program: "ipcurl", tagline: "HTTPS IP-direct client: resolve through HTTPDNS or DoH, connect to the IP, keep SNI, Host and verification on the name",
                description: [
                    "ipcurl transfers URLs as curl does, with curl's options and exit codes, but resolves each URL's host through HTTPDNS (Alibaba Cloud, Tencent DNSPod), DNS-over-HTTPS or a resolver command instead of the system resolver, and hands libcurl the answer as CURLOPT_RESOLVE entries: SNI, the Host header and certificate verification stay on the name.",
                    "Without a resolver option or IPCURL_DNS it asks \(DoHResolver.defaultServers.joined(separator: " then ")). When HTTPDNS gives no usable address the system resolver is asked, with a warning, unless --no-fallback is given (exit 6).",
                    "Options follow curl's grammar: short options group (-sSLo file), values may be attached (-m5, -XPOST), --opt=value works, a unique prefix names its option, --no-OPT turns a boolean off, -- ends the options. -K FILE reads options in curl's config syntax (LF or CRLF line ends); a fetch first reads $XDG_CONFIG_HOME/ipcurl/config (~/.config/ipcurl/config when XDG_CONFIG_HOME is unset or empty), else ~/.ipcurlrc, unless the first argument is -q (or starts with it) or --disable.",
                ],
                subcommands: subcommands,
                extraSections: [
                    ("Exit status", ExitCodes.table.map { ($0.code, "\($0.name): \($0.summary)") }),
                    ("Environment", [
                        ("IPCURL_DNS", "The resolver when no resolver option is given, e.g. aliyun:ACCOUNT or doh:URL."),
                        ("IPCURL_CACHE_DIR, XDG_CACHE_HOME, HOME", "Where answers are cached: $IPCURL_CACHE_DIR (an absolute path; a relative one is a usage error), else $XDG_CACHE_HOME/ipcurl, else ~/.cache/ipcurl."),
                        ("XDG_CONFIG_HOME, HOME", "The default config file: $XDG_CONFIG_HOME/ipcurl/config, or ~/.config/ipcurl/config when XDG_CONFIG_HOME is unset or empty; else ~/.ipcurlrc."),
                        ("IPCURL_HTTPDNS_SECRET, IPCURL_ALIYUN_AES_KEY, IPCURL_DNSPOD_KEY, IPCURL_DNSPOD_TOKEN, IPCURL_PASS, IPCURL_TLSPASSWORD, IPCURL_PROXY_PASS, IPCURL_PROXY_TLSPASSWORD", "Secrets, when their file options are not given."),
                        ("IPCURL_OAUTH2_BEARER", "The bearer token, read when --oauth2-bearer is given as \"\"."),
                        ("CURL_CA_BUNDLE, SSL_CERT_DIR, SSL_CERT_FILE", "Trust, as curl reads them, when no trust option is given."),
                        ("http_proxy, https_proxy, ALL_PROXY, NO_PROXY", "Proxies as libcurl reads them; through a proxy the proxy resolves the name."),
                        ("NO_COLOR", "No colour in check's text report."),
                    ]),
                    ("Files", [
                        ("$XDG_CONFIG_HOME/ipcurl/config (~/.config/ipcurl/config), ~/.ipcurlrc", "Options read before a fetch's command line: the first that can be read. It must be owned by the user or root and writable by nobody else (else exit 2), as ssh wants ~/.ssh/config."),
                        ("$IPCURL_CACHE_DIR, $XDG_CACHE_HOME/ipcurl, ~/.cache/ipcurl", "The HTTPDNS answer cache (ipcurl cache list|clear)."),
                    ]),
                    ("See also", [("", "curl(1)")]),
                ])
    }

    /// The completion scripts: bash, zsh and fish.
    public static func completions() -> (bash: String, zsh: String, fish: String) {
        let completions = Completions(program: "ipcurl", subcommands: subcommands, defaultName: Subcommands.defaultName,
                                      extraWords: ["help"])
        return (completions.bash(), completions.zsh(), completions.fish())
    }
}
