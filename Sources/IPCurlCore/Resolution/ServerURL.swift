import CurlKit
import HTTPDNS

/// Turns HTTPDNS server URLs from the command line into ``HTTPDNSServer`` values, parsed by libcurl's own URL
/// parser so a server URL means what it means to curl.
public enum ServerURL {
    /// Every URL in `texts` as a server of `setting`; a URL libcurl rejects is a configuration error.
    /// Vendor servers take no query (their API writes its own); DoH servers may carry a query and user info.
    static func servers(_ texts: [String], setting: ResolutionError.Setting, serviceName: String? = nil)
        throws(ResolutionError) -> [HTTPDNSServer]
    {
        var servers: [HTTPDNSServer] = []
        for text in texts {
            let url: CurlURL
            do { url = try CurlURL(text, guessScheme: false) } catch {
                throw .configuration(setting, value: redacted(text), error.message)
            }
            if setting == .vendorServer, url.hasCredentials || url.query != nil {
                throw .configuration(setting, value: redacted(text), "expected http:// or https://HOST[:PORT][/PATH]")
            }
            guard (1...65535).contains(url.port) else {
                throw .configuration(setting, value: redacted(text), "port \(url.port) is not 1-65535")
            }
            servers.append(try HTTPDNSServer(scheme: url.scheme, host: url.host, port: url.port, path: url.path,
                                             query: url.query, userInfo: url.userInfo, serviceName: serviceName,
                                             setting: setting))
        }
        return servers
    }

    /// Checks `texts` as vendor server URLs without asking anything; a usage error names `--httpdns-server`.
    public static func checkVendorServers(_ texts: [String]) throws(CurlError) {
        do { _ = try servers(texts, setting: .vendorServer) } catch { throw CurlError(error) }
    }

    /// `text` cut at its query and with any user info dropped, for messages.
    public static func redacted(_ text: String) -> String {
        let shown = String(text.prefix { $0 != "?" && $0 != "#" })
        let parts = shown.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        // scheme:, "", authority, path: drop everything up to the last '@' of the authority.
        guard parts.count >= 3, parts[0].hasSuffix(":"), parts[1].isEmpty, let at = parts[2].lastIndex(of: "@") else { return shown }
        let authority = parts[2][parts[2].index(after: at)...]
        return ([parts[0], parts[1], authority] + parts.dropFirst(3)).joined(separator: "/")
    }
}
