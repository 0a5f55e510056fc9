#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CurlKit
import HTTPDNS
import IPCurlCore

/// `ipcurl cache list|clear`: look at or empty the persistent answer cache.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or clear the HTTPDNS answer cache ($IPCURL_CACHE_DIR, $XDG_CACHE_HOME/ipcurl or ~/.cache/ipcurl).",
        subcommands: [List.self, Clear.self]
    )

    /// The cache directory, or exit 2 when none can be named.
    static func cache() throws -> AnswerCache {
        guard let directory = PolicyOptions.cacheDirectory() else {
            DescriptorWriter.standardError.write("ipcurl: no cache directory: set IPCURL_CACHE_DIR or HOME\n")
            throw ExitCode(2)
        }
        return AnswerCache(directory: directory)
    }

    /// `ipcurl cache list`: one line per host and family, or JSON.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List cached answers: host, family, fresh/expired seconds, provider, addresses (tab-separated).")

        @Flag(help: "Print a JSON array instead.")
        var json = false

        func run() throws {
            let (records, problems) = try CacheCommand.cache().list()
            for problem in problems { DescriptorWriter.standardError.write("ipcurl: \(problem)\n") }
            let now = Int64(time(nil))
            DescriptorWriter.standardOutput.write(json ? CacheListing.json(records, now: now) : CacheListing.plain(records, now: now))
        }
    }

    /// `ipcurl cache clear`: remove every entry.
    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove every cached answer.")

        func run() throws {
            let cache = try CacheCommand.cache()
            do {
                let removed = try cache.clear()
                DescriptorWriter.standardError.write("ipcurl: removed \(removed) cache entries from \(cache.directory)\n")
            } catch {
                DescriptorWriter.standardError.write("ipcurl: \(error)\n")
                throw ExitCode(23)
            }
        }
    }
}
