import CurlKit
import IPCurlCore

extension TransferOptions {
    /// `-d`, `--data-binary` and `--json` with `@FILE` that cannot be read: curl warns and sends nothing for it.
    private func readableData(_ diagnostics: Diagnostics) -> [DataArgument] {
        data.map { argument in
            guard argument.kind != .raw, argument.kind != .urlencode, argument.text.hasPrefix("@"), argument.text != "@-",
                  !LocalFiles.isReadable(String(argument.text.dropFirst())) else { return argument }
            diagnostics.warning("Couldn't read data from file \"\(argument.text.dropFirst())\", this makes an empty POST.")
            return DataArgument(argument.kind, "")
        }
    }

    /// What the operation's `-H @FILE`, `-d`-family `@FILE` and `-F` arguments read, read once before its first
    /// transfer and sent to every URL, as curl reads them while parsing: stdin (`@-`, `<-`) goes to the option
    /// that names it first and the others read it empty; a pipe or a FIFO is read to its end. A regular file of
    /// `--data-binary @FILE` or `--json @FILE` stays a file, read while sending, and `-F name=@FILE` is opened
    /// when the form is sent.
    func readInputs(_ diagnostics: Diagnostics) throws(CurlError) -> TransferInputs {
        // -G with data chooses GET, as in curl, so it is one method too.
        guard data.isEmpty || form.isEmpty else { throw Self.twoMethods }
        var inputs = TransferInputs()
        var order: [InputKind] = stdinFirst.map { [$0] } ?? []
        for kind in [InputKind.header, .data, .form] where kind != stdinFirst { order.append(kind) }
        for kind in order {
            switch kind {
            case .header:
                inputs.headers = try Self.expandingFiles(headers)
            case .data:
                if !urlQuery.isEmpty { inputs.urlQuery = try DataArgument.query(urlQuery) }
                let data = readableData(diagnostics)
                guard !data.isEmpty else { continue }
                inputs.json = data.contains { $0.kind == .json }
                inputs.body = get ? .query(try DataArgument.query(data)) : .data(try DataArgument.body(data))
            case .form:
                var parts: [FormPart] = []
                for part in form { parts.append(part.literal ? try FormPart(literal: part.text) : try FormPart(parsing: part.text)) }
                if !parts.isEmpty { inputs.form = parts }
            }
        }
        return inputs
    }
}

/// What one operation's options read from files and stdin (``TransferOptions/readInputs(_:)``), shared by its
/// transfers.
struct TransferInputs: Sendable {
    /// `-H` lines with `@FILE` expanded.
    var headers: [String] = []
    /// Whether a `--json` argument was given.
    var json = false
    /// The `-d` family's body, or with `-G` the query it appends.
    var body: Body?
    /// What `--url-query` appends to every URL's query.
    var urlQuery: String?
    /// `-F` and `--form-string` parts.
    var form: [FormPart]?

    enum Body: Sendable {
        case data([BodySegment])
        case query(String)
    }
}
