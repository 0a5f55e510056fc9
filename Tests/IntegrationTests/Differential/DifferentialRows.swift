/// The differential suite's command lines: curl's grammar, the options scripts use, several URLs, errors.
enum DifferentialRows {
    static let echo = "{A}/api/echo"
    static let equalsForm = "--opt=value: curl 7.88 reads --request=PATCH as an unknown option (exit 2); ipcurl takes the value, as later curls and most CLIs do"

    static var all: [DifferentialRow] {
        grammar + writeOut + data + forms + headers + redirects + failures + transfers + several + errors + config + configFiles
            + viaDoH + sharedState + inputs + authAndProtocols + routing + options
    }

    /// Grouped short options, attached values, `=` forms, prefixes, `--no-`, `--`.
    static let grammar: [DifferentialRow] = [
        .init("-sS", echo), .init("-sSf", echo), .init("-sSL", echo), .init("-sSo/dev/null", echo),
        .init("-sSo{DIR}/out", echo), .init("-s", "-m5", echo), .init("-s", "-m", "5", echo), .init("-sXPOST", echo),
        .init("-s", "-XPUT", echo), .init("-s", "-X", "DELETE", echo), .init("-s", "--request=PATCH", echo, kept: equalsForm),
        .init("-s", "-d@{FILE}", echo), .init("-s", "-d", "-1", echo), .init("-s", "-d", "--x", echo),
        .init("-s", "-w", "--> %{http_code}", "-o", "/dev/null", echo), .init("-sw%{http_code}", "-o/dev/null", echo),
        .init("--sil", echo), .init("--verb", "--no-verbose", "-s", echo), .init("-s", "--max-ti", "3", echo),
        .init("-s", "--no-location", echo), .init("-s", "--no-include", "-i", "-o", "/dev/null", echo),
        .init("-s", "--", echo), .init("-s", "--url", echo), .init("-s", "--url=\(echo)", kept: equalsForm),
        .init("-sSi", "-o", "/dev/null", "-w", "%{http_code}", echo), .init("-s", "--compressed", echo),
        .init("-s", "-0", "{H}/api/echo"), .init("-s", "--http1.1", echo), .init("-s", "--http2", echo),
        .init("-s", "--http1.0", "{H}/api/echo"), .init("-s", "-A", "custom/1", echo), .init("-s", "-A", "", echo),
        .init("-s", "-e", "https://ref.test/", echo), .init("-s", "-u", "user:pw", echo), .init("-s", "-uuser:pw", echo),
        .init("-s", "-b", "a=1", echo), .init("-s", "-b", "a=1; b=2", echo), .init("-s", "-b", "a=1", "-b", "c=3", echo),
        .init("-s", "-I", echo), .init("-s", "-G", "-d", "q=1", echo), .init("-s", "-Gd", "q=1", "-d", "r=2", echo),
        .init("-s1", echo), .init("-s", "--tlsv1", "--tls-max", "1.2", "-w", "%{http_version}", echo),
    ]

    /// `-w` variables that do not depend on timing.
    static let writeOut: [DifferentialRow] = [
        "http_code", "response_code", "size_download", "content_type", "url_effective", "num_redirects", "method",
        "http_version", "scheme", "exitcode", "num_headers", "size_upload", "redirect_url", "url", "urlnum",
        "filename_effective", "ssl_verify_result", "remote_port", "num_connects", "num_certs",
    ].flatMap { variable in
        [DifferentialRow("-s", "-o", "/dev/null", "-w", "%{\(variable)}\\n", echo),
         DifferentialRow("-s", "-o", "/dev/null", "-d", "x=1", "-w", "%{\(variable)}\\n", "{A}/api/status?code=404")]
    } + [
        .init("-s", "-o", "/dev/null", "-w", "%header{content-type}", echo),
        .init("-s", "-o", "/dev/null", "-w", "%{stdout}out%{stderr}err", echo),
        .init("-s", "-o", "/dev/null", "-w", "%{http_code} %{errormsg}\\n", "http://127.0.0.1:1/"),
        .init("-s", "-o", "/dev/null", "-w", "%{exitcode}\\n", "http://127.0.0.1:1/"),
        .init("-s", "-o", "/dev/null", "-w", "%{onerror}failed %{exitcode}", "http://127.0.0.1:1/"),
        .init("-s", "-o", "/dev/null", "-w", "%{onerror}failed", echo),
    ]

