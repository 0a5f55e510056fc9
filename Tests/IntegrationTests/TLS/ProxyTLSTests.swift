import Foundation
import Testing

/// The `https://` proxy's TLS options (`--proxy-cacert` … `--proxy-tlspassword`) through the lab's TLS forward
/// proxy (127.0.0.7, a certificate for that address from the lab CA; it asks for a client certificate without
/// demanding one and logs the one it got), compared with curl. Each is the proxy's own: `-k` never reaches the
/// proxy, nor `--proxy-insecure` the target. ipcurl reads the proxy key's passphrase and the TLS-SRP password
/// from files or the environment only, where curl takes them as text.
@Suite struct ProxyTLSTests: LabSuite {
    let fixture: LabFixture
    let proxy: String, certs: String
    init() throws {
        fixture = try LabFixture()
        proxy = try fixture.lab.value("LAB_PROXY_TLS_URL")
        certs = URL(fileURLWithPath: try fixture.lab.value("LAB_PROXY_TLS_PUBKEY")).deletingLastPathComponent().path
    }

    let format = "%{http_code} %{http_connect}\n"
    var url: String { lab.https("a.test") }

    /// Trust: the proxy is verified against libcurl's CA store unless given its own; `-k` turns off the target's
    /// verification only, `--proxy-insecure` the proxy's only.
    @Test func theProxyIsVerifiedWithItsOwnTrust() throws {
        let verified = try oracle.compare(["-x", proxy, "--proxy-cacert", lab.ca, "-w", format, url])
        #expect(verified.status == 0 && verified.stdout.hasSuffix("\n200 200\n"))
        #expect(try oracle.compare(["-x", proxy, "-w", format, url]).status == 60, "the lab CA is not in the system store")
        #expect(try oracle.compare(["-x", proxy, "-k", "-w", format, url]).status == 60, "-k is the target's only")
        #expect(try oracle.compare(["-x", proxy, "--proxy-insecure", "-w", format, url]).status == 0)
        try oracle.compare(["-x", proxy, "--proxy-insecure", "--no-proxy-insecure", "-w", format, url])
        #expect(try oracle.compare(["-x", proxy, "--proxy-insecure", "-w", format, url], trust: false).status != 0,
                "the target is still verified (libcurl 7.88.1 ends a failed verification inside the proxy's TLS with 35)")
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: lab.ca, toPath: directory.path + "/ca.pem")
        #expect(try run("/usr/bin/openssl", ["rehash", directory.path]).status == 0)
        #expect(try oracle.compare(["-x", proxy, "--proxy-capath", directory.path, "-w", format, url]).status == 0)
        // As curl: --capath verifies the proxy too when --proxy-capath is not given (--cacert does not).
        #expect(try oracle.compare(["-x", proxy, "--capath", directory.path, "-w", format, url], trust: false).status == 0)
        #expect(try oracle.compare(["-x", proxy, "--cacert", lab.ca, "-w", format, url], trust: false).status == 60)
    }

    /// A revocation list naming the proxy's certificate fails its verification (60); one that does not, passes.
    @Test func aRevocationListForTheProxy() throws {
        let directory = try TemporaryDirectory()
        let config = directory.path + "/ca.cnf"
        try "[ ca ]\ndefault_ca = lab\n[ lab ]\ndatabase = \(directory.path)/index.txt\ncrlnumber = \(directory.path)/crlnumber\ndefault_md = sha256\ndefault_crl_days = 1\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        try "".write(toFile: directory.path + "/index.txt", atomically: true, encoding: .utf8)
        try "01\n".write(toFile: directory.path + "/crlnumber", atomically: true, encoding: .utf8)
        let ca = ["ca", "-config", config, "-keyfile", certs + "/ca.key", "-cert", lab.ca]
        #expect(try run("/usr/bin/openssl", ca + ["-gencrl", "-out", directory.path + "/empty.pem"]).status == 0)
        #expect(try run("/usr/bin/openssl", ca + ["-revoke", certs + "/proxy.test.pem"]).status == 0)
        #expect(try run("/usr/bin/openssl", ca + ["-gencrl", "-out", directory.path + "/revoked.pem"]).status == 0)
        let trusted = ["-x", proxy, "--proxy-cacert", lab.ca, "-w", format]
        #expect(try oracle.compare(trusted + ["--proxy-crlfile", directory.path + "/empty.pem", url]).status == 0)
        #expect(try oracle.compare(trusted + ["--proxy-crlfile", directory.path + "/revoked.pem", url]).status == 60)
    }

    /// A client certificate for the proxy, in PEM, DER and PKCS#12, the key's passphrase from a file or
    /// `$IPCURL_PROXY_PASS` (curl is given it as text); the proxy logs the certificate it got.
    @Test func aClientCertificateForTheProxy() throws {
        let cert = try lab.value("LAB_CLIENT_CERT"), passFile = try lab.value("LAB_CLIENT_PASS_FILE")
        let passphrase = try String(contentsOfFile: passFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let trusted = ["-x", proxy, "--proxy-cacert", lab.ca, "-w", format]
        let log = try lab.value("LAB_PROXY_LOG")
        let before = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
        #expect(try oracle.compare(trusted + ["--proxy-cert", cert, "--proxy-key", try lab.value("LAB_CLIENT_KEY"), url]).status == 0)
        let logged = String(decoding: try Data(contentsOf: URL(fileURLWithPath: log)).dropFirst(before), as: UTF8.self)
        #expect(logged.contains(": client lab client\n"), "\(logged)")
        try oracle.compare(trusted + ["--proxy-cert", try lab.value("LAB_CLIENT_DER"), "--proxy-cert-type", "DER",
                                      "--proxy-key", try lab.value("LAB_CLIENT_KEY_DER"), "--proxy-key-type", "DER", url])
        let encrypted = trusted + ["--proxy-cert", cert, "--proxy-key", try lab.value("LAB_CLIENT_ENC_KEY")]
        let fromFile = try oracle.compare(encrypted + ["--proxy-pass", passFile, url], encrypted + ["--proxy-pass", passphrase, url])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        try oracle.compare(encrypted + [url], encrypted + ["--proxy-pass", passphrase, url], ourEnvironment: ["IPCURL_PROXY_PASS": passphrase])
        let p12 = trusted + ["--proxy-cert-type", "P12"]
        try oracle.compare(p12 + ["--proxy-cert", try lab.value("LAB_CLIENT_P12") + ":" + passphrase, url])
        try oracle.compare(p12 + ["--proxy-cert", try lab.value("LAB_CLIENT_P12"), "--proxy-pass", passFile, url],
                           p12 + ["--proxy-cert", try lab.value("LAB_CLIENT_P12"), "--proxy-pass", passphrase, url])
        // The wrong passphrase: 58 for both; a passphrase given as text is a file name to ipcurl, which it cannot read.
        try oracle.compare(encrypted + [url], encrypted + ["--proxy-pass", "wrong", url], ourEnvironment: ["IPCURL_PROXY_PASS": "wrong"])
        let text = try oracle.ours(["-sS"] + encrypted + ["--proxy-pass", passphrase, url])
        #expect(text.status == 26, "\(text.stderr)")
    }

    /// Ciphers, versions, the BEAST switch and TLS-SRP reach libcurl and end as curl's do (libcurl 7.88.1 refuses
    /// `CURLOPT_PROXY_TLSAUTH_TYPE` whatever its value: 43 for both). A pinned key the proxy's does not match is
    /// exit 90, where curl 7.88.1 never hands `--proxy-pinnedpubkey` to libcurl (fixed in curl 8.10) and connects.
    @Test func theProxyHandshakeSettingsAsCurl() throws {
        let trusted = ["-x", proxy, "--proxy-cacert", lab.ca, "-w", format]
        #expect(try oracle.compare(trusted + ["--proxy-ciphers", "NOPE", url]).status == 59)
        #expect(try oracle.compare(trusted + ["--proxy-tls13-ciphers", "TLS_AES_128_CCM_8_SHA256", url]).status == 35)
        try oracle.compare(trusted + ["--proxy-ciphers", "ECDHE-ECDSA-AES128-GCM-SHA256", "--proxy-tls13-ciphers", "TLS_AES_256_GCM_SHA384", url])
        try oracle.compare(trusted + ["--proxy-tlsv1", "--proxy-ssl-allow-beast", url])
        try oracle.compare(trusted + ["--proxy-pinnedpubkey", try lab.value("LAB_PROXY_TLS_PUBKEY"), url])
        try oracle.compare(trusted + ["--proxy-pinnedpubkey", try String(contentsOfFile: try lab.value("LAB_PROXY_TLS_PIN_FILE"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines), url])
        let otherKey = trusted + ["--proxy-pinnedpubkey", try lab.value("LAB_A_PUBKEY"), url]
        let (mine, curls) = (try oracle.ours(["-sS"] + otherKey), try oracle.theirs(["-sS"] + otherKey))
        #expect(mine.status == 90 && curls.status == 0, "\(mine.stderr)")
        #expect(mine.stderr == "ipcurl: (90) SSL: public key does not match pinned public key\n")
        let directory = try TemporaryDirectory()
        let password = directory.path + "/srp"
        try writePrivateFile("srp-secret\n", to: password)
        let srp = trusted + ["--proxy-tlsauthtype", "SRP", "--proxy-tlsuser", "srpuser"]
        for (ours, theirs, environment) in [(srp + ["--proxy-tlspassword", password], srp + ["--proxy-tlspassword", "srp-secret"], [:]),
                                            (srp, srp + ["--proxy-tlspassword", "srp-secret"], ["IPCURL_PROXY_TLSPASSWORD": "srp-secret"])] {
            let (mine, curls) = (try oracle.ours(["-sS"] + ours + [url], environment: environment), try oracle.theirs(["-sS"] + theirs + [url]))
            #expect(mine.status == 43 && curls.status == 43, "\(mine.stderr)")
        }
        try oracle.compare(["--proxy-tlsuser", "srpuser", "--proxy-tlspassword", password] + trusted + [url],
                           ["--proxy-tlsuser", "srpuser", "--proxy-tlspassword", "srp-secret"] + trusted + [url])
        #expect(try oracle.compare(trusted + ["--proxy-tlsauthtype", "TLS-PSK", url]).status == 2)
    }
}
