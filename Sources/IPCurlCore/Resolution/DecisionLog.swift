import CurlKit
import HTTPDNS

/// The `-v` lines that say what ipcurl decided before libcurl's own trace takes over.
public enum DecisionLog {
    /// `* HTTPDNS host: ips (source, ttl N, cache hit)` after one `* HTTPDNS race: …` line per event of the
    /// hedged race (a server that failed, a hedge started, exchanges cancelled), a line per dropped address count
    /// and, on the system fallback, the reason HTTPDNS was given up; or a note that an IP literal needs no
    /// resolution.
    public static func answer(_ resolution: Resolution, host: String) -> String {
        guard let answer = resolution.answer else { return "* HTTPDNS \(host): IP literal, no resolution needed\n" }
        let addresses = answer.addresses.map(\.description).joined(separator: ", ")
        let cache = switch resolution.cache {
        case .off: ""
        case .miss: ", cache miss"
        case .hit: ", cache hit"
        case .stale(let by): ", stale by \(by) s, refreshing in the background"
        }
        let fallback = resolution.fallbackReason.map {
            $0.failures.map { "* HTTPDNS skipped \($0)\n" }.joined()
                + "* HTTPDNS falling back to the system resolver: \(CurlError($0).message)\n"
        } ?? ""
        let dropped = resolution.dropped > 0
            ? "* HTTPDNS \(answer.host): \(resolution.dropped) unusable or surplus address(es) dropped\n" : ""
        return answer.trail.map { "* HTTPDNS \($0)\n" }.joined() + fallback + dropped
            + "* HTTPDNS \(answer.host): \(addresses) (\(sourceText(answer.source)), ttl \(answer.ttl)\(cache))\n"
    }

    /// The source as `-v` names it: a static entry is the `--resolve` option that gave it.
    private static func sourceText(_ source: AnswerSource) -> String {
        if case .staticEntry = source { return "static --resolve" }
        return source.description
    }

    /// `* HTTPDNS bücher.example is the IDN xn--bcher-kva.example`: the name as written and as looked up.
    public static func idn(_ unicode: String, is ascii: String) -> String { "* HTTPDNS \(unicode) is the IDN \(ascii)\n" }

    /// The warning (a ``Diagnostics`` warning) that `host` is resolved by the system resolver because HTTPDNS
    /// gave no address, and why.
    public static func fallbackWarning(_ host: String, _ reason: ResolutionError) -> String {
        "\(host): HTTPDNS gave no address (\(reason.reason)); using the system resolver"
    }

    /// One `* HTTPDNS line` per policy note (cache problems, background refreshes).
    public static func notes(_ lines: [String]) -> String {
        lines.map { "* HTTPDNS \($0)\n" }.joined()
    }

    /// One `* RESOLVE host:port:addr[,addr]` line per entry handed to libcurl, exactly as handed over.
    public static func entries(_ entries: [ResolveEntry]) -> String {
        entries.map { "* RESOLVE \($0)\n" }.joined()
    }
}
