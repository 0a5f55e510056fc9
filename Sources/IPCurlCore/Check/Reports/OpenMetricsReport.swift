/// `--format openmetrics`: OpenMetrics text ending `# EOF`, readable by a Prometheus scrape, node_exporter's textfile
/// collector and a Pushgateway (classic text format, where `# UNIT` and `# EOF` are comments), so every family is a
/// gauge. blackbox_exporter's names where the meaning is the same, `ipcurl_` names for the rest.
///
/// Probe samples carry `name` (target name), `target` (URL), `ip` (empty when unresolved) and `family` (`ipv4`,
/// `ipv6`, empty), then, only when the same name, URL and address were probed more than once, `occurrence` on every
/// probe (1 for the first probe of its name, URL and address, 2 for the next), then the report labels (see ``MetricsWriter/labelName(_:)`` for renaming).
enum OpenMetricsReport {
    typealias Sample = (labels: [(String, String)], value: String)

    static func render(_ report: CheckReport) -> String {
        var out = MetricsWriter(labels: report.distinctLabels)
        let probes = zip(report.probes, labelSets(report.probes)).map { (probe: $0, labels: $1) }
        func each(_ value: (ProbeResult) -> String?) -> [Sample] {
            probes.compactMap { item in value(item.probe).map { (item.labels, $0) } }
        }
        func each(_ label: String, _ value: (ProbeResult) -> String?) -> [Sample] {
            probes.compactMap { item in value(item.probe).map { (item.labels + [(label, $0)], "1") } }
        }
        let now = report.startedAt
        out.gauge("probe_success", help: "Whether the transfer completed and every assertion held.", each { $0.passed ? "1" : "0" })
        out.gauge("probe_duration_seconds", unit: "seconds", help: "The HTTPDNS lookup plus the whole transfer.",
                  each { ReportFormat.seconds($0.timings.resolve + $0.timings.total) })
        out.gauge("probe_dns_lookup_time_seconds", unit: "seconds", help: "The HTTPDNS lookup of the name.",
                  each { ReportFormat.seconds($0.timings.resolve) })
        out.gauge("probe_http_duration_seconds", unit: "seconds", help: "Duration of the HTTP request by phase.", phases(probes))
        out.gauge("probe_http_status_code", help: "Response HTTP status code, 0 without a response.", each { String($0.status) })
        out.gauge("probe_http_version", help: "Returned version of HTTP, 0 without a response.", each { httpVersion($0.httpVersion) })
        out.gauge("probe_http_ssl", help: "Whether the response came over TLS.", each { $0.tlsVersion == nil ? "0" : "1" })
        out.gauge("probe_ip_protocol", help: "The probed address's IP protocol: 4 or 6, 0 without an address.",
                  each { $0.address.map { $0.family == .v6 ? "6" : "4" } ?? "0" })
        out.gauge("probe_tls_version_info", help: "The negotiated TLS version.", each("version") { $0.tlsVersion?.label })
        out.gauge("probe_ssl_earliest_cert_expiry", help: "Earliest notAfter in the peer's chain, seconds since 1970.",
                  each { $0.certificate.map { String($0.earliestNotAfter) } })
        out.gauge("ipcurl_probe_cert_remaining_seconds", unit: "seconds",
                  help: "From the check's start to the chain's earliest notAfter; negative once expired.",
                  each { $0.certificate.map { String($0.earliestNotAfter - now) } })
        out.gauge("ipcurl_probe_cert_not_after_timestamp_seconds", unit: "seconds",
                  help: "The leaf certificate's notAfter, seconds since 1970.", each { $0.certificate.map { String($0.notAfter) } })
        out.gauge("ipcurl_probe_cert_info", help: "The leaf certificate's subject, issuer and subject alternative names.",
                  probes.compactMap { item in item.probe.certificate.map { cert in
                      (item.labels + [("subject", cert.subject), ("issuer", cert.issuer),
                                      ("subject_alternative_names", cert.subjectAlternativeNames.joined(separator: ","))], "1")
                  } })
        out.gauge("ipcurl_probe_info", help: "Where the address came from and where the connection went.",
                  probes.map { ($0.labels + [("method", $0.probe.target.method), ("answer_source", $0.probe.answerSource),
                                             ("connected_ip", $0.probe.connectedIP)], "1") })
        out.gauge("ipcurl_probe_assertion_failures", help: "How many assertions failed.", each { String($0.failures.count) })
        out.gauge("ipcurl_probe_curl_exit_code", help: "curl's exit code for the transfer, 0 when it completed.",
                  each { String($0.error?.exitCode ?? 0) })
        out.gauge("ipcurl_probe_failure_info", help: "Why a failed probe failed: the failure type and the one-line reason.",
                  probes.compactMap { item in item.probe.failureType.map { (item.labels + [("type", $0), ("reason", item.probe.reason)], "1") } })
        out.gauge("ipcurl_probe_samples", help: "Samples taken of the address, each on a fresh connection.",
                  each { String($0.samples.count) })
        out.gauge("ipcurl_probe_failed_samples", help: "Samples of the address that failed.", each { String($0.samples.failed) })
        out.gauge("ipcurl_probe_attempts", help: "Transfers made for the address, retries included (over every sample).",
                  each { String($0.attempts) })
        out.gauge("ipcurl_probe_sample_duration_seconds", unit: "seconds",
                  help: "Over the completed samples, per phase: min, nearest-rank p50, p95, p99 and max.",
                  probes.flatMap { item in
                      item.probe.samples.spreads.flatMap { phase in
                          phase.spread.named.map { (item.labels + [("phase", phase.phase.rawValue), ("statistic", $0.name)],
                                                    ReportFormat.seconds($0.value)) }
                      }
                  })
        out.gauge("ipcurl_check_probes", help: "Probes in the check.", [([], String(report.probes.count))])
        out.gauge("ipcurl_check_failed_probes", help: "Probes that failed.", [([], String(report.failedCount))])
        out.gauge("ipcurl_check_duration_seconds", unit: "seconds", help: "The whole check's wall time.",
                  [([], ReportFormat.seconds(report.durationMicroseconds))])
        out.gauge("ipcurl_check_timestamp_seconds", unit: "seconds", help: "When the check started, seconds since 1970.",
                  [([], String(report.startedAt))])
        out.gauge("ipcurl_system_dns_mismatch", help: "Whether the system resolver's addresses differ from HTTPDNS's.",
                  report.comparisons.map { ([("host", $0.host)], $0.differs ? "1" : "0") })
        out.gauge("ipcurl_dns_address_info", help: "An address HTTPDNS or the system resolver returned for the name.",
                  report.comparisons.flatMap { comparison in
                      [("httpdns", comparison.httpdns), ("system", comparison.system)].flatMap { resolver, addresses in
                          addresses.map { ([("host", comparison.host), ("resolver", resolver), ("ip", $0.description)], "1") }
                      }
                  })
        return out.text + "# EOF\n"
    }

