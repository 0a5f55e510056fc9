import Foundation

/// Certificates made by `openssl` once per test run: a CA with a server certificate (127.0.0.1, localhost), a client
/// certificate for client authentication and one for server authentication only, and a second CA with a client
/// certificate of its own. Files live in one temporary directory.
struct TestPKI: Sendable {
    let directory: String

    static let shared: Result<TestPKI, Error> = Result { try TestPKI() }

    private init() throws {
        directory = NSTemporaryDirectory() + "/exporterhttp-pki-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try authority("ca")
        try authority("other-ca")
        try leaf("server", ca: "ca", usage: "serverAuth", san: "IP:127.0.0.1, DNS:localhost")
        try leaf("client", ca: "ca", usage: "clientAuth")
        try leaf("server-purpose", ca: "ca", usage: "serverAuth")
        try leaf("other-client", ca: "other-ca", usage: "clientAuth")
    }

    func path(_ name: String) -> String { directory + "/" + name }

    func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path(name)))) }

    private func authority(_ name: String) throws {
        try command("/usr/bin/openssl", ["req", "-x509", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                                         "-nodes", "-keyout", "\(name).key", "-out", "\(name).pem", "-days", "2",
                                         "-subj", "/CN=ExporterHTTP test \(name)",
                                         "-addext", "basicConstraints=critical,CA:TRUE",
                                         "-addext", "keyUsage=critical,keyCertSign,cRLSign"], in: directory)
    }

    private func leaf(_ name: String, ca: String, usage: String, san: String? = nil) throws {
        try command("/usr/bin/openssl", ["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                         "-keyout", "\(name).key", "-out", "\(name).csr", "-subj", "/CN=\(name)"],
                    in: directory)
        var extensions = ["basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature",
                          "extendedKeyUsage=\(usage)"]
        if let san { extensions.append("subjectAltName=\(san)") }
        try (extensions.joined(separator: "\n") + "\n").write(toFile: path("\(name).ext"), atomically: true, encoding: .utf8)
        try command("/usr/bin/openssl", ["x509", "-req", "-in", "\(name).csr", "-days", "2", "-sha256", "-CA", "\(ca).pem",
                                         "-CAkey", "\(ca).key", "-set_serial", "0x\(UUID().uuidString.prefix(8))",
                                         "-extfile", "\(name).ext", "-out", "\(name).pem"], in: directory)
    }
}
