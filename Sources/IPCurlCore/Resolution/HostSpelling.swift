import CurlKit
import HTTPDNS

/// Host names as libcurl looks them up: an internationalized name becomes its punycode A-label (libcurl's own
/// IDN conversion, libidn2), case is folded and a trailing dot kept.
public enum HostSpelling {
    /// The name libcurl would look up for `host` in a URL, or `nil` when it is not a DNS name (or an IP literal).
    public static func lookupName(_ host: String) -> String? {
        guard IPAddress(host) == nil, !host.contains(where: { "/?#@:[]%\\ ".contains($0) }),
              let url = try? CurlURL("http://\(host)/", guessScheme: false) else { return nil }
        return HostName.lookupName(url.host)
    }
}
