import Foundation
import Testing

/// A targets file (often from a repository or a pull request) may not run a program, read a secret or key file,
/// choose where vendor secrets go or change what is trusted: each such `resolver:` key is exit 2 with one line at
/// its place, before anything runs, and the same option still works on the command line.
@Suite struct TargetsFileTrustTests: LabSuite {
    let fixture: LabFixture
    init() throws { fixture = try LabFixture() }

    /// A resolver command that answers 127.0.0.2 for anything and leaves `marker` behind.
    private func resolverCommand(in scratch: TemporaryDirectory, marker: String) throws -> String {
        let script = scratch.path + "/resolver.sh"
        try "#!/bin/sh\ntouch '\(marker)'\necho \"$1:$2:127.0.0.2\"\n".write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        return script
    }

    /// A targets file whose `resolver:` holds `key: value` on line 3 (column 3), probing a.test.
    private func targetsFile(in scratch: TemporaryDirectory, _ key: String, _ value: String) throws -> String {
        let path = scratch.path + "/targets-\(key).yaml"
        try """
            # from a pull request
            resolver:
              \(key): \(value)
            targets: [ { url: "\(lab.https("a.test"))" } ]
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func keysThatRunProgramsReadSecretsOrChangeTrustAreRefusedAtTheirLine() throws {
        let scratch = try TemporaryDirectory()
        let marker = scratch.path + "/ran"
        let script = try resolverCommand(in: scratch, marker: marker)
        let fixtureServer = "http://\(try lab.value("LAB_HTTPDNS_IP")):\(try lab.value("LAB_HTTPDNS_HTTP_PORT"))"
        let refused: [(key: String, value: String, why: String)] = [
            ("resolver-cmd", script, "runs a program"),
            ("resolver_cmd", script, "runs a program"),
            ("httpdns-secret-file", try lab.value("LAB_ALIYUN_SECRET_FILE"), "secret"),
            ("aliyun-aes-key-file", try lab.value("LAB_ALIYUN_AES_KEY_FILE"), "secret"),
            ("dnspod-key-file", try lab.value("LAB_DNSPOD_AES_KEY_FILE"), "secret"),
            ("dnspod-token-file", try lab.value("LAB_DNSPOD_TOKEN_FILE"), "secret"),
            ("httpdns-server", fixtureServer, "secrets are sent to"),
            ("cacert", lab.ca, "trusted"),
            ("capath", "/etc/ssl/certs", "trusted"),
            ("insecure", "true", "verification"),
        ]
        for (key, value, why) in refused {
            let path = try targetsFile(in: scratch, key, value)
            // A --resolve entry would win over the file's resolver command, so that one runs without it.
            let pin = key.hasPrefix("resolver") ? [] : ["--resolve", "a.test:\(lab.httpsPort):\(lab.ip)"]
            let result = try ipcurl(["check"] + pin + ["--cacert", lab.ca, "--targets", path])
            #expect(result.status == 2, "\(key): exit \(result.status): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.isEmpty, "\(key): nothing is probed")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines.first?.hasPrefix("ipcurl: \(path):3:3: \"\(key)\" ") == true,
                    "\(key): \(result.stderr)")
            #expect(result.stderr.contains(why) && result.stderr.contains("a targets file may not"), "\(key): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: marker), "the file's resolver command never ran")
    }

    @Test func theSameOptionsStillWorkOnTheCommandLine() throws {
        let scratch = try TemporaryDirectory()
        let marker = scratch.path + "/ran"
        let script = try resolverCommand(in: scratch, marker: marker)
        let path = try targetsFile(in: scratch, "no-fallback", "true")
        let result = try ipcurl(["check", "--resolver-cmd", script, "--cacert", lab.ca, "--targets", path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: marker), "the command line's resolver command ran")
    }
}