    /// The `-d` family, `--json`, `-G`.
    static let data: [DifferentialRow] = [
        ["-d", "a=1"], ["--data", "a=1"], ["--data-ascii", "a=1"], ["--data-raw", "@lit"], ["--data-binary", "@{BIN}"],
        ["-d", "@{BIN}"], ["--data-binary", "a\nb"], ["-d", "a=1", "-d", "b=2"], ["-d", "a", "--data-binary", "b", "-d", "c"],
        ["--data-urlencode", "hello world"], ["--data-urlencode", "=x y"], ["--data-urlencode", "n=a b&c/é~*"],
        ["--data-urlencode", "@{FILE}"], ["--data-urlencode", "n@{FILE}"], ["--data-urlencode", "a=1", "-d", "b=2"],
        ["--json", "{\"a\":1}"], ["--json", "1", "--json", "2"], ["--json", "@{FILE}"], ["-d", "x", "--json", "y"],
        ["-G", "--data-urlencode", "q=a b"], ["-G", "--json", "j"], ["-d", "", "-X", "PUT"], ["-d", "x", "-X", "GET"],
        ["-T", "{FILE}"], ["-T", "{BIN}", "-X", "POST"], ["-d", "@-"], ["--data-binary", "@-"],
    ].map { DifferentialRow(arguments: ["-s"] + $0 + [echo], stdin: $0.contains { $0.hasSuffix("@-") } ? "from stdin\n" : nil) }

    /// `-F` and `--form-string`, seen part by part by `/api/form`.
    static let forms: [DifferentialRow] = [
        ["-F", "a=1"], ["-F", "a=1", "-F", "b=2"], ["-F", "f=@{FILE}"], ["-F", "f=@{FILE};type=text/x"],
        ["-F", "f=@{FILE};filename=other.txt"], ["-F", "f=<{FILE}"], ["-F", "k=\"a;b\""], ["-F", "k=v;type=a/b;charset=x"],
        ["-F", "f=@{FILE};headers=\"X-A: 1\""], ["--form-string", "k=@notafile"], ["-F", "a=1", "--form-string", "b=<x"],
        ["-F", "k=v;encoder=base64"], ["-F", "e="],
    ].map { DifferentialRow(arguments: ["-s"] + $0 + ["{A}/api/form"]) }

    /// `-H` forms.
    static let headers: [DifferentialRow] = [
        ["-H", "X-A: 1"], ["-H", "X-A: 1", "-H", "X-B: 2"], ["-H", "Accept:"], ["-H", "X-Empty;"], ["-H", "User-Agent: h"],
        ["-H", "Host: a.test"], ["-H", "@{HEADERS}"], ["-H", "X-A:  spaced  "], ["-H", "Content-Type: text/x", "-d", "b"],
        ["-H", "accept: text/plain"],
    ].map { DifferentialRow(arguments: ["-s"] + $0 + [echo]) }

    /// Redirects: each status with GET and POST, -L or not, the --post30x keepers and the limit.
    static let redirects: [DifferentialRow] = [301, 302, 303, 307, 308].flatMap { code -> [DifferentialRow] in
        let hop = "{A}/api/redirect?code=\(code)&to=%2Fapi%2Fecho"
        let cross = "{A}/api/redirect?code=\(code)&to=https%3A%2F%2Fb.test%3A{PORT}%2Fapi%2Fecho"
        return [.init("-s", hop), .init("-sL", hop), .init("-sL", "-d", "x=1", hop), .init("-sL", "-d", "x=1", "--post\(code == 307 || code == 308 ? 301 : code)", hop),
                .init("-sL", "-w", "%{num_redirects} %{url_effective}", "-o", "/dev/null", cross),
                .init("-sL", "-u", "u:p", cross)]
    } + [
        .init("-sL", "--max-redirs", "0", "{A}/api/redirect?code=302&to=%2Fapi%2Fecho"),
        .init("-sL", "--max-redirs", "2", "{A}/api/loop"), .init("-sL", "--max-redirs", "-1", "-m", "2", "-o", "/dev/null", "{A}/api/redirect?code=302&to=%2Fapi%2Fecho"),
        .init("-sL", "-X", "PUT", "{A}/api/redirect?code=302&to=%2Fapi%2Fecho"),
        .init("-sL", "-e", ";auto", "{A}/api/redirect?code=302&to=%2Fapi%2Fecho"),
        .init("-sI", "-L", "{A}/api/redirect?code=302&to=%2Fapi%2Fecho"),
    ]

