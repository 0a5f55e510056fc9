import HTTPDNS

/// exporter-toolkit's web configuration (`--web.config.file`), as blackbox_exporter reads it: TLS for the server
/// (`tls_server_config`: `cert_file`, `key_file`, `client_auth_type`, `client_ca_file`) and `basic_auth_users`
/// (user → bcrypt hash). The files are read here; keys exporter-toolkit knows that ipcurl does not implement
/// (`min_version`, `max_version`, `cipher_suites`, `curve_preferences`, `prefer_server_cipher_suites`,
/// `http_server_config`) load with a warning each; any other key, a wrong type or a missing file is an error
/// naming its line and column.
/// - SeeAlso: prometheus/exporter-toolkit `docs/web-configuration.md`.
public struct WebConfig: Sendable {
    /// The server certificate and key (PEM) with the client verification, when TLS is configured.
    public var tls: (certificatePEM: [UInt8], keyPEM: [UInt8], clientCAPEM: [UInt8]?, clientAuth: String)?
    /// User → bcrypt hash.
    public var basicAuthUsers: [String: String] = [:]
    /// One line per key ignored.
    public var warnings: [String] = []

    /// exporter-toolkit's `client_auth_type` values.
    public static let clientAuthTypes = ["NoClientCert", "RequestClientCert", "RequireAnyClientCert", "VerifyClientCertIfGiven",
                                         "RequireAndVerifyClientCert"]
    private static let unsupported = ["min_version", "max_version", "cipher_suites", "curve_preferences", "prefer_server_cipher_suites"]

    /// Reads `path`; throws the one-line reason it cannot be used.
    public static func load(path: String) throws(TargetsFileError) -> WebConfig {
        let bytes = try TargetsFile.readFile(path, atMost: 1 << 20)
        func fail(_ node: YAMLNode?, _ message: String) -> TargetsFileError {
            TargetsFileError(path: path, line: node?.line ?? 1, column: node?.column ?? 1, message: message)
        }
        let root: YAMLNode?
        do { root = try YAMLDocument.parse(bytes) } catch {
            throw TargetsFileError(path: path, line: error.line, column: error.column, message: error.message)
        }
        var config = WebConfig()
        guard let root else { return config }
        guard case .mapping(let entries) = root.content else { throw fail(root, "expected a mapping, not \(root.kindDescription)") }
        for entry in entries {
            switch entry.key {
            case "tls_server_config":
                guard case .mapping(let fields) = entry.value.content else { throw fail(entry.value, "tls_server_config must be a mapping") }
                var values: [String: (String, YAMLNode)] = [:]
                for field in fields {
                    if unsupported.contains(field.key) {
                        config.warn(path, field.keyNode, "tls_server_config.\(field.key) is not supported by ipcurl exporter; ignored")
                        continue
                    }
                    guard ["cert_file", "key_file", "client_auth_type", "client_ca_file"].contains(field.key) else {
                        throw fail(field.keyNode, "unknown key \"\(field.key)\" in tls_server_config")
                    }
                    guard let text = field.value.text else { throw fail(field.value, "\(field.key) must be a string") }
                    values[field.key] = (text, field.value)
                }
                guard let cert = values["cert_file"], let key = values["key_file"] else {
                    throw fail(entry.keyNode, "tls_server_config needs cert_file and key_file")
                }
                let auth = values["client_auth_type"]?.0 ?? "NoClientCert"
                guard clientAuthTypes.contains(auth) else {
                    throw fail(values["client_auth_type"]?.1, "client_auth_type \"\(auth)\": expected one of \(clientAuthTypes.joined(separator: ", "))")
                }
                func read(_ value: (String, YAMLNode)) throws(TargetsFileError) -> [UInt8] {
                    do { return try TargetsFile.readFile(value.0, atMost: 1 << 20) } catch { throw fail(value.1, error.message) }
                }
                var ca: [UInt8]?
                if let file = values["client_ca_file"] { ca = try read(file) }
                if auth.contains("Verify"), ca == nil { throw fail(entry.keyNode, "client_auth_type \(auth) needs client_ca_file") }
                config.tls = (try read(cert), try read(key), ca, auth)
            case "basic_auth_users":
                guard case .mapping(let users) = entry.value.content else { throw fail(entry.value, "basic_auth_users must be a mapping") }
                for user in users {
                    guard let hash = user.value.text, hash.hasPrefix("$2") else {
                        throw fail(user.value, "the password of \"\(user.key)\" must be a bcrypt hash ($2y$…)")
                    }
                    config.basicAuthUsers[user.key] = hash
                }
            case "http_server_config":
                config.warn(path, entry.keyNode, "http_server_config is not supported by ipcurl exporter; ignored")
            default:
                throw fail(entry.keyNode, "unknown key \"\(entry.key)\" (expected tls_server_config, basic_auth_users or http_server_config)")
            }
        }
        return config
    }

    /// A warning at `node`, one line escaped for a terminal, as the module configuration's warnings.
    private mutating func warn(_ path: String, _ node: YAMLNode, _ message: String) {
        warnings.append(Printable.escaped("\(path):\(node.line):\(node.column): \(message)"))
    }
}
