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
    /// The first slot without a URL and the first without an output (`slots.count` when there is none): both only
    /// move forward, so pairing a long command line costs one step per argument.
    private var firstWithoutURL = 0, firstWithoutOutput = 0
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
        while firstWithoutURL < slots.count, slots[firstWithoutURL].url != nil { firstWithoutURL += 1 }
        if firstWithoutURL < slots.count { slots[firstWithoutURL].url = url } else { slots.append(Slot(url: url)) }
        firstWithoutURL += 1
    }

    mutating func claimOutput(path: String?, remoteName: Bool) {
        while firstWithoutOutput < slots.count, slots[firstWithoutOutput].hasOutput { firstWithoutOutput += 1 }
        if firstWithoutOutput < slots.count {
            slots[firstWithoutOutput].output = path
            slots[firstWithoutOutput].remoteName = remoteName
            slots[firstWithoutOutput].hasOutput = true
        } else {
            slots.append(Slot(url: nil, output: path, remoteName: remoteName, hasOutput: true))
        }
        firstWithoutOutput += 1
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
