import CurlKit
import HTTPDNS

/// What `ipcurl resolve` prints: one line per host as a bare entry, as a curl `--resolve` argument, or JSON.
public struct ResolveListing {
    /// Output formats of `ipcurl resolve --format`.
    public enum Format: String, CaseIterable, Sendable {
        /// `HOST:PORT:IP[,IP...]`
        case plain
        /// `--resolve HOST:PORT:IP[,IP...]`
        case curl
        /// A JSON array with host, port, addresses, ttl, source and entry (or error) per host.
        case json
    }

    /// One host's result, in command-line order.
    public struct Item: Sendable {
        /// The host as typed.
        public let host: String
        /// The entry and answer, or why there is none.
        public let result: Result<Resolution, CurlError>

        /// Pairs a host with its outcome.
        public init(host: String, result: Result<Resolution, CurlError>) {
            self.host = host
            self.result = result
        }
    }

    /// The `resolve` orchestrator: `hosts` (as typed) resolved by `session` in one lookup within `budget`, each
    /// IDN shown as looked up under `-v`, each failure told as it comes; one item per host, in order.
    public static func resolve(_ hosts: [String], port: Int, session: ResolverSession, within budget: TimeBudget?) -> [Item] {
        let diagnostics = session.diagnostics
        session.announce()
        let names = hosts.map { HostSpelling.lookupName($0) ?? $0 }
        for (host, name) in zip(hosts, names) where host.utf8.contains(where: { $0 >= 0x80 }) {
            diagnostics.trace(DecisionLog.idn(host, is: name))
        }
        return zip(names, session.resolve(hosts: names, port: port, within: budget)).map { host, result in
            if case .failure(let error) = result { diagnostics.error(error) }
            return Item(host: host, result: result)
        }
    }

    /// The stdout text for `items` in `format`; failed hosts appear only in JSON (their errors go to stderr).
    public static func render(_ items: [Item], port: Int, format: Format) -> String {
        switch format {
        case .plain, .curl:
            let prefix = format == .curl ? "--resolve " : ""
            return items.compactMap { item in
                guard case .success(let resolution) = item.result, let entry = resolution.entry else { return nil }
                return prefix + entry.description + "\n"
            }.joined()
        case .json:
            return "[" + items.map { json($0, port: port) }.joined(separator: ",") + "]\n"
        }
    }

    private static func json(_ item: Item, port: Int) -> String {
        var fields = ["\"host\":\(JSONString.quoted(item.host))", "\"port\":\(port)"]
        switch item.result {
        case .success(let resolution):
            if let answer = resolution.answer, let entry = resolution.entry {
                fields += [
                    "\"addresses\":[" + answer.addresses.map { JSONString.quoted($0.description) }.joined(separator: ",") + "]",
                    "\"ttl\":\(answer.ttl)", "\"source\":\(JSONString.quoted(answer.source.name))", "\"entry\":\(JSONString.quoted(entry.description))",
                ]
            }
        case .failure(let error):
            fields += ["\"exitcode\":\(error.exitCode)", "\"error\":\(JSONString.quoted(error.message))"]
        }
        return "{" + fields.joined(separator: ",") + "}"
    }
}