    /// Failing statuses with and without -f and --fail-with-body.
    static let failures: [DifferentialRow] = [404, 500, 503].flatMap { code in
        [[], ["-f"], ["--fail-with-body"], ["-f", "-w", "%{http_code}"]].map { extra in
            DifferentialRow(arguments: ["-s"] + extra + ["{A}/api/status?code=\(code)"])
        }
    } + [.init("-s", "--retry", "2", "--retry-delay", "0", "{A}/api/flaky?key={KEY}&fails=1"),
         .init("-s", "--retry", "1", "--retry-delay", "0", "-w", "%{http_code}", "{A}/api/flaky?key={KEY}&fails=3"),
         .init("-sf", "--retry", "3", "--retry-delay", "0", "{A}/api/flaky?key={KEY}&fails=2&code=500"),
         .init("-s", "--retry-all-errors", "--retry", "1", "--retry-delay", "0", "{A}/api/flaky?key={KEY}&fails=1&code=404")]

    /// Ranges, limits, resume, output files.
    static let transfers: [DifferentialRow] = [
        .init("-s", "-r", "0-15", "{A}/files/big.bin"), .init("-s", "-r", "-16", "{A}/files/big.bin"),
        .init("-s", "--max-filesize", "100", "{A}/files/big.bin"), .init("-s", "--limit-rate", "50m", "-r", "0-99999", "{A}/files/big.bin"),
        .init("-s", "-C", "67108800", "{A}/files/big.bin"), .init("-s", "--path-as-is", "{A}/api/../api/echo"),
        .init("-s", "{A}/api/./x/../echo"), .init("-s", "--raw", echo), .init("-s", "-N", echo),
        .init("-s", "-o", "{DIR}/one", echo), .init("-s", "-O", "--output-dir", "{DIR}", echo),
        .init("-s", "--create-dirs", "-o", "{DIR}/a/b/c", echo), .init("-s", "-D", "{DIR}/h", "-o", "{DIR}/b", echo),
        .init("-s", "-D", "-", "-o", "/dev/null", "{A}/api/status?code=201"), .init("-s", "-i", "{A}/api/status?code=202"),
        .init("-s", "-OJ", "--output-dir", "{DIR}", "{A}/api/attachment?name=named.txt"),
        .init("-s", "-c", "{DIR}/jar", "-o", "/dev/null", "{A}/api/set-cookie?k=v"),
        .init("-s", "-c", "-", "{A}/api/set-cookie?k=v"), .init("-s", "-b", "{COOKIES}", echo),
        .init("-s", "--fail-with-body", "-o", "{DIR}/f", "{A}/api/status?code=500"),
        .init("-s", "-f", "-o", "{DIR}/f", "{A}/api/status?code=500"),
    ]

    /// Several URLs, outputs paired, globbing, --next, parallel.
    static let several: [DifferentialRow] = [
        .init("-s", echo, "{A}/api/status?code=201"), .init("-s", "-o", "{DIR}/1", "-o", "{DIR}/2", echo, "{B}/api/echo"),
        .init("-s", "-o", "{DIR}/only", echo, "{A}/api/status?code=204"), .init("-s", "-O", "-o", "{DIR}/x", "--output-dir", "{DIR}", echo),
        .init("-s", "--remote-name-all", "--output-dir", "{DIR}", echo, "{A}/api/status?code=200"),
        .init("-s", "-w", "%{url_effective}\\n", "-o", "/dev/null", "{A}/api/echo?n=[1-3]"),
        .init("-s", "-w", "%{url_effective}\\n", "-o", "/dev/null", "{A}/api/echo?{a,b}=[01-03:2]"),
        .init("-s", "-o", "{DIR}/g_#1_#2", "{A}/api/echo?{x,y}=[1-2]"), .init("-sg", "-w", "%{url_effective}", "-o", "/dev/null", "{A}/api/echo?[x]"),
        .init("-s", "{A}/api/status?code=[200-201]"), .init("-s", echo, "--next", "{PINS}", "-s", "-X", "PUT", echo),
        .init("-s", "-o", "/dev/null", "http://127.0.0.1:1/", echo), .init("-s", "-o", "/dev/null", echo, "http://127.0.0.1:1/"),
        .init("-s", "--fail-early", "-o", "/dev/null", "http://127.0.0.1:1/", echo),
        .init("-sZ", "-o", "{DIR}/p#1", "{A}/api/echo?n=[1-4]"), .init("-sZ", "--parallel-max", "2", "-o", "/dev/null", "-o", "/dev/null", "http://127.0.0.1:1/", echo),
    ]

