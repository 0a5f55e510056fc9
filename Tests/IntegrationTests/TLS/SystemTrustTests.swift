import Foundation
import Testing

/// libcurl's built-in CA locations on Debian, and whether a test may mount over them.
enum SystemStore {
    static let certs = "/etc/ssl/certs", bundle = "/etc/ssl/certs/ca-certificates.crt"
    static let canMount = getuid() == 0 && (try? run("/usr/bin/unshare", ["-m", "/bin/true"]).status) == 0
}

/// Trust with no CA option and no CA variables, in private copies of /etc/ssl/certs bind-mounted over the real one
/// (`unshare -m`): ipcurl verifies through the hashed directory alone when it is as new as the bundle, through
/// libcurl's defaults otherwise, and exits as `/usr/bin/curl` does in the same store.
@Suite(.enabled(if: SystemStore.canMount, "needs root and unshare -m to mount a private /etc/ssl/certs"))
struct SystemTrustTests {
    static let certs = SystemStore.certs, bundle = SystemStore.bundle

    let lab: Lab
    init() throws { lab = try Lab.current() }

    var url: String { lab.https("a.test") }
    var pin: [String] { ["--resolve", "a.test:\(lab.httpsPort):\(lab.ip)"] }

    /// A copy of /etc/ssl/certs with the lab CA hash-linked in the directory and/or appended to the bundle;
    /// `bundleLast` makes the bundle newer than the directory (edited by hand after the last rehash). `body` gets
    /// the store's path and a scratch directory, both removed after it.
    func withStore(linked: Bool, bundled: Bool, bundleLast: Bool = false,
                   _ body: (_ store: String, _ scratch: String) throws -> Void) throws {
        let scratch = try TemporaryDirectory()
        let store = scratch.path + "/certs"
        #expect(try run("/bin/cp", ["-a", Self.certs, store]).status == 0)
        if linked {
            try FileManager.default.copyItem(atPath: lab.ca, toPath: store + "/ipcurl-lab-ca.pem")
            let hash = try run("/usr/bin/openssl", ["x509", "-hash", "-noout", "-in", lab.ca]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let index = (0...).first { !FileManager.default.fileExists(atPath: "\(store)/\(hash).\($0)") }!
            try FileManager.default.createSymbolicLink(atPath: "\(store)/\(hash).\(index)", withDestinationPath: "ipcurl-lab-ca.pem")
        }
        if bundled {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: store + "/ca-certificates.crt"))
            try handle.seekToEnd()
            try handle.write(contentsOf: try Data(contentsOf: URL(fileURLWithPath: lab.ca)))
            try handle.close()
        }
        // The one changed last is touched now (a touch also sets the other's status-change time, which counts).
        let (first, last) = bundleLast ? (store, store + "/ca-certificates.crt") : (store + "/ca-certificates.crt", store)
        #expect(try run("/usr/bin/touch", ["-d", "@1700000000", first]).status == 0)
        #expect(try run("/usr/bin/touch", [last]).status == 0)
        try withExtendedLifetime(scratch) { try body(store, scratch.path) }
    }

    /// The caller's environment without curl's CA and proxy variables, plus `extra`.
    static func environment(_ extra: [String: String] = [:], cache: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR", "IPCURL_DNS", "http_proxy", "https_proxy",
                     "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            environment.removeValue(forKey: name)
        }
        environment["IPCURL_CACHE_DIR"] = cache
        environment["LC_ALL"] = "C"
        return environment.merging(extra) { $1 }
    }

    /// `command` with `store` (if any) mounted on /etc/ssl/certs.
    func inStore(_ store: String?, _ command: [String], environment extra: [String: String] = [:]) throws -> Run {
        let scratch = try TemporaryDirectory()
        let environment = Self.environment(extra, cache: scratch.path + "/cache")
        let script = "mount --bind \"$1\" \(Self.certs) && shift && exec \"$@\""
        let mounted = store.map { ["/usr/bin/unshare", "-m", "/bin/sh", "-c", script, "sh", $0] + command } ?? command
        return try withExtendedLifetime(scratch) { try run(mounted[0], Array(mounted.dropFirst()), environment: environment) }
    }

    /// ipcurl -v and curl, both pinned to the lab, in `store`; expects the same exit code and error line.
    func both(_ store: String?, environment: [String: String] = [:]) throws -> Run {
        let ours = try inStore(store, [ipcurlBinary(), "-sS", "-v", "-o", "/dev/null"] + pin + [url], environment: environment)
        let curls = try inStore(store, ["/usr/bin/curl", "-sS", "-o", "/dev/null"] + pin + [url], environment: environment)
        #expect(ours.status == curls.status, "ipcurl \(ours.status) \(ours.stderr)\ncurl \(curls.status) \(curls.stderr)")
        #expect(CurlOracle.errorLine(ours) == CurlOracle.errorLine(curls))
        return ours
    }

    @Test func theRealStoreLacksTheLabCA() throws {
        let result = try both(nil)
        #expect(result.status == 60)
        let plain = try inStore(nil, [ipcurlBinary(), "-sS", "-o", "/dev/null"] + pin + [url])
        #expect(plain.stderr == "ipcurl: (60) SSL certificate problem: unable to get local issuer certificate\n", "\(plain.stderr)")
    }

    /// In a store built as `withStore` does, the pinned request succeeds for ipcurl and curl alike, and ipcurl's
    /// `-v` shows the trust it used (`trust`: libcurl's `CAfile`/`CApath` lines).
    func expectTrusted(linked: Bool, bundled: Bool, bundleLast: Bool = false, through trust: String) throws {
        try withStore(linked: linked, bundled: bundled, bundleLast: bundleLast) { store, _ in
            let result = try both(store)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains(trust), "\(result.stderr)")
        }
    }

    static let directoryOnly = "*  CAfile: none\n*  CApath: /etc/ssl/certs\n"

    @Test func aCurrentStoreIsReadThroughItsDirectory() throws {
        try expectTrusted(linked: true, bundled: true, through: Self.directoryOnly)
    }

    @Test func theBuiltInBundleNamedByCURLCABundleCountsAsTheDefault() throws {
        try withStore(linked: true, bundled: true) { store, scratch in
            let named = try both(store, environment: ["CURL_CA_BUNDLE": Self.bundle])
            #expect(named.status == 0 && named.stderr.contains("*  CAfile: none\n"), "\(named.stderr)")
            let copy = scratch + "/copy.crt"
            try FileManager.default.copyItem(atPath: store + "/ca-certificates.crt", toPath: copy)
            let other = try both(store, environment: ["CURL_CA_BUNDLE": copy])
            #expect(other.status == 0 && other.stderr.contains("*  CAfile: \(copy)\n"), "\(other.stderr)")
        }
    }

    @Test func aBundleEditedAfterTheRehashKeepsTheDefaults() throws {
        try expectTrusted(linked: false, bundled: true, bundleLast: true, through: "*  CAfile: \(Self.bundle)\n")
    }

    @Test func aCALinkedOnlyInTheDirectoryIsTrusted() throws {
        try expectTrusted(linked: true, bundled: false, through: Self.directoryOnly)
    }

    /// Both the DoH query (to 127.0.0.1) and the request are verified by the system store; the real store fails
    /// the DoH query already (6).
    @Test func dohQueriesAreVerifiedByTheSystemStore() throws {
        try withStore(linked: true, bundled: true) { store, _ in
            let command = [ipcurlBinary(), "-sS", "--no-fallback", "--doh", lab.dohURL, "-w", "\n%{dns_source}", url]
            let result = try inStore(store, command)
            #expect(result.status == 0 && result.stdout.hasPrefix("vhost=a.test "), "\(result.stderr)")
            #expect(result.stdout.hasSuffix("\ndoh"), "\(result.stdout)")
            let real = try inStore(nil, command)
            #expect(real.status == 6 && real.stderr.contains("SSL certificate problem"), "\(real.stderr)")
        }
    }

    /// A bundle replaced by rename (`sed -i`, most editors, deployment tools) leaves the directory as new as the
    /// bundle; the bundle then holds more certificates than the directory links, so libcurl's defaults are kept
    /// and the CA added to the bundle alone is trusted, as curl trusts it.
    @Test func aBundleReplacedByRenameKeepsItsCertificates() throws {
        try withStore(linked: false, bundled: false) { store, _ in
            var bundle = try Data(contentsOf: URL(fileURLWithPath: store + "/ca-certificates.crt"))
            bundle.append(try Data(contentsOf: URL(fileURLWithPath: lab.ca)))
            try bundle.write(to: URL(fileURLWithPath: store + "/ca-certificates.crt"), options: .atomic)
            let result = try both(store)
            #expect(result.status == 0, "\(result.stderr)")
        }
    }
}

