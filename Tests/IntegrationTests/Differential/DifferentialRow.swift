import Testing

/// One command line of the differential suite, run with curl 7.88.1 and with ipcurl against the lab.
///
/// Placeholders: `{A}`/`{B}` are `https://a.test:PORT`/`https://b.test:PORT`, `{H}` is `http://a.test:PORT`, `{DIR}` a
/// scratch directory of each tool's own (files written there are compared too), `{FILE}` a small text file,
/// `{BIN}` a binary file, `{CFG}` a config file (`config` text written first), `{KEY}` a key unique to the row
/// (for the lab's counters), `{PINS}` the tool's resolver and trust options again (after `--next`), `{FIFO}` a FIFO
/// in the scratch directory that a writer fills with one line once a reader opens it.
struct DifferentialRow: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    /// ipcurl resolves through the lab's DoH server instead of the same `--resolve` entries curl gets.
    var viaDoH = false
    /// A `-K` file's text (placeholders allowed), written to `{CFG}`.
    var config: String?
    /// Standard input for both tools.
    var stdin: String?
    /// A difference kept on purpose, and why: the row then only shows that ipcurl succeeds where curl refuses.
    var kept: String?

    var testDescription: String {
        (viaDoH ? "[doh] " : "") + arguments.joined(separator: " ") + (config.map { " [config: \($0.debugDescription)]" } ?? "")
    }

    init(_ arguments: String..., viaDoH: Bool = false, config: String? = nil, stdin: String? = nil, kept: String? = nil) {
        self.init(arguments: arguments, viaDoH: viaDoH, config: config, stdin: stdin)
        self.kept = kept
    }

    init(arguments: [String], viaDoH: Bool = false, config: String? = nil, stdin: String? = nil) {
        self.arguments = arguments
        self.viaDoH = viaDoH
        self.config = config
        self.stdin = stdin
    }
}
