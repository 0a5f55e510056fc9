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
