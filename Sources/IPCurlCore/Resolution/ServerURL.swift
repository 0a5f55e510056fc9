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
                throw .configuration(setting, value: CurlURL.redacted(text: text), error.message)
            }
            if setting == .vendorServer, url.hasCredentials || url.query != nil {
                throw .configuration(setting, value: CurlURL.redacted(text: text), "expected http:// or https://HOST[:PORT][/PATH]")
            }
            guard (1...65535).contains(url.port) else {
                throw .configuration(setting, value: CurlURL.redacted(text: text), "port \(url.port) is not 1-65535")
            }
            servers.append(try HTTPDNSServer(scheme: url.scheme, host: url.host, port: url.port, path: url.path,
                                             query: url.query, userInfo: url.userInfo, serviceName: serviceName,
                                             setting: setting))
        }
        return servers
    }

    /// Checks `texts` as vendor server URLs without asking anything; a usage error names `--httpdns-server`.
    public static func checkVendorServers(_ texts: [String], setting: ResolutionError.Setting = .vendorServer) throws(CurlError) {
        do { _ = try servers(texts, setting: setting) } catch { throw CurlError(error) }
    }
}
