import CurlKit
import ExporterHTTP
import IPCurlCore

/// `--web.config.file` as the server's security: TLS and its client verification, and the basic-auth users.
enum WebSecurity {
    /// The security of the file at `path` (none without one); warnings go to `log`; a file that cannot be used is a
    /// usage error naming its line and column.
    static func load(_ path: String?, log: ServerLog) throws(CurlError) -> HTTPServerSecurity {
        guard let path else { return HTTPServerSecurity() }
        let config: WebConfig
        do throws(TargetsFileError) { config = try WebConfig.load(path: path) } catch { throw CurlError.usage(error.description) }
        for warning in config.warnings { log.warn(warning) }
        var security = HTTPServerSecurity(basicAuthUsers: config.basicAuthUsers)
        if let tls = config.tls {
            guard let auth = HTTPServerSecurity.ClientAuth(rawValue: tls.clientAuth) else {
                throw CurlError.usage("\(path): client_auth_type \(tls.clientAuth) is not supported")
            }
            security.tls = HTTPServerSecurity.TLS(certificatePEM: tls.certificatePEM, keyPEM: tls.keyPEM, clientCAPEM: tls.clientCAPEM,
                                                  clientAuth: auth)
        }
        return security
    }
}
