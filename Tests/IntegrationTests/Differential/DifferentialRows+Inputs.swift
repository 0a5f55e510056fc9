/// Inputs and uploads of a command line with several URLs: stdin read once and sent to every URL, `-T` paired with
/// the URLs, a list of files in one `-F` part, and files that are not regular files (a pipe, a FIFO, `/dev/stdin`).
extension DifferentialRows {
    static let form = "{A}/api/form"
    /// A directory URL: `-T FILE` appends the file's name to it.
    static let folder = "{A}/api/echo/"

    static var inputs: [DifferentialRow] { readOnce + pairedUploads + fileLists + streams }

    /// Stdin read once per operation, sent to every URL (globbed ones too); the option naming it first gets it.
    static let readOnce: [DifferentialRow] = [
        ["-d", "@-"], ["--data-binary", "@-"], ["--data-urlencode", "q@-"], ["--json", "@-"], ["-H", "@-"],
        ["-G", "-d", "@-"], ["-H", "@-", "-d", "@-"], ["-d", "@-", "-H", "@-"], ["-d", "@-", "--data-urlencode", "q@-"],
    ].map { DifferentialRow(arguments: ["-s"] + $0 + [echo, "{B}/api/echo"], stdin: "X-Stdin: one two\n") } + [
        .init("-s", "-d", "@-", "{A}/api/echo?n=[1-3]", stdin: "abc"),
        .init("-s", "-H", "@-", "{A}/api/echo?{x,y}", stdin: "X-Glob: 1\n"),
        // curl 7.88 sends `-F f=@-` to a second URL empty (docs/differences.md): InputStreamTests covers several URLs.
        .init("-s", "-F", "f=@-;type=text/x", "-F", "g=<-", form, stdin: "first one"),
        .init("-s", "-d", "@-", echo, "--next", "{PINS}", "-s", "-d", "@-", echo, stdin: "only the first"),
        .init("-s", "-T", "-", echo, echo, stdin: "put once"),
        .init("-sZ", "-d", "@-", "-o", "{DIR}/z#1", "{A}/api/echo?n=[1-3]", stdin: "parallel"),
        .init("-s", "-T", "-", "-T", "-", folder, folder, stdin: "put once"),
    ]

    /// `-T` fills the URLs in order as `-o` does; its name is globbed and appended to a URL path ending in `/`.
    static let pairedUploads: [DifferentialRow] = [
        .init("-s", "-T", "{FILE}", "-T", "{BIN}", folder, "{A}/api/echo/two/"),
        .init("-s", "-T", "{FILE}", folder, folder), .init("-s", "-T", "", "-T", "{FILE}", folder, folder),
        .init("-s", folder, "-T", "{FILE}", "{B}/api/echo/", "-T", "{BIN}"),
        .init("-s", "-T", "{FILE}", "-T", "{BIN}", folder), .init("-s", "-T", "{FILE}", folder, "--next", "{PINS}", "-s", folder),
        .init("-sZ", "-T", "{FILE}", "-T", "{BIN}", "-o", "{DIR}/1", "-o", "{DIR}/2", folder, "{A}/api/echo/two/"),
        .init("-s", "-w", "%{urlnum} %{url_effective}\\n", "-T", "{DIR}/{file.txt,bin.dat}", folder),
        .init("-s", "-w", "%{urlnum} %{url_effective}\\n", "-T", "{DIR}/{file.txt,bin.dat}", "{A}/api/echo/[1-2]/"),
        .init("-s", "-g", "-T", "{DIR}/{file.txt,bin.dat}", folder),
        .init("-s", "-w", "%{url_effective}\\n", "-T", "{FILE}", "{A}/api/echo/?q=1#frag"),
        .init("-s", "-w", "%{url_effective}\\n", "-T", "{FILE}", "{A}?q=1"),
        .init("-s", "-w", "%{url_effective}\\n", "-T", "{FILE}", "{A}/api/echo?q=1"),
        .init("-s", "-w", "%{url_effective}\\n", "-T", "{FILE}", "{A}/api/echo/#f"),
        .init("-s", "-T", "{DIR}/missing", "-T", "{FILE}", folder, folder), .init("-s", "-d", "x", "-T", "{FILE}", folder, folder),
        // A -T file that cannot be opened fails its own transfer: its -w line is printed, and the run ends there.
        .init("-s", "-w", "%{urlnum} %{exitcode} %{http_code} %{method} %{url} %{url_effective} %{errormsg}\\n",
              "-T", "{DIR}/missing", folder, folder),
        .init("-s", "-w", "%{urlnum} %{exitcode} %{num_connects} %{size_upload} %{url}\\n", "-T", "{FILE}", "-T", "{DIR}/missing",
              "-o", "/dev/null", folder, folder, "--next", "{PINS}", "-s", "-w", "never\\n", echo),
        .init("-s", "-d", "x", "-T", "", "-T", "{FILE}", folder, folder), .init("-s", "-G", "-d", "q=1", "-T", "{FILE}", folder),
        .init("-s", "-G", "-d", "q=1", "-F", "a=1", form),
        .init("-s", "--http1.1", "-T", ".", echo, echo, stdin: "non-blocking"),
        .init("-s", "-T", "{FILE}", "-O", "--output-dir", "{DIR}", folder), .init("-s", "-T", "{FILE}", "-O", "--output-dir", "{DIR}", "{A}/api/echo/x"),
        .init("-s", "-T", "{FILE}", "-o", "{DIR}/#1", "{A}/api/echo/{p,q}/"),
    ]

