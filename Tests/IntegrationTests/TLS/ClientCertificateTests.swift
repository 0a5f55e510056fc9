import Foundation
import Testing

/// `-E/--cert`, `--key`, `--cert-type`, `--key-type`, `--pass` against mtls.test (which demands a certificate from
/// the lab CA), compared with curl 7.88.1. ipcurl reads the passphrase from a file or `$IPCURL_PASS`, curl from argv.
@Suite struct ClientCertificateTests: LabSuite {
    let fixture: LabFixture
    let passphrase: String
    init() throws {
        fixture = try LabFixture()
        passphrase = try String(contentsOfFile: try fixture.lab.value("LAB_CLIENT_PASS_FILE"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    var url: String { lab.https("mtls.test") }

    @Test func certificateFormsMatchCurl() throws {
        let cert = try lab.value("LAB_CLIENT_CERT"), key = try lab.value("LAB_CLIENT_KEY")
        let passFile = try lab.value("LAB_CLIENT_PASS_FILE"), p12 = try lab.value("LAB_CLIENT_P12")
        let accepted = try oracle.compare(["-E", cert, "--key", key, url])
        #expect(accepted.stdout == "vhost=mtls.test client=CN=lab client,O=ipcurl lab verify=SUCCESS\n")
        try oracle.compare(["--cert", try lab.value("LAB_CLIENT_DER"), "--cert-type", "DER",
                            "--key", try lab.value("LAB_CLIENT_KEY_DER"), "--key-type", "DER", url])
        try oracle.compare(["-E", cert, "--key", try lab.value("LAB_CLIENT_ENC_KEY"), "--pass", passFile, url],
                           ["-E", cert, "--key", try lab.value("LAB_CLIENT_ENC_KEY"), "--pass", passphrase, url])
        try oracle.compare(["-E", p12, "--cert-type", "P12", url], ["-E", "\(p12):\(passphrase)", "--cert-type", "P12", url],
                           ourEnvironment: ["IPCURL_PASS": passphrase])
        try oracle.compare(["-E", "\(p12):\(passphrase)", "--cert-type", "P12", url])
        try oracle.compare([url])  // no certificate: nginx's 400 page, exit 0
    }

    @Test func unusableCertificatesAreExit58AsInCurl() throws {
        let cert = try lab.value("LAB_CLIENT_CERT"), key = try lab.value("LAB_CLIENT_KEY")
        try oracle.compare(["-E", "/nonexistent/client.pem", url])
        try oracle.compare(["-E", cert, "--key", key, "--cert-type", "FOO", url])
        try oracle.compare(["-E", "\(try lab.value("LAB_CLIENT_P12")):\(passphrase)", url])  // P12 read as PEM
        let wrong = try TemporaryDirectory()
        try writePrivateFile("not the passphrase\n", to: wrong.path + "/pass")
        try oracle.compare(["-E", cert, "--key", try lab.value("LAB_CLIENT_ENC_KEY"), "--pass", wrong.path + "/pass", url],
                           ["-E", cert, "--key", try lab.value("LAB_CLIENT_ENC_KEY"), "--pass", "not the passphrase", url])
    }

    @Test func thePassphraseIsNeverShown() throws {
        let cert = try lab.value("LAB_CLIENT_CERT"), p12 = try lab.value("LAB_CLIENT_P12")
        for arguments in [["-E", "\(p12):\(passphrase)", "--cert-type", "P12"], ["-E", "\(p12):\(passphrase)"],
                          ["-E", cert, "--key", try lab.value("LAB_CLIENT_ENC_KEY"), "--pass", try lab.value("LAB_CLIENT_PASS_FILE")]] {
            let result = try oracle.ours(["-v", "-w", "%{json}"] + arguments + [url])
            #expect(!result.stderr.contains(passphrase) && !result.stdout.contains(passphrase), "\(arguments)")
        }
        let missing = try oracle.ours(["--pass", "/nonexistent/pass", "-E", cert, url])
        #expect(missing.status == 26 && !missing.stderr.contains(passphrase))
        // `--pass` names a file: the passphrase itself on the command line is a file that cannot be read, not repeated.
        let given = try oracle.ours(["-E", cert, "--key", try lab.value("LAB_CLIENT_ENC_KEY"), "--pass", passphrase, url])
        #expect(given.status == 26 && !given.stderr.contains(passphrase) && given.stdout.isEmpty, "\(given.stderr)")
    }
}