    /// Each probe's labels; `occurrence` is added to all when some name, URL and address repeat.
    private static func labelSets(_ probes: [ProbeResult]) -> [[(String, String)]] {
        let keys = probes.map { [$0.target.name, $0.target.url, $0.address?.description ?? ""] }
        let repeats = Set(keys).count < keys.count
        var seen: [[String]: Int] = [:]
        return zip(probes, keys).map { probe, key in
            var labels = [("name", key[0]), ("target", key[1]), ("ip", key[2]), ("family", probe.family)]
            if repeats {
                seen[key, default: 0] += 1
                labels.append(("occurrence", String(seen[key]!)))
            }
            return labels
        }
    }

    private static func phases(_ probes: [(probe: ProbeResult, labels: [(String, String)])]) -> [Sample] {
        probes.flatMap { item in
            let t = item.probe.timings
            return [("resolve", t.resolve), ("connect", t.connect), ("tls", t.tls), ("processing", t.processing),
                    ("transfer", t.transfer)].map { (item.labels + [("phase", $0.0)], ReportFormat.seconds($0.1)) }
        }
    }

    /// `1.1`, `2`; anything that is not a plain decimal number is 0.
    private static func httpVersion(_ text: String) -> String {
        let plain = !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) || $0 == 0x2E } && Double(text) != nil
        return plain ? text : "0"
    }
}
