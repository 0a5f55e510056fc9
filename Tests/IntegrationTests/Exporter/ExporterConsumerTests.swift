import Foundation
import Testing

/// A running Prometheus (Debian's `/usr/bin/prometheus`) with `config` as its configuration, its storage and log in a
/// temp directory, listening on 127.0.0.1 at a port of its choosing.
final class RunningPrometheus: @unchecked Sendable {
    let process = Process()
    let scratch: TemporaryDirectory
    let logPath: String
    private(set) var port = 0

    init(config: String) throws {
        scratch = try TemporaryDirectory()
        logPath = scratch.path + "/prometheus.log"
        try config.write(toFile: scratch.path + "/prometheus.yml", atomically: true, encoding: .utf8)
        guard FileManager.default.createFile(atPath: logPath, contents: nil), let log = FileHandle(forWritingAtPath: logPath) else {
            throw LabError("cannot write \(logPath)")
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prometheus")
        process.arguments = ["--config.file=" + scratch.path + "/prometheus.yml", "--storage.tsdb.path=" + scratch.path + "/data",
                             "--web.listen-address=127.0.0.1:0"]
        process.standardOutput = log
        process.standardError = log
        try process.run()
        // Its log tells the port it was given (`msg="Listening on" address=127.0.0.1:PORT`), and then that its API
        // answers (before that it is 503).
        var ready = false
        for _ in 0..<600 where !ready && process.isRunning {
            let lines = self.log.split(separator: "\n")
            if let line = lines.first(where: { $0.contains("msg=\"Listening on\"") }),
               let address = line.split(separator: " ").first(where: { $0.hasPrefix("address=127.0.0.1:") }) {
                port = Int(address.dropFirst("address=127.0.0.1:".count)) ?? 0
            }
            ready = port != 0 && lines.contains { $0.contains("msg=\"Server is ready to receive web requests.\"") }
            if !ready { usleep(50_000) }
        }
        guard ready else { throw LabError("prometheus did not become ready: \(self.log)") }
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The instant vector of `query` from the query API, as each series' `label` (`instance` unless told) and value.
    func query(_ query: String, by label: String = "instance") throws -> [String: String] {
        let url = "http://127.0.0.1:\(port)/api/v1/query?query=" + ExporterServerTests.encoded(query)
        let answer = try run("/usr/bin/curl", ["-sS", "--noproxy", "*", url]).stdout
        guard let object = try? JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any],
              object["status"] as? String == "success", let data = object["data"] as? [String: Any],
              let result = data["result"] as? [[String: Any]] else {
            throw LabError("prometheus's query API answered \(answer)")
        }
        var series: [String: String] = [:]
        for entry in result {
            guard let instance = (entry["metric"] as? [String: String])?[label],
                  let value = (entry["value"] as? [Any])?.last as? String else { continue }
            series[instance] = value
        }
        return series
    }

    /// What `/api/v1/targets` says of each active target: its health and last scrape error, one line each.
    var targets: String {
        let answer = (try? run("/usr/bin/curl", ["-sS", "--noproxy", "*", "http://127.0.0.1:\(port)/api/v1/targets"]).stdout) ?? ""
        guard let object = try? JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any],
              let active = (object["data"] as? [String: Any])?["activeTargets"] as? [[String: Any]] else { return answer }
        return active.map { "\($0["scrapeUrl"] ?? "?"): \($0["health"] ?? "?") \($0["lastError"] ?? "")" }.joined(separator: "\n")
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// `ipcurl exporter` under its real consumers: Debian's Prometheus scraping it with blackbox's documented relabelling,
/// the lab's blackbox_exporter answering the same probe over HTTP, and promtool linting what it serves.
@Suite(.serialized) struct ExporterConsumerTests {
    let lab: Lab
    init() throws { lab = try Lab.current() }

    /// `name`, a module with the settings of the lab blackbox_exporter's `https_lab`.
    func labModule(_ name: String) -> String {
        """
          \(name):
            prober: http
            timeout: 5s
            http:
              preferred_ip_protocol: ip4
              ip_protocol_fallback: false
              tls_config: { ca_file: \(lab.ca) }
        """
    }

    func exporter() throws -> RunningExporter {
        try RunningExporter(config: "modules:\n" + labModule("http_2xx") + "\n" + labModule("https_lab") + "\n",
                            arguments: ["--doh", lab.dohURL, "--cacert", lab.ca, "--no-fallback"])
    }

    @Test func prometheusScrapesAGoodAndAWrongCertificateTarget() throws {
        let exporter = try exporter()
        let good = lab.https("a.test"), wrong = lab.https("wrong.test")
        let prometheus = try RunningPrometheus(config: """
            global: { scrape_interval: 2s, scrape_timeout: 2s }
            scrape_configs:
              - job_name: ipcurl
                metrics_path: /probe
                params: { module: [http_2xx] }
                static_configs:
                  - targets: ["\(good)", "\(wrong)"]
                relabel_configs:
                  - { source_labels: [__address__], target_label: __param_target }
                  - { source_labels: [__param_target], target_label: instance }
                  - { target_label: __address__, replacement: "127.0.0.1:\(exporter.port)" }
            """)
        defer {
            kill(prometheus.process.processIdentifier, SIGTERM)
            prometheus.process.waitUntilExit()
        }
        // Wait (up to 30 s) for a scrape of each target; the values are the latest scrape's.
        var success: [String: String] = [:]
        for _ in 0..<150 where success.count < 2 {
            success = try prometheus.query("probe_success")
            if success.count < 2 { usleep(200_000) }
        }
        #expect(success == [good: "1", wrong: "0"], "\(success)\n\(prometheus.targets)\n\(prometheus.log)")
        // Both scrapes were read whole: Prometheus parsed the exposition and kept every sample of both.
        #expect(try prometheus.query("up") == [good: "1", wrong: "1"], "\(prometheus.targets)")
        #expect(try prometheus.query("probe_http_status_code") == [good: "200", wrong: "0"])
        #expect(try prometheus.query("count by (instance) (probe_http_duration_seconds)") == [good: "5", wrong: "5"])
    }

    @Test func blackboxExporterAndIpcurlExporterAgreeOverHTTP() throws {
        let exporter = try exporter()
        let target = ExporterServerTests.encoded("https://localhost:\(lab.httpsPort)/")
        let blackbox = try lab.value("LAB_BLACKBOX_URL")
        let theirs = try run("/usr/bin/curl", ["-sS", "--noproxy", "*", "\(blackbox)/probe?module=https_lab&target=\(target)"]).stdout
        let ours = try exporter.get("/probe?module=https_lab&target=\(target)")
        #expect(ours.status == 200)
        #expect(ExporterServerTests.value("probe_success", in: ours.body) == 1, "\(ours.body)")
        BlackboxAgreement.expect(ours: ours.body, theirs: theirs)
        let wrong = try exporter.get("/probe?module=https_lab&target=" + ExporterServerTests.encoded(lab.https("wrong.test")))
        for (name, text) in [("/probe", ours.body), ("/probe of wrong.test", wrong.body), ("/metrics", try exporter.get("/metrics").body)] {
            let lint = try run("/usr/bin/promtool", ["check", "metrics"], stdin: Data(text.utf8))
            #expect(lint.status == 0, "promtool check metrics on \(name): \(lint.stdout)\(lint.stderr)\n\(text)")
        }
    }

    /// The `&ip=` fan-out of docs/exporter.md, its relabel rules read from the page: each address `dns_sd_configs`
    /// lists (`127.0.0.2:PORT` and `[::1]:PORT`) is probed as its own series. The addresses are given as static
    /// targets with the `__meta_dns_name` label dns_sd sets, since Prometheus asks the system's DNS on port 53, which
    /// the lab does not serve.
    @Test func prometheusFansOutEveryAddressWithTheDocumentedRelabelling() throws {
        let docs = try String(contentsOfFile: Lab.repoRoot + "/docs/exporter.md", encoding: .utf8)
        let block = try #require(docs.components(separatedBy: "```yaml\n").first { $0.contains("dns_sd_configs:") })
        let rules = block.prefix { $0 != "`" }.split(separator: "\n").drop { !$0.hasSuffix("relabel_configs:") }.dropFirst()
        let documentedTarget = "\"https://${1}/health\""
        #expect(rules.count >= 4 && rules.joined().contains(documentedTarget) && rules.joined().contains("127.0.0.1:9115"), "\(block)")
        let exporter = try exporter()
        let relabelling = rules.map {
            $0.replacingOccurrences(of: documentedTarget, with: "\"https://${1}:\(lab.httpsPort)/\"")
                .replacingOccurrences(of: "127.0.0.1:9115", with: "127.0.0.1:\(exporter.port)")
        }
        let prometheus = try RunningPrometheus(config: """
            global: { scrape_interval: 2s, scrape_timeout: 2s }
            scrape_configs:
              - job_name: every-address
                metrics_path: /probe
                params: { module: [http_2xx] }
                static_configs:
                  - targets: ["\(lab.ip):\(lab.httpsPort)", "[::1]:\(lab.httpsPort)"]
                    labels: { __meta_dns_name: a.test }
                relabel_configs:
            \(relabelling.joined(separator: "\n"))
            """)
        defer {
            kill(prometheus.process.processIdentifier, SIGTERM)
            prometheus.process.waitUntilExit()
        }
        var success: [String: String] = [:]
        for _ in 0..<150 where success.count < 2 {
            success = try prometheus.query("probe_success", by: "ip")
            if success.count < 2 { usleep(200_000) }
        }
        #expect(success == [lab.ip: "1", "::1": "1"], "\(success)\n\(prometheus.targets)\n\(prometheus.log)")
        #expect(try prometheus.query("probe_ip_protocol", by: "ip") == [lab.ip: "4", "::1": "6"], "\(prometheus.targets)")
    }
}
