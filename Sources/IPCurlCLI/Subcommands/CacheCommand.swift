#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// `ipcurl cache list|clear`: look at or empty the persistent answer cache.
struct CacheCommand: SubcommandLine {
    enum Action: String, Sendable { case list, clear }

    var action: Action?
    var json = false
    var help: String?
    var version = false

    static let category = OptionCategory("cache", "ipcurl cache list [--json] | clear")

    static let rows: [OptionRow<CacheCommand>] = commonRows(category) + [
        OptionRow("json", nil, .boolean, "", category, "cache list: print a JSON array instead of tab-separated lines") {
            $0.json = $1.isOn
        },
    ]

    /// Takes the action word (`list` or `clear`).
    mutating func add(word: String) throws {
        guard action == nil, let action = Action(rawValue: word) else {
            throw OptionError("cache: expected 'list' or 'clear', not \(ResolveEntry.quoted(String(word.prefix(40))))")
        }
        self.action = action
    }

    func run() -> Int32 {
        guard let action else {
            DescriptorWriter.standardError.write("ipcurl: cache: give 'list' or 'clear' (see 'ipcurl help cache')\n")
            return 2
        }
        guard let directory = PolicyOptions.cacheDirectory() else {
            DescriptorWriter.standardError.write("ipcurl: no cache directory: set IPCURL_CACHE_DIR or HOME\n")
            return 2
        }
        let cache = AnswerCache(directory: directory)
        switch action {
        case .list:
            let (records, problems) = cache.list()
            for problem in problems { DescriptorWriter.standardError.write("ipcurl: \(problem)\n") }
            let now = Int64(time(nil))
            return Commands.printListing(json ? CacheListing.json(records, now: now) : CacheListing.plain(records, now: now))
        case .clear:
            do {
                let removed = try cache.clear()
                DescriptorWriter.standardError.write("ipcurl: removed \(removed) cache entries from \(cache.directory)\n")
            } catch {
                DescriptorWriter.standardError.write("ipcurl: \(error)\n")
                return 23
            }
        }
        return 0
    }
}
