/// curl 7.88's request, connection, condition, output and TLS options that `ipcurl` takes as curl does, and the
/// options of other protocols and builds it accepts without effect (same exit code and stdout; the warning is on
/// stderr) or refuses as curl refuses them here.
extension DifferentialRows {
    static let file = "{A}/files/text.txt"

    static let options: [DifferentialRow] = requestLine + conditions + outputs + tls + ignored

    /// The request line, the connection and the body's encoding.
    static let requestLine: [DifferentialRow] = [
        ["--url-query", "a=b c"], ["--url-query", "+a=b c"], ["--url-query", "n@{FILE}"], ["--url-query", "x=1", "--url-query", "=y z"],
        ["--request-target", "/api/echo?t=1"], ["-X", "OPTIONS", "--request-target", "*"], ["--tr-encoding"],
        ["--no-alpn", "-w", "%{http_version}"], ["--http2-prior-knowledge", "-w", "%{http_version}", "{H}/api/echo"],
        ["--http0.9"], ["--no-http0.9"], ["-Y", "1", "-y", "5"], ["--speed-limit", "1"], ["--speed-time", "5"],
        ["--no-keepalive"], ["--keepalive-time", "5"], ["--tcp-fastopen"], ["--no-tcp-nodelay"], ["--no-sessionid"],
        ["--expect100-timeout", "0.5", "-T", "{FILE}"], ["--crlf", "-T", "{FILE}"], ["--crlf", "-d", "a\nb"],
        ["--form-escape", "-F", "we\"ird=1", "{A}/api/form"], ["-F", "we\"ird=1", "{A}/api/form"],
        ["--parallel-immediate", "-Z"], ["-#"], ["--progress-bar"], ["--remove-on-error"],
        ["--rate", "100/s", "{A}/api/echo?1", "{A}/api/echo?2"], ["--rate", "1/q"], ["--rate", "0"], ["--rate", "x/s"],
        ["-Y", "x"], ["--keepalive-time", "-1"], ["--expect100-timeout", "x"],
        ["--haproxy-protocol", "-w", "%{http_code}"], ["--haproxy-protocol", "-w", "%{http_code}", "{H}/api/echo"],
    ].map { DifferentialRow(arguments: ["-s"] + $0 + ($0.contains { $0.hasPrefix("{") } ? [] : [echo])) }

    /// `-z`, `--etag-compare`, `--etag-save`.
    static let conditions: [DifferentialRow] = [
        ["-z", "Sun, 06 Nov 1994 08:49:37 GMT", echo], ["-z", "-Sun, 06 Nov 1994 08:49:37 GMT", echo],
        ["-z", "=Sun, 06 Nov 1994 08:49:37 GMT", echo], ["-z", "{FILE}", echo], ["-z", "no such date or file", echo],
        ["-z", "Sun, 06 Nov 1994 08:49:37 GMT", "-w", "%{http_code}", file],
        ["-z", "Sun, 06 Nov 2044 08:49:37 GMT", "-w", "%{http_code}", file],
        ["--etag-save", "{DIR}/etag", "-o", "/dev/null", file], ["--etag-save", "-", "-o", "/dev/null", file],
        ["--etag-compare", "{DIR}/none", echo], ["--etag-compare", "{DIR}/none", "--etag-save", "{DIR}/etag", "-w", "%{http_code}", file],
        ["--etag-compare", "{FILE}", echo], ["--etag-save", "{DIR}/no/such/dir/etag", echo],
    ].map { DifferentialRow(arguments: ["-s"] + $0) }

    /// `--no-clobber`, `-R`, `--xattr`, `-i`/`-I` with `-J`, glob steps.
    static let outputs: [DifferentialRow] = [
        ["-o", "{DIR}/out", file, "--next", "{PINS}", "--no-clobber", "-o", "{DIR}/out", echo],
        ["--no-clobber", "-o", "{DIR}/new", echo], ["-R", "-o", "{DIR}/stamped", file], ["--xattr", "-o", "{DIR}/x", echo],
        ["-i", "-O", "-J", echo], ["-I", "-J", echo], ["-J", "-C", "-", "-O", echo],
        ["{A}/api/echo?[1-3:5]"], ["{A}/api/echo?[a-c:3]"], ["{A}/api/echo?[1-1:2]"], ["{A}/api/echo?[1-5:2]"],
    ].map { DifferentialRow(arguments: ["-s"] + $0) }

    /// The target's TLS: curves, a CRL file, an engine, BEAST, TLS-SRP.
    static let tls: [DifferentialRow] = [
        ["--curves", "X25519", "-w", "%{http_code}"], ["--curves", "bogus"], ["--crlfile", "{DIR}/none.pem"],
        ["--engine", "nonexistent"], ["--engine", "list"], ["--ssl-allow-beast", "-w", "%{http_code}"], ["--tlsuser", "u"],
    ].map { DifferentialRow(arguments: ["-sS"] + $0 + [echo]) }

    /// Options for other protocols and builds: no effect (a warning on stderr), or refused as curl refuses them.
    static let ignored: [DifferentialRow] = [
        ["--ftp-pasv"], ["-P", "-"], ["--ftp-port", "x", "--ftp-create-dirs", "--ftp-method", "nocwd"], ["-Q", "NOOP"],
        ["--mail-from", "a@b.test", "--mail-rcpt", "c@d.test"], ["--tftp-blksize", "512"], ["--tftp-blksize", "x"],
        ["-t", "TTYPE=vt100"], ["--pubkey", "k", "--hostpubsha256", "x"], ["--ssl-reqd"], ["--ssl"], ["-2"], ["-3"],
        ["--no-npn"], ["--false-start"], ["--ssl-no-revoke"], ["--ssl-auto-client-cert"], ["--random-file", "x"],
        ["--egd-file", "x"], ["--styled-output"], ["--no-styled-output"], ["--libcurl", "/dev/null"], ["--krb", "clear"],
        ["--create-file-mode", "0644"], ["--create-file-mode", "999"], ["--sasl-ir", "--login-options", "AUTH=*"],
        ["--http3"], ["--http3-only"], ["--dns-servers", "127.0.0.1"], ["--dns-ipv4-addr", "127.0.0.1"], ["--metalink"],
        ["-l", "-B", "-a"], ["--disable-epsv", "--disable-eprt", "--ftp-pasv"],
    ].map { DifferentialRow(arguments: ["-s"] + $0 + [echo]) }
}
