import ArgumentParser
import CurlKit
import IPCurlCore

/// Where a fetch's output goes and what is shown, spelled as in curl.
struct OutputOptions: ParsableArguments {
    @Option(name: [.customShort("o", allowingJoined: true), .customLong("output")],
            help: ArgumentHelp("Write the body to FILE (via a temporary file, renamed on success).", valueName: "FILE"))
    var output: String?

    @Flag(name: [.customShort("O"), .customLong("remote-name")], help: "Write the body to a file named like the URL's last path segment.")
    var remoteName = false

    @Flag(name: .customLong("create-dirs"), help: "Create the directories -o/-D need.")
    var createDirs = false

    @Flag(name: [.customShort("i"), .customLong("include")], help: "Include response headers in the output.")
    var include = false

    @Flag(name: [.customShort("I"), .customLong("head")], help: "Send HEAD and output the response headers.")
    var head = false

    @Option(name: [.customShort("D", allowingJoined: true), .customLong("dump-header")],
            help: ArgumentHelp("Write every response's headers to FILE (- for stdout).", valueName: "FILE"))
    var dumpHeader: String?

    @Flag(name: [.customShort("f"), .customLong("fail")], help: "Fail with exit 22 and no body on HTTP 400 or more.")
    var fail = false

    @Flag(name: .customLong("fail-with-body"), help: "Exit 22 on HTTP 400 or more, keeping the body.")
    var failWithBody = false

    @Flag(name: [.customShort("s"), .customLong("silent")], help: "Silent mode: no errors, warnings or progress bar.")
    var silent = false

    @Flag(name: [.customShort("S"), .customLong("show-error")], help: "With -s, still show error messages.")
    var showError = false

    @Flag(name: .customLong("no-progress-meter"), help: "No progress bar, errors still shown.")
    var noProgressMeter = false

    @Flag(name: [.customShort("v"), .customLong("verbose")],
          help: "Show ipcurl's resolution decisions and libcurl's trace on stderr.")
    var verbose = false

    @Option(name: [.customShort("w", allowingJoined: true), .customLong("write-out")],
            help: ArgumentHelp("Print FORMAT after the transfer, with curl's %{variables}, %header{name}, %{json}; @FILE reads it.",
                               valueName: "FORMAT"))
    var writeOut: String?

    /// Whether error messages go to stderr (curl: unless -s, or -s with -S).
    var showsErrors: Bool { !silent || showError }

    /// Fills the output part of `request`.
    func apply(to request: inout FetchRequest) throws(CurlError) {
        guard !(fail && failWithBody) else { throw CurlError.usage("--fail and --fail-with-body cannot be used together") }
        guard !(head && request.payload != .none) else {
            throw CurlError.usage("You can only select one HTTP request method! You asked for both HEAD (-I) and a body.")
        }
        request.outputPath = output
        if remoteName, output == nil { request.outputPath = try Self.remoteName(of: request.url) }
        request.createDirectories = createDirs
        request.head = head
        request.includeHeaders = include || head
        request.headerDumpPath = dumpHeader
        request.fail = fail ? .fail : failWithBody ? .failWithBody : .off
        request.verbose = verbose
        request.showsWarnings = !silent
        request.showsProgress = ProgressMeter.shouldShow(
            silent: silent || noProgressMeter || verbose, outputIsFile: request.outputPath.map { $0 != "-" } ?? false)
        if let format = writeOut {
            request.writeOut = format.hasPrefix("@")
                ? String(decoding: try LocalFiles.read(String(format.dropFirst())), as: UTF8.self) : format
        }
    }

    /// `-O`: the URL path's last segment, as curl takes it (no decoding); exit 23 when there is none.
    static func remoteName(of url: String) throws(CurlError) -> String {
        let path = (try? CurlURL(url))?.path ?? ""
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        guard !name.isEmpty else { throw CurlError.writeError.with(message: "Remote file name has no length!") }
        return name
    }
}
