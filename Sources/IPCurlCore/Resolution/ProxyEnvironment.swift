#if canImport(Glibc)
import Glibc
#endif
import CurlKit

/// The proxy libcurl takes from the environment for a URL, as curl reads it: `http_proxy` (lower case only) for
/// http, `HTTPS_PROXY`/`https_proxy` for https, else `ALL_PROXY`/`all_proxy`, unless `NO_PROXY`/`no_proxy`
/// lists the host (`*`, a domain suffix with or without a leading dot, or the exact name or IP).
///
/// Through a proxy the proxy resolves the name, so ipcurl pins nothing and says so.
/// - SeeAlso: `CURLOPT_PROXY`, `CURLOPT_NOPROXY`, curl's "ENVIRONMENT" man page section.
enum ProxyEnvironment {
    /// The name of the variable whose proxy libcurl will use for `url`, or `nil` when there is none.
    static func variable(for url: CurlURL) -> String? {
        variable(scheme: url.scheme, host: url.host, lookup: { getenv($0).map { String(cString: $0) } })
    }

    /// ``variable(for:)`` over any environment lookup, for tests.
    static func variable(scheme: String, host: String, lookup: (String) -> String?) -> String? {
        func set(_ name: String) -> String? { lookup(name).flatMap { $0.isEmpty ? nil : name } }
        let candidates = scheme == "http" ? ["http_proxy"] : ["\(scheme.uppercased())_PROXY", "\(scheme)_proxy"]
        guard let name = (candidates + ["ALL_PROXY", "all_proxy"]).compactMap({ set($0) }).first else { return nil }
        let exclusions = lookup("NO_PROXY") ?? lookup("no_proxy") ?? ""
        return excluded(host, by: exclusions) ? nil : name
    }

    /// Whether `host` matches a `NO_PROXY` list.
    static func excluded(_ host: String, by list: String) -> Bool {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        for item in list.split(separator: ",") {
            var pattern = item.trimmingBlanks().lowercased()
            if pattern == "*" { return true }
            if pattern.hasPrefix(".") { pattern.removeFirst() }
            if pattern.hasSuffix(".") { pattern.removeLast() }
            if !pattern.isEmpty, name == pattern || name.hasSuffix("." + pattern) { return true }
        }
        return false
    }
}

private extension Substring {
    func trimmingBlanks() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