    /// `-F name=@a,b`: the files as one `multipart/mixed` part, each with its own parameters (`/api/form` lists the
    /// nested part's files, so a file dropped from the list shows).
    static let fileLists: [DifferentialRow] = [
        ["f=@{FILE},{BIN}"], ["f=@{FILE};type=text/a,{BIN};type=text/b"], ["f=@{FILE}, {BIN};filename=x.bin", "g=1"],
        ["f=@\"{FILE}\",\"{BIN}\""], ["f=@-,{FILE}"], ["f=@{FILE},{DIR}/missing"],
        ["f=@{FILE},{BIN};type=text/b,{FILE};filename=third.txt"],
    ].map { DifferentialRow(arguments: ["-s"] + $0.flatMap { ["-F", $0] } + [form], stdin: "from stdin") }

    /// Files that are not regular files, read as streams: chunked where curl sends chunked (HTTP/1.1 shows it).
    static let streams: [DifferentialRow] = [
        ["-d", "@/dev/stdin"], ["--data-binary", "@/dev/stdin"], ["--json", "@/dev/stdin"], ["-d", "@/dev/fd/0"],
        ["--data-urlencode", "q@/dev/stdin"], ["-H", "@/dev/stdin"], ["-T", "/dev/stdin"],
    ].map { DifferentialRow(arguments: ["-s", "--http1.1"] + $0 + [echo, "{B}/api/echo"], stdin: "X-Stream: 1\n") } + [
        .init("-s", "--http1.1", "-T", "/dev/fd/0", folder, stdin: "to /dev/fd/0"),
        .init("-s", "-F", "f=@/dev/stdin", form, stdin: "read once"), .init("-s", "-F", "f=@/dev/stdin;filename=a.png", form, stdin: "png"),
        .init("-s", "-F", "f=</dev/stdin", form, stdin: "field"),
        .init("-s", "--http1.1", "-T", "{FIFO}", folder, folder), .init("-s", "--http1.1", "-d", "@{FIFO}", echo, echo),
        .init("-s", "--http1.1", "--data-binary", "@{FIFO}", echo), .init("-s", "--json", "@{FIFO}", echo),
        .init("-s", "-F", "f=@{FIFO}", form), .init("-s", "-F", "f=<{FIFO};type=text/x", form),
    ]
}
