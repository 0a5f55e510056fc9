/// `-K` files as curl 7.88 reads them: CRLF line ends, a lone CR, a CR ending the last line, comments, separators,
/// text after an unquoted value; and `--parallel-max` out of range, clamped as curl clamps it.
extension DifferentialRows {
    static let configFiles: [DifferentialRow] = [
        .init("-K", "{CFG}", config: "silent\r\nrequest = PUT\r\nheader = \"X-C: a b\"\r\n# comment\r\ndata = x=1\r\nurl = \"\(echo)\"\r\n"),
        .init("-K", "{CFG}", config: "-s\r\n-X PATCH\r\n-H \"X-Q: q\"\r\nurl = \(echo)\r\nurl = \"\(echo)?second\"\r\n"),
        .init("-s", "-K", "-", "{A}/api/echo?stdin", stdin: "request = DELETE\r\nheader = \"X-S: s\"\r\n"),
        .init("-K", "{CFG}", echo, config: "silent\r\nrequest = PATCH\r"),
        .init("-K", "{CFG}", echo, config: "silent\nrequest = PUT\rrequest = DELETE\n"),
        .init("-K", "{CFG}", echo, config: "\r\n# silent off\r\n/ header = X-No: 1\r\n* request = PUT\r\n  \t\r\n-s\r\n"),
        .init("-K", "{CFG}", echo, config: "-s\r\nheader = X-U: u\r\nrequest PUT DELETE\r\nheader = \"X-V: v\" # c\r\n"),
        .init("-K", "{CFG}", echo, config: "-s\r\n-d :x\r\n--request: PUT\r\n"),
        .init("-K", "{CFG}", echo, config: "silent\r\nrequest == PUT\r\ndata :=: a\r\n"),
        .init("-K", "{CFG}", echo, config: "silent\r\noutput = /dev/null\r\nwrite-out = \"%{http_code} %{method}\\n\"\r\n"),
        .init("-K", "{CFG}", echo, config: "silent\r\ndata-binary = \"a\\tb\\\\c\\rd\"\r\n"),
        .init("-K", "{CFG}", echo, config: "silent\r\nmax-time\r\nrequest = PUT\r\n"),
        .init("-K", "{CFG}", echo, config: "silent\r\noutput = \"{DIR}/out\"\r\n"),
        .init("-sZ", "--parallel-max", "0", "-o", "{DIR}/z#1", "{A}/api/echo?n=[1-3]"),
        .init("-sZ", "--parallel-max", "1000", "-o", "{DIR}/z#1", "{A}/api/echo?n=[1-3]"),
        .init("-sZ", "--parallel-max", "-1", echo),
    ]
}
