import ArgumentParser

/// Request and output options of a fetch, spelled as in curl.
struct TransferOptions: ParsableArguments {
    @Option(name: [.customShort("X", allowingJoined: true), .customLong("request")],
            help: ArgumentHelp("Request method to use instead of GET/POST.", valueName: "METHOD"))
    var method: String?

    @Option(name: [.customShort("H", allowingJoined: true), .customLong("header")],
            help: ArgumentHelp("Extra header to send; repeatable. \"Name:\" removes one, \"Name;\" sends it empty.",
                               valueName: "LINE"))
    var headers: [String] = []

    @Option(name: [.customShort("d", allowingJoined: true), .customLong("data")],
            help: ArgumentHelp("POST this data; @FILE reads a file (newlines stripped), @- reads stdin. Repeats join with &.",
                               valueName: "DATA"))
    var data: [String] = []

    @Option(name: [.customShort("o", allowingJoined: true), .customLong("output")],
            help: ArgumentHelp("Write the body to FILE instead of stdout.", valueName: "FILE"))
    var output: String?

    @Flag(name: [.customShort("i"), .customLong("include")], help: "Include response headers in the output.")
    var include = false

    @Flag(name: [.customShort("s"), .customLong("silent")], help: "Silent mode: no error messages.")
    var silent = false

    @Flag(name: [.customShort("S"), .customLong("show-error")], help: "With -s, still show error messages.")
    var showError = false

    @Flag(name: [.customShort("v"), .customLong("verbose")],
          help: "Show ipcurl's resolution decisions and libcurl's trace on stderr.")
    var verbose = false

    @Option(name: [.customShort("w", allowingJoined: true), .customLong("write-out")],
            help: ArgumentHelp("Print FORMAT after the transfer, with curl's %{variables}; @FILE reads it.",
                               valueName: "FORMAT"))
    var writeOut: String?

    /// Whether error messages go to stderr (curl: unless -s, or -s with -S).
    var showsErrors: Bool { !silent || showError }
}
