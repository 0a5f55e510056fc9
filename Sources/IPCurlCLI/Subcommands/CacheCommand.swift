#if canImport(Glibc)
import Glibc
#endif
import CurlKit
import HTTPDNS
import IPCurlCore
import OptionTable

/// `ipcurl cache list|clear`: look at or empty the persistent answer cache.
struct CacheCommand: Subcommand {
    static let name = "cache"
    static let usage = "ipcurl cache list [--json] | ipcurl cache clear"
    static let summary = "Show or clear the HTTPDNS answer cache."

    enum Action: String, Sendable { case list, clear }

    var action: Action?
    var json = false
    var help: String?
    var version = false

    static let category = OptionCategory("cache", "ipcurl cache list [--json] | clear")

    static let rows = commonRows(category, for: ownRows) + ownRows

    private static let ownRows: [OptionRow<CacheCommand>] = [
        OptionRow("json", nil, .boolean, "", category, "cache list: print a JSON array instead of tab-separated lines") {
            $0.json = $1.isOn
        },
    ]

    /// Takes the action word (`list` or `clear`).
    mutating func take(_ word: String) throws {
        guard action == nil, let action = Action(rawValue: word) else {
            throw OptionError("cache: expected 'list' or 'clear', not \(Printable.quoted(String(word.prefix(40))))")
        }
        self.action = action
    }

    func run(_ diagnostics: Diagnostics) -> Completion {
        guard let action else { return .refused(.usage("cache: give 'list' or 'clear' (see 'ipcurl help cache')")) }
        let location: AnswerCache.Location
        do throws(CurlError) { location = try PolicyOptions.cacheLocation() } catch { return .refused(error) }
        guard let directory = location.directory else {
            return .refused(.usage("no cache directory: set IPCURL_CACHE_DIR or HOME"))
        }
        let cache = AnswerCache(directory: directory)
        switch action {
        case .list:
            let (records, problems) = cache.list()
            for problem in problems { diagnostics.emit(.error, problem) }
            let now = Int64(time(nil))
            return Commands.printListing(json ? CacheListing.json(records, now: now) : CacheListing.plain(records, now: now))
        case .clear:
            do {
                let removed = try cache.clear()
                diagnostics.note("removed \(removed) cache entries from \(cache.directory)")
            } catch {
                return .refused(CurlError.writeError.with(message: "\(error)"))
            }
        }
        return .success
    }
}
