import CurlKit
import IPCurlCore
import OptionTable

/// The URLs of one fetch operation, each paired with its output as curl pairs them: every `-o FILE` or `-O`
/// fills the first URL slot that has no output yet, every URL the first slot that has no URL yet, so
/// `-o a -o b URL1 URL2` writes URL1 to a and URL2 to b, and `-O -o x URL` names URL's file after the URL.
/// - SeeAlso: curl's `struct getout` and `GETOUT_OUTFILE`/`GETOUT_URL` in `src/tool_getparam.c`.
struct URLList: Sendable {
    struct Slot: Sendable {
        var url: String?
        /// `-o FILE` (`-` is stdout).
        var output: String?
        /// `-O`: the file is named after the URL's last path segment.
        var remoteName = false
        /// Whether `-o` or `-O` claimed this slot.
        var hasOutput = false
    }

    private(set) var slots: [Slot] = []
    /// `--remote-name-all`: a URL without `-o` or `-O` of its own is saved as with `-O`.
    var remoteNameAll = false

    static let rows: [OptionRow<URLList>] = [
        OptionRow("output", "o", .file, "file", OutputOptions.output,
                  "Write the body to FILE (via a temporary file, renamed on success); pairs with the URLs in order",
                  repeatable: true, important: true) { $0.claimOutput(path: $1.text, remoteName: false) },
        OptionRow("remote-name", "O", .none, "", OutputOptions.output,
                  "Write the body to a file named like the URL's last path segment; pairs with the URLs in order",
                  repeatable: true, important: true) { list, _ in list.claimOutput(path: nil, remoteName: true) },
        OptionRow("remote-name-all", nil, .boolean, "", OutputOptions.output, "Save every URL without an output of its own as -O does") {
            $0.remoteNameAll = $1.isOn
        },
        OptionRow("url", nil, .string, "url", OutputOptions.output, "A URL to fetch, as if given without an option",
                  repeatable: true) { $0.add(url: $1.text) },
    ]

    mutating func add(url: String) {
        if let free = slots.firstIndex(where: { $0.url == nil }) { slots[free].url = url } else { slots.append(Slot(url: url)) }
    }

    mutating func claimOutput(path: String?, remoteName: Bool) {
        let slot = Slot(url: nil, output: path, remoteName: remoteName, hasOutput: true)
        if let free = slots.firstIndex(where: { !$0.hasOutput }) {
            slots[free].output = path
            slots[free].remoteName = remoteName
            slots[free].hasOutput = true
        } else {
            slots.append(slot)
        }
    }

    /// The slots that have a URL, in order.
    var transfers: [Slot] {
        slots.filter { $0.url != nil }.map { slot in
            var slot = slot
            if remoteNameAll, !slot.hasOutput { slot.remoteName = true }
            return slot
        }
    }

    /// Whether more outputs than URLs were given (curl warns and ignores the extra ones).
    var hasUnusedOutputs: Bool { slots.contains { $0.url == nil && $0.hasOutput } }

    /// `-O`: the URL path's last segment, as curl takes it (no decoding); exit 23 when there is none.
    static func remoteName(of url: String) throws(CurlError) -> String {
        let path = (try? CurlURL(url))?.path ?? ""
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        guard !name.isEmpty else { throw CurlError.writeError.with(message: "Remote file name has no length!") }
        return name
    }
}
