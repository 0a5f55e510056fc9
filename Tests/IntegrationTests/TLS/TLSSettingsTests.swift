import Foundation
import Testing

/// `--pinnedpubkey`, `--tlsv1.x`, `--tls-max`, `--ciphers`, `--tls13-ciphers`, `--cert-status` and `--capath`,
/// compared with curl 7.88.1; the target's settings never reach the DoH query, trust settings do.
@Suite struct TLSSettingsTests: LabSuite {
    let fixture: LabFixture
    init() throws {
        fixture = try LabFixture()
    }

    var url: String { lab.https("a.test") }

    /// The DoH server's key differs from a.test's: were the pin applied to the DoH query, resolving would fail (6).
    @Test func pinnedKeysMatchCurl() throws {
        let pin = try String(contentsOfFile: try lab.value("LAB_A_PIN_FILE"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try oracle.compare(["--pinnedpubkey", pin, url])
        try oracle.compare(["--pinnedpubkey", "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=;" + pin, url])
        try oracle.compare(["--pinnedpubkey", try lab.value("LAB_A_PUBKEY"), url])
        let mismatch = try oracle.compare(["--pinnedpubkey", "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", url])
        #expect(mismatch.status == 90)
        try oracle.compare(["--pinnedpubkey", "/nonexistent/key.pem", url])
    }

    @Test func versionsCiphersAndStaplingMatchCurl() throws {
        for arguments in [["--tlsv1.2"], ["--tlsv1.3"], ["--tlsv1.0", "--tls-max", "1.2"], ["--tls-max", "default"],
                          ["--tlsv1.3", "--tls-max", "1.2"], ["--tls-max", "1.1"], ["--tls-max", "1.4"],
                          ["--tls-max", "1.2", "--ciphers", "ECDHE-ECDSA-AES128-GCM-SHA256"],
                          ["--tls-max", "1.2", "--ciphers", "NOPE"], ["--tls13-ciphers", "TLS_CHACHA20_POLY1305_SHA256"],
                          ["--tls13-ciphers", "NOPE"]] {
            try oracle.compare(arguments + ["-o", "/dev/null", "-w", "%{http_code} %{ssl_verify_result}\n", url])
        }
        let bad = try oracle.ours(["--tls-max", "1.4", url])
        #expect(bad.status == 2 && bad.stderr.contains("option --tls-max: is badly used here"))
        // The DoH server staples nothing either: 91 (not 6) shows --cert-status is the target's only, as in curl.
        let status = try oracle.compare(["--cert-status", url])
        #expect(status.status == 91)
    }

    @Test func caDirectoryAndCAVariablesMatchCurl() throws {
        let scratch = try TemporaryDirectory()
        let directory = scratch.path + "/capath"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: lab.ca, toPath: directory + "/lab.pem")
        #expect(try run("/usr/bin/openssl", ["rehash", directory]).status == 0)
        // Each one trusts the lab CA for the request and for the DoH query (which uses the lab CA too).
        try oracle.compare(["--capath", directory, url], trust: false)
        try oracle.compare([url], trust: false, environment: ["CURL_CA_BUNDLE": lab.ca])
        try oracle.compare([url], trust: false, environment: ["SSL_CERT_DIR": directory, "SSL_CERT_FILE": "/nonexistent"])
        try oracle.compare([url], trust: false, environment: ["SSL_CERT_FILE": lab.ca])
        let missing = try oracle.compare([url], trust: false, environment: ["CURL_CA_BUNDLE": "/nonexistent/ca.pem"])
        #expect(missing.status == 77)
        // --cacert and --capath win over the variables; -k ignores them.
        try oracle.compare([url], environment: ["CURL_CA_BUNDLE": "/nonexistent/ca.pem"])
        try oracle.compare(["--capath", directory, url], trust: false, environment: ["CURL_CA_BUNDLE": "/nonexistent/ca.pem"])
        try oracle.compare(["-k", url], trust: false, environment: ["CURL_CA_BUNDLE": "/nonexistent/ca.pem"])
        // Nothing trusts the lab CA: curl fails at a.test (60), ipcurl already at its DoH query (6).
        let untrusted = try oracle.ours([url], trust: false)
        #expect(untrusted.status == 6 && untrusted.stderr.contains("SSL certificate problem"), "\(untrusted.stderr)")
    }
}
