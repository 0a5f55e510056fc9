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

    /// `name{labels} value` lines of an exposition, by the text before the value.
    static func samples(_ text: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    @Test func theMetricsBothNameAgreeWithBlackboxExporter() throws {
        let target = "https://localhost:\(lab.httpsPort)/"
        let exporter = try lab.value("LAB_BLACKBOX_URL")
        let theirs = Self.samples(try run("/usr/bin/curl", ["-sS", "--noproxy", "*", "\(exporter)/probe?module=https_lab&target=\(target)"]).stdout)
        let outcome = BlackboxProbe.run(BlackboxProbe.Request(module: "https_lab", target: target, timeoutMS: 5000, settings: labModule()),
                                        session: session())
        let ours = Self.samples(outcome.registry.text)
        #expect(outcome.success, "\(outcome.log.lines)")
        let timed = ["probe_duration_seconds", "probe_dns_lookup_time_seconds", "probe_http_duration_seconds"]
        let compared = theirs.keys.filter { key in !timed.contains { key.hasPrefix($0) } }
        #expect(compared.count >= 14, "\(theirs.keys.sorted())")
        for key in compared.sorted() {
            #expect(ours[key] == theirs[key], "\(key): blackbox_exporter \(theirs[key]!), ipcurl \(String(describing: ours[key]))")
        }
        let phases = Set(ours.keys.filter { $0.hasPrefix("probe_http_duration_seconds") })
        #expect(phases == Set(theirs.keys.filter { $0.hasPrefix("probe_http_duration_seconds") }))
    }
}