    /// Usage errors and transfer failures: the exit code and stdout must match.
    static let errors: [DifferentialRow] = [
        .init("--nope", echo), .init("-j", echo), .init(echo, "-o"), .init("-m", "soon", echo), .init("--retry", "x", echo),
        .init("--max-redirs", "-2", echo), .init("-s", "http://127.0.0.1:1/"), .init("-s", "-m", "1", "{A}/api/delay?ms=3000"),
        .init("-s", "--connect-timeout", "0", echo), .init("-s", "-m", "0", echo), .init("-s", "https://a.test:{PORT}/[1-"),
        .init("-s", "https://a.test:{PORT}/{a"), .init("-s", "https://a.test:{PORT}/x]"), .init("-s", "-d", "a", "-F", "b=c", echo),
        .init("-s", "-I", "-d", "a", echo), .init("-s", "-f", "--fail-with-body", echo), .init("-s", "-d", "@{DIR}/absent", echo),
        .init("-s", "-T", "{DIR}/absent", echo), .init("-s", "-K", "{DIR}/absent", echo), .init("-s", "--cacert", "{DIR}/absent", echo),
        .init("-s", "-O", "{A}/"), .init("-s", "-w", "%{http_code}", "https://a.test:{PORT}/api/echo#frag"),
        .init("-s", "--limit-rate", "fast", echo), .init("-s", "-C", "x", echo),
    ]

    /// `-K` config files.
    static let config: [DifferentialRow] = [
        .init("-K", "{CFG}", config: "silent\nurl = \"\(echo)\"\n"),
        .init("-K", "{CFG}", echo, config: "-s\n--request PUT\nheader = \"X-C: a b\"\n# comment\n"),
        .init("-K", "{CFG}", config: "silent\ndata = \"x=1\"\nurl \(echo)\nurl = \(echo)?second\n"),
        .init("-s", "-K", "-", echo, stdin: "request = DELETE\n"),
        .init("-K", "{CFG}", echo, config: "max-time = soon\n"),
        .init("-K", "{CFG}", echo, config: "-sX PATCH\n-sH \"X-G: grouped\"\n"),
        .init("-K", "{CFG}", "-w", "%{http_code}", echo, config: "-so /dev/null\n"),
        .init("-K", "{CFG}", "http://127.0.0.1:1/", config: "-sS\n"),
        .init("-K", "{CFG}", "http://127.0.0.1:1/", config: "-sf\n-Y\n"),
    ]

    /// Lines where ipcurl resolves through the lab's DoH server: the request is the same.
    static let viaDoH: [DifferentialRow] = [
        ["-s"], ["-sI"], ["-s", "-d", "a=1"], ["-sL"], ["-s", "-H", "X-A: 1"], ["-s", "-u", "u:p"],
        ["-s", "-w", "%{http_code} %{size_download}"], ["-s", "--json", "{}"], ["-s", "-G", "-d", "q=1"], ["-s", "-X", "PATCH"],
        ["-s", "-b", "a=1"], ["-s", "--compressed"], ["-s", "--http1.1"], ["-s", "-r", "0-5"], ["-s", "-e", "https://r/"],
        ["-s", "-A", "doh/1"], ["-s", "-T", "{FILE}"], ["-s", "--data-urlencode", "a b"], ["-s", "-o", "{DIR}/d"],
    ].map { DifferentialRow(arguments: $0 + [$0.contains("-r") ? "{A}/files/big.bin" : echo], viaDoH: true) }
        + [DifferentialRow(arguments: ["-s", "-F", "f=@{FILE}", "{A}/api/form"], viaDoH: true)]
}