/// The system store's hashed directory and its bundle trust the same certificates on this machine.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: SystemStore.bundle), "no system CA bundle to compare"))
struct SystemTrustStoreTests {
    static let certs = SystemStore.certs, bundle = SystemStore.bundle

    /// The hashed directory and the bundle trust the same certificates on this machine: one `openssl verify` of
    /// every bundle certificate against the directory alone, one of every hash link against the bundle alone,
    /// each with the lab CA (in neither) as the control that must fail. `-partial_chain` accepts a certificate
    /// found in the trust store itself: without it OpenSSL takes a self-signed root for the other root of the
    /// same subject (Firmaprofesional's two, `3bde41ac.0` and `.1`) and fails it against either store.
    @Test func theDirectoryAndTheBundleHoldTheSameCertificates() throws {
        let text = try String(contentsOfFile: Self.bundle, encoding: .utf8)
        let lab = try Lab.current()
        let scratch = try TemporaryDirectory()
        let end = "-----END CERTIFICATE-----"
        let pems = text.components(separatedBy: end).dropLast()
            .compactMap { part in part.range(of: "-----BEGIN CERTIFICATE-----").map { part[$0.lowerBound...] + end + "\n" } }
        #expect(pems.count > 10)
        var files: [String] = []
        for (index, pem) in pems.enumerated() {
            files.append("\(scratch.path)/c\(index).pem")
            try pem.write(toFile: files.last!, atomically: false, encoding: .utf8)
        }
        let control = scratch.path + "/lab-ca.pem"
        try FileManager.default.copyItem(atPath: lab.ca, toPath: control)
        let links = try FileManager.default.contentsOfDirectory(atPath: Self.certs)
            .filter { $0.wholeMatch(of: /[0-9a-f]{8}\.[0-9]+/) != nil }.sorted().map { Self.certs + "/" + $0 }
        #expect(links.count >= pems.count)
        for (trust, checked) in [(["-no-CAfile", "-CApath", Self.certs], files), (["-no-CApath", "-CAfile", Self.bundle], links)] {
            let result = try run("/usr/bin/openssl", ["verify"] + trust + ["-no_check_time", "-partial_chain"] + checked + [control])
            let verified = Set(result.stdout.split(separator: "\n").map(String.init))
            let missing = checked.filter { !verified.contains($0 + ": OK") }
            #expect(missing.isEmpty, "\(trust): not verified: \(missing) \(result.stderr)")
            #expect(result.status != 0 && result.stderr.contains("error \(control): verification failed"), "\(result.stderr)")
        }
    }
}
