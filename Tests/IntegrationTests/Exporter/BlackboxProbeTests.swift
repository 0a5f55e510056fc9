import CurlKit
import Foundation
import HTTPDNS
@testable import IPCurlCore
import Testing

/// ``BlackboxProbe`` in process against the lab, side by side with the lab's real blackbox_exporter (module
/// `https_lab`: IPv4, no fallback, the lab CA): the metrics both name carry the same values, timings excepted.
@Suite struct BlackboxProbeTests {
    let lab: Lab
    init() throws { lab = try Lab.current() }

    /// A session resolving through the lab's DoH server, without the system fallback or a cache.
    func session() -> ResolverSession {
        var settings = ResolverSettings()
        settings.provider = ProviderChoice(.doh, [lab.dohURL])
        settings.fallback = false
        return ResolverSession(settings: settings, transport: TransportOptions(caFile: lab.ca),
                               diagnostics: Diagnostics(program: "ipcurl", stream: DescriptorWriter(descriptor: -1)))
    }

    func labModule() -> BlackboxHTTPSettings {
        var settings = BlackboxHTTPSettings()
        settings.preferredFamily = .v4
        settings.ipProtocolFallback = false
        settings.caFile = lab.ca
        return settings
    }

    @Test func theMetricsBothNameAgreeWithBlackboxExporter() throws {
        let target = "https://localhost:\(lab.httpsPort)/"
        let exporter = try lab.value("LAB_BLACKBOX_URL")
        let theirs = try run("/usr/bin/curl", ["-sS", "--noproxy", "*", "\(exporter)/probe?module=https_lab&target=\(target)"]).stdout
        let outcome = BlackboxProbe.run(BlackboxProbe.Request(module: "https_lab", target: target, timeoutMS: 5000, settings: labModule()),
                                        session: session())
        #expect(outcome.success, "\(outcome.log.lines)")
        BlackboxAgreement.expect(ours: outcome.registry.text, theirs: theirs)
    }
}

/// The two expiry metrics of a chain whose root expires before its leaf: `openssl s_server` serving a leaf signed by
/// a CA made at test time with a shorter life (the leaf is sent alone; the CA is the module's `ca_file`).
@Suite struct BlackboxChainExpiryTests {
    /// `notAfter` of the PEM certificate at `path`, in Unix seconds, as `openssl x509 -enddate` prints it.
    static func notAfter(_ path: String) throws -> Int64 {
        let text = try run("/usr/bin/openssl", ["x509", "-noout", "-enddate", "-in", path]).stdout
        let value = text.split(separator: "=", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        return try #require(CertificateSummary.time(value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")))
    }

    @Test func theVerifiedChainsExpiryIsTheRootsAndThePeersTheLeafs() throws {
        let scratch = try TemporaryDirectory()
        let dir = scratch.path
        func openssl(_ arguments: [String]) throws {
            let result = try run("/usr/bin/openssl", arguments)
            guard result.status == 0 else { throw LabError("openssl \(arguments.first ?? ""): \(result.stderr)") }
        }
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "30",
                     "-subj", "/CN=Short CA", "-keyout", dir + "/ca.key", "-out", dir + "/ca.pem"])
        try openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=chain.test",
                     "-keyout", dir + "/leaf.key", "-out", dir + "/leaf.csr"])
        try "subjectAltName=DNS:chain.test\n".write(toFile: dir + "/ext.cnf", atomically: true, encoding: .utf8)
        try openssl(["x509", "-req", "-in", dir + "/leaf.csr", "-CA", dir + "/ca.pem", "-CAkey", dir + "/ca.key", "-CAcreateserial",
                     "-days", "90", "-extfile", dir + "/ext.cnf", "-out", dir + "/leaf.pem"])
        // A free port on 127.0.0.1, then openssl's test server on it.
        let (probe, port) = try listeningSocket(address: "127.0.0.1", backlog: 1)
        close(probe)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        server.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", dir + "/leaf.pem", "-key", dir + "/leaf.key", "-www", "-quiet"]
        server.standardInput = FileHandle.nullDevice
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {  // s_server does not stop on SIGTERM
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        var settings = ResolverSettings()
        settings.provider = ProviderChoice(.doh, [try Lab.current().dohURL])  // the pin answers; no public server
        settings.staticEntries = [try ResolveEntry(parsing: "chain.test:\(port):127.0.0.1")]
        settings.fallback = false
        let session = ResolverSession(settings: settings, transport: TransportOptions(),
                                      diagnostics: Diagnostics(program: "ipcurl", stream: DescriptorWriter(descriptor: -1)))
        var module = BlackboxHTTPSettings()
        module.caFile = dir + "/ca.pem"
        module.preferredFamily = .v4
        var outcome = BlackboxProbe.run(.init(module: "m", target: "https://chain.test:\(port)/", timeoutMS: 2000, settings: module),
                                        session: session)
        for _ in 0..<20 where !outcome.success {  // s_server may not be listening yet
            usleep(100_000)
            outcome = BlackboxProbe.run(.init(module: "m", target: "https://chain.test:\(port)/", timeoutMS: 5000, settings: module),
                                        session: session)
        }
        #expect(outcome.success, "\(outcome.log.lines)")
        let samples = BlackboxAgreement.samples(outcome.registry.text)
        #expect(samples["probe_ssl_earliest_cert_expiry"] == Double(try Self.notAfter(dir + "/leaf.pem")))
        #expect(samples["probe_ssl_last_chain_expiry_timestamp_seconds"] == Double(try Self.notAfter(dir + "/ca.pem")))
    }
}
