#if canImport(Glibc)
import Glibc
#endif
import CurlKit

extension TransportOptions {
    /// These options with the CA store the curl command line takes from the environment when neither
    /// `--cacert`, `--capath` nor `-k` was given: `CURL_CA_BUNDLE` (a CA file), else `SSL_CERT_DIR` (a CA
    /// directory), else `SSL_CERT_FILE` (a CA file); empty variables count as unset. Only the first one set is
    /// used, as in curl's `tool_operate.c`. Being trust, the result applies to the HTTPDNS queries as well.
    /// - SeeAlso: curl's "ENVIRONMENT" man page section, `CURLOPT_CAINFO`, `CURLOPT_CAPATH`.
    public func honoringCAEnvironment() -> TransportOptions {
        honoringCAEnvironment(lookup: { getenv($0).map { String(cString: $0) } })
    }

    /// ``honoringCAEnvironment()`` over any environment lookup, for tests.
    public func honoringCAEnvironment(lookup: (String) -> String?) -> TransportOptions {
        guard caFile == nil, caPath == nil, !insecure else { return self }
        func set(_ name: String) -> String? { lookup(name).flatMap { $0.isEmpty ? nil : $0 } }
        var options = self
        if let bundle = set("CURL_CA_BUNDLE") {
            options.caFile = bundle
        } else if let directory = set("SSL_CERT_DIR") {
            options.caPath = directory
        } else if let file = set("SSL_CERT_FILE") {
            options.caFile = file
        }
        return options
    }
}
