import CurlKit
import IPCurlCore
import OptionTable

/// What a fetch shows and where headers go, spelled as in curl (`-o`/`-O` pair with URLs: ``URLList``).
struct OutputOptions: Sendable {
    var createDirs = false
    var include = false
    var head = false
    var dumpHeader: String?
    var fail = false
    var failWithBody = false
    var silent = false
    var showError = false
    var noProgressMeter = false
    var verbose = false
    var writeOut: String?
    var outputDirectory: String?
    var remoteHeaderName = false
    var resume: FetchRequest.ResumePoint?
    var remoteTime = false, clobber = true, extendedAttributes = false, removeOnError = false

    static let output = OptionCategory("output", "Where the response goes and what is shown")

    static let rows: [OptionRow<OutputOptions>] = [
        OptionRow("create-dirs", nil, .boolean, "", output, "Create the directories -o/-D need") { $0.createDirs = $1.isOn },
        OptionRow("output-dir", nil, .file, "dir", output, "Put the -o and -O files in DIR (its name is prefixed to theirs)") {
            $0.outputDirectory = $1.text
        },
        OptionRow("continue-at", "C", .string, "offset", output,
                  "Resume at byte OFFSET, or where the -o file ends (-); the file is appended to") { options, argument in
            if argument.text == "-" { options.resume = .automatic; return }
            guard let offset = Int64(argument.text), offset >= 0 else { throw argument.problem("expected a proper numerical parameter") }
            options.resume = .offset(offset)
        },
        OptionRow("remote-header-name", "J", .boolean, "", output,
                  "With -O, name the file as the response's Content-Disposition says (never replacing a file)") {
            $0.remoteHeaderName = $1.isOn
        },
        OptionRow("remote-time", "R", .boolean, "", output, "Give the -o file the time the server says the document has") {
            $0.remoteTime = $1.isOn
        },
        OptionRow("clobber", nil, .boolean, "", output,
                  "Replace existing -o files (the default); --no-clobber writes NAME.1 ... NAME.99 instead") { $0.clobber = $1.isOn },
        OptionRow("remove-on-error", nil, .boolean, "", output,
                  "On an error, remove the -o file, a -C download's too (no other failure leaves a partial file)") {
            $0.removeOnError = $1.isOn
        },
        OptionRow("xattr", nil, .boolean, "", output, "Store the URL and the content type in the -o file's extended attributes") {
            $0.extendedAttributes = $1.isOn
        },
        OptionRow("include", "i", .boolean, "", output, "Include response headers in the output", important: true) {
            $0.include = $1.isOn
        },
        OptionRow("head", "I", .boolean, "", output, "Send HEAD and output the response headers", important: true) {
            $0.head = $1.isOn
        },
        OptionRow("dump-header", "D", .file, "file", output, "Write every response's headers to FILE (- for stdout)") {
            $0.dumpHeader = $1.text
        },
        OptionRow("fail", "f", .boolean, "", output, "Fail with exit 22 and no body on HTTP 400 or more", important: true) {
            $0.fail = $1.isOn
        },
        OptionRow("fail-with-body", nil, .boolean, "", output, "Exit 22 on HTTP 400 or more, keeping the body") {
            $0.failWithBody = $1.isOn
        },
        OptionRow("silent", "s", .boolean, "", output, "Silent mode: no errors, warnings or progress bar", important: true) {
            $0.silent = $1.isOn
        },
        OptionRow("show-error", "S", .boolean, "", output, "With -s, still show error messages") { $0.showError = $1.isOn },
        OptionRow("progress-meter", nil, .boolean, "", output, "Show the progress meter (--no-progress-meter: errors only)") {
            $0.noProgressMeter = !$1.isOn
        },
        OptionRow("verbose", "v", .boolean, "", output, "Show ipcurl's resolution decisions and libcurl's trace on stderr",
                  important: true) { $0.verbose = $1.isOn },
        OptionRow("write-out", "w", .string, "format", output,
                  "Print FORMAT after the transfer: curl's %{variables}, %header{name}, %{json}; @FILE reads it",
                  important: true) { $0.writeOut = $1.text },
    ]

    /// The options that, as in curl, hold for the whole command line rather than one `--next` operation.
    static let globalNames: [String] = ["silent", "show-error", "progress-meter", "verbose"]

    /// These options with the global ones (``globalNames``) taken from `global`.
    func with(globalsFrom global: OutputOptions) -> OutputOptions {
        var options = self
        (options.silent, options.showError) = (global.silent, global.showError)
        (options.noProgressMeter, options.verbose) = (global.noProgressMeter, global.verbose)
        return options
    }

    /// Whether error messages go to stderr (curl: unless -s, or -s with -S).
    var showsErrors: Bool { !silent || showError }

    /// `diagnostics` with this operation's `-s`, `-S` and `-v`.
    func diagnostics(_ diagnostics: Diagnostics) -> Diagnostics {
        diagnostics.with(showsErrors: showsErrors, showsWarnings: !silent, verbose: verbose)
    }

    /// `path` in `--output-dir` (prefixed as curl prefixes it, even to an absolute path); stdout stays stdout.
    func placed(_ path: String) -> String {
        guard let outputDirectory, path != "-" else { return path }
        return outputDirectory + (outputDirectory.hasSuffix("/") ? "" : "/") + path
    }

    /// Fills the output part of `request`.
    func apply(to request: inout FetchRequest) throws(CurlError) {
        guard !(fail && failWithBody) else { throw CurlError.usage("--fail and --fail-with-body cannot be used together") }
        // As curl: -J names the file from headers the output would then also hold, or resume into.
        if remoteHeaderName, include || head { throw CurlError.usage("showing headers and --remote-header-name cannot be combined") }
        if remoteHeaderName, resume == .automatic {
            throw CurlError.usage("--continue-at - and --remote-header-name cannot be combined")
        }
        guard !(head && request.payload != .none) else {
            throw CurlError.usage("You can only select one HTTP request method! You asked for both HEAD (-I) and a body.")
        }
        request.createDirectories = createDirs
        request.remoteTime = remoteTime
        request.template.tuning.asksFileTime = remoteTime || head
        request.replacesFiles = clobber
        request.extendedAttributes = extendedAttributes
        request.removesOnError = removeOnError
        request.remoteHeaderName = remoteHeaderName
        request.resume = resume
        request.head = head
        request.includeHeaders = include || head
        request.headerDumpPath = dumpHeader
        request.template.fail = fail ? .fail : failWithBody ? .failWithBody : .off
        request.showsProgress = ProgressMeter.shouldShow(
            silent: silent || noProgressMeter || verbose, outputIsFile: request.outputPath.map { $0 != "-" } ?? false)
        if let format = writeOut {
            request.writeOut = format.hasPrefix("@") ? Self.formatFile(try LocalFiles.read(String(format.dropFirst()))) : format
        }
    }

    /// A `-w @file` as curl 7.88 reads it (`file2string`): in pieces of at most 255 bytes that end after a line
    /// feed, each cut at its first CR, then its first LF, then its first NUL; the pieces joined (write `\n` for a
    /// newline). So `a\rb\n` gives `a`, and the line endings of a CRLF file vanish.
    static func formatFile(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = [], start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, end - start < 255 {
                end += 1
                if bytes[end - 1] == 0x0A { break }
            }
            var piece = bytes[start..<end]
            for stop: UInt8 in [0x0D, 0x0A, 0x00] { if let cut = piece.firstIndex(of: stop) { piece = piece[..<cut] } }
            text += piece
            start = end
        }
        return String(decoding: text, as: UTF8.self)
    }
}
