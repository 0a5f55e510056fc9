import Foundation
import Testing

/// A running `ipcurl-exporter` (started as `ipcurl exporter`, on 127.0.0.1 at a port of its choosing) and the
/// lab's temp directory for its files.
final class RunningExporter: @unchecked Sendable {
    let process = Process()
    let port: Int
    /// What it wrote on stderr until it said where it listens.
    let startLog: String
    let scratch: TemporaryDirectory
    let config: String
    private let errors = Pipe()

    /// Starts the exporter with `config` as its configuration file and `arguments` after it. It tells its port in its
    /// log; with a `port` given (a log that says nothing at `--log.level error`), it listens there and is ready once
    /// `/-/healthy` answers, and ``startLog`` is empty.
    init(config text: String, arguments: [String] = [], port given: Int? = nil) throws {
        scratch = try TemporaryDirectory()
        config = scratch.path + "/blackbox.yml"
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: ipcurlBinary())
        process.arguments = ["exporter", "--config.file=" + config, "--web.listen-address", "127.0.0.1:\(given ?? 0)"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["IPCURL_CACHE_DIR"] = scratch.path + "/cache"
        environment.removeValue(forKey: "IPCURL_DNS")
        process.environment = environment
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        if let given {
            port = given
            startLog = ""
            for _ in 0..<200 where process.isRunning {
                if (try? run("/usr/bin/curl", ["-sS", "--noproxy", "*", "http://127.0.0.1:\(given)/-/healthy"]))?.stdout == "Healthy" { return }
                usleep(25_000)
            }
            throw LabError("the exporter did not answer on port \(given)")
        }
        // The first lines tell the port; give up when the program ends without saying it.
        var seen = ""
        var found: Int?
        while found == nil {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
            // `port=N` in logfmt, `"port":"N"` in JSON.
            for marker in ["port=", "\"port\":\""] {
                if let range = seen.range(of: marker) { found = Int(seen[range.upperBound...].prefix { $0.isNumber }) }
            }
        }
        guard let found else {
            process.waitUntilExit()
            throw LabError("the exporter did not start (exit \(process.terminationStatus), \(process.terminationReason == .uncaughtSignal ? "signal" : "exit")): \(seen)")
        }
        port = found
        startLog = seen
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// `curl -sS` of `path` with `extra` options: the status and the body.
    func get(_ path: String, _ extra: [String] = []) throws -> (status: Int, body: String) {
        let result = try run("/usr/bin/curl", ["-sS", "--noproxy", "*", "-w", "\n%{http_code}"] + extra + [base + path])
        var lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.popLast() ?? "") ?? 0
        return (status, lines.joined(separator: "\n"))
    }

    /// Stops it with `signal` and returns its exit status.
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends `signal` and returns the exit status if it has exited within `seconds`,
    /// else `nil` (it is killed then).
    func stop(_ signal: Int32, within seconds: Double) -> Int32? {
        kill(process.processIdentifier, signal)
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        guard !process.isRunning else {
            _ = stop(SIGKILL)
            return nil
        }
        return process.terminationStatus
    }

    /// What it wrote on stderr after ``startLog``, read to the end: once it has exited.
    func laterLog() -> String {
        String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    deinit { if process.isRunning { _ = stop(SIGKILL) } }
}

/// `ipcurl exporter` as Prometheus and an operator use it: its endpoints and their errors, reloads, signals, and
/// probes through the lab's DoH server.
@Suite(.serialized) struct ExporterServerTests {
    let lab: Lab
    init() throws { lab = try Lab.current() }

    func config(_ extra: String = "") -> String {
        """
        modules:
          http_2xx:
            prober: http
            timeout: 5s
            http:
              preferred_ip_protocol: ip4
              tls_config: { ca_file: \(lab.ca) }
          every_address:
            prober: http
            timeout: 5s
            http:
              preferred_ip_protocol: ip4
              tls_config: { ca_file: \(lab.ca) }
              httpdns: { all_ips: true }
          compared:
            prober: http
            http:
              preferred_ip_protocol: ip4
              tls_config: { ca_file: \(lab.ca) }
              httpdns: { compare_system: true }
          body_get:
            prober: http
            http:
              preferred_ip_protocol: ip4
              tls_config: { ca_file: \(lab.ca) }
              fail_if_body_not_matches_regexp: ['"method": ?"GET"']
          body_forbidden:
            prober: http
            http:
              preferred_ip_protocol: ip4
              tls_config: { ca_file: \(lab.ca) }
              fail_if_body_matches_regexp: ['"method"']
          authed:
            prober: http
            http:
              preferred_ip_protocol: ip4
              tls_config: { ca_file: \(lab.ca) }
              basic_auth: { username: probe, password: hunter2-secret }
              headers: { Cookie: session=cookie-secret }
          ping:
            prober: icmp
        \(extra)
        """
    }

    func exporter(_ extra: String = "") throws -> RunningExporter {
        try RunningExporter(config: config(extra), arguments: ["--doh", lab.dohURL, "--cacert", lab.ca, "--no-fallback"])
    }

    static func value(_ name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") || $0.hasPrefix(name + "{") }
            .flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
    }

    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    @Test func aGoodTargetPassesAndAWrongCertificateFails() throws {
        let exporter = try exporter()
        let good = try exporter.get("/probe?target=" + Self.encoded(lab.https("a.test")))
        #expect(good.status == 200)
        #expect(Self.value("probe_success", in: good.body) == 1, "\(good.body)")
        #expect(Self.value("probe_http_status_code", in: good.body) == 200)
        let wrong = try exporter.get("/probe?target=" + Self.encoded(lab.https("wrong.test")))
        #expect(Self.value("probe_success", in: wrong.body) == 0, "\(wrong.body)")
        #expect(exporter.stop() == 0)
    }

    @Test func requestErrorsAreBlackboxs() throws {
        let exporter = try exporter()
        #expect(try exporter.get("/probe?target=a.test&module=nope") == (400, "Unknown module \"nope\"\n"))
        #expect(try exporter.get("/probe?module=http_2xx") == (400, "Target parameter is missing\n"))
        #expect(try exporter.get("/probe?target=a.test&module=ping").status == 400)
        #expect(try exporter.get("/-/healthy") == (200, "Healthy"))
        #expect(try exporter.get("/-/reload").status == 405)
        #expect(try exporter.get("/nowhere").status == 404)
        let metrics = try exporter.get("/metrics")
        #expect(Self.value("blackbox_module_unknown_total", in: metrics.body) == 1, "\(metrics.body)")
        #expect(Self.value("process_open_fds", in: metrics.body) != nil)
    }

    @Test func aBadReloadKeepsTheOldConfigurationServing() throws {
        let exporter = try exporter()
        try "modules: { broken: [".write(toFile: exporter.config, atomically: true, encoding: .utf8)
        let refused = try exporter.get("/-/reload", ["-X", "POST"])
        #expect(refused.status == 500 && refused.body.hasPrefix("failed to reload config: "), "\(refused)")
        #expect(Self.value("ipcurl_exporter_config_last_reload_successful", in: try exporter.get("/metrics").body) == 0)
        #expect(Self.value("probe_success", in: try exporter.get("/probe?target=" + Self.encoded(lab.https("a.test"))).body) == 1)
        try config("  extra:\n    prober: http\n").write(toFile: exporter.config, atomically: true, encoding: .utf8)
        kill(exporter.process.processIdentifier, SIGHUP)
        // The reload is done when the new module answers; the exporter keeps serving meanwhile.
        var status = 0
        for _ in 0..<100 where status != 200 {
            status = try exporter.get("/probe?target=" + Self.encoded(lab.https("a.test")) + "&module=extra").status
            if status != 200 { usleep(50_000) }
        }
        #expect(status == 200)
        #expect(Self.value("ipcurl_exporter_config_last_reload_successful", in: try exporter.get("/metrics").body) == 1)
    }

    @Test func debugShowsTheThreeSectionsAndIPProbesAnAddressOutsideTheAnswer() throws {
        let exporter = try exporter()
        let debug = try exporter.get("/probe?debug=true&ip=127.0.0.3&target=" + Self.encoded(lab.https("a.test")))
        #expect(debug.status == 200)
        for section in ["Logs for the probe:", "Metrics that would have been returned:", "Module configuration:"] {
            #expect(debug.body.contains(section), "\(debug.body)")
        }
        #expect(debug.body.contains("which is not in the answer"), "\(debug.body)")
        #expect(Self.value("probe_success", in: debug.body) == 0)  // 127.0.0.3 serves another name's certificate
    }

    @Test func debugRedactsTheModulesSecrets() throws {
        let exporter = try exporter()
        let debug = try exporter.get("/probe?module=authed&debug=true&target=" + Self.encoded(lab.https("a.test", "/api/echo")))
        #expect(debug.status == 200 && debug.body.contains("Module configuration:"), "\(debug.body)")
        #expect(!debug.body.contains("hunter2-secret") && !debug.body.contains("cookie-secret"), "\(debug.body)")
        #expect(debug.body.contains("<secret>"), "\(debug.body)")
        let withUser = "https://probe:url-secret@a.test:\(lab.httpsPort)/api/echo"
        let userDebug = try exporter.get("/probe?debug=true&target=" + Self.encoded(withUser))
        #expect(userDebug.status == 200 && !userDebug.body.contains("url-secret"), "\(userDebug.body)")
    }

    @Test func allIPsPassesOnlyWhenEveryAddressPasses() throws {
        let exporter = try exporter()
        let probe = try exporter.get("/probe?module=every_address&target=" + Self.encoded(lab.https("mixed.test")))
        #expect(Self.value("probe_success", in: probe.body) == 0, "\(probe.body)")
        #expect(probe.body.contains("ipcurl_probe_address_success{family=\"ipv4\",ip=\"127.0.0.2\"} 1"), "\(probe.body)")
        #expect(probe.body.contains("ipcurl_probe_address_success{family=\"ipv4\",ip=\"127.0.0.3\"} 0"), "\(probe.body)")
    }

    @Test func compareSystemReportsWhetherTheSystemResolverAgrees() throws {
        let exporter = try exporter()
        let probe = try exporter.get("/probe?module=compared&debug=true&target=" + Self.encoded(lab.https("a.test")))
        let mismatch = Self.value("ipcurl_system_dns_mismatch", in: probe.body)
        #expect(mismatch == 0 || mismatch == 1, "\(probe.body)")
        #expect(probe.body.contains("System resolver"), "\(probe.body)")
        let plain = try exporter.get("/probe?target=" + Self.encoded(lab.https("a.test")))
        #expect(Self.value("ipcurl_system_dns_mismatch", in: plain.body) == nil)
    }

    @Test func bodyRegularExpressionsDecideAndAreReported() throws {
        let exporter = try exporter()
        let echo = Self.encoded(lab.https("a.test", "/api/echo"))
        let passing = try exporter.get("/probe?module=body_get&target=" + echo)
        #expect(Self.value("probe_success", in: passing.body) == 1 && Self.value("probe_failed_due_to_regex", in: passing.body) == 0,
                "\(passing.body)")
        let failing = try exporter.get("/probe?module=body_forbidden&target=" + echo)
        #expect(Self.value("probe_success", in: failing.body) == 0 && Self.value("probe_failed_due_to_regex", in: failing.body) == 1,
                "\(failing.body)")
    }

    @Test func theScrapeTimeoutEndsASlowProbeWithProbeSuccess0() throws {
        let exporter = try exporter()
        let slow = lab.https("a.test", "/api/delay?ms=20000")
        let probe = try exporter.get("/probe?target=" + Self.encoded(slow), ["-H", "X-Prometheus-Scrape-Timeout-Seconds: 1.5"])
        #expect(probe.status == 200)
        #expect(Self.value("probe_success", in: probe.body) == 0, "\(probe.body)")
        #expect((Self.value("probe_duration_seconds", in: probe.body) ?? 99) < 5, "\(probe.body)")
    }

    /// A probe waiting for another probe's lookup of the same name ends at its own time limit with the error a lone
    /// probe gives: the HTTPDNS server never answers, the first probe has 29.5 s and the second 1 s. The second's
    /// response comes while the first one still waits.
    @Test func aProbeWaitingForAnothersLookupEndsAtItsOwnTimeout() throws {
        let silent = try SilentListener()
        let exporter = try RunningExporter(config: config("""
              patient:
                prober: http
                timeout: 30s
                http: { preferred_ip_protocol: ip4, tls_config: { ca_file: \(lab.ca) } }
            """), arguments: ["--doh", "https://127.0.0.4:\(silent.port)/dns-query", "--cacert", lab.ca, "--dns-timeout", "30",
                              "--no-fallback"])
        let target = Self.encoded(lab.https("a.test"))
        let first = Process()
        first.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        first.arguments = ["-sS", "--noproxy", "*", "-H", "X-Prometheus-Scrape-Timeout-Seconds: 30",
                           exporter.base + "/probe?module=patient&target=" + target]
        first.standardOutput = FileHandle.nullDevice
        first.standardError = FileHandle.nullDevice
        try first.run()
        defer { if first.isRunning { first.terminate() } }
        usleep(300_000)  // the first probe is asking the silent server
        let second = try exporter.get("/probe?debug=true&target=" + target, ["-H", "X-Prometheus-Scrape-Timeout-Seconds: 1.5"])
        #expect(first.isRunning, "the second probe's response came only after the first probe's lookup ended")
        #expect(second.status == 200)
        #expect(Self.value("probe_success", in: second.body) == 0, "\(second.body)")
        #expect(second.body.contains("Error resolving address") && second.body.contains("Operation timed out after ")
                && second.body.contains(" milliseconds while resolving a.test"), "\(second.body)")
    }

    @Test func sixteenProbesRunAtOnce() throws {
        let exporter = try exporter()
        let key = "exporter-\(UInt32.random(in: 0...UInt32.max))"
        // The real curl asks for the sixteen probes at once (-Z); the barrier answers 200 only when all sixteen
        // requests wait at it together, so each probe passes only when they overlap.
        let urls = (1...16).map { exporter.base + "/probe?target=" + Self.encoded(lab.https("a.test", "/api/together?key=\(key)&n=16&i=\($0)")) }
        let result = try run("/usr/bin/curl", ["-sS", "--noproxy", "*", "-Z", "--parallel-immediate", "--parallel-max", "16"] + urls)
        let passed = result.stdout.split(separator: "\n").filter { $0 == "probe_success 1" }
        #expect(passed.count == 16, "\(result.stdout.prefix(600)) \(result.stderr)")
    }

    @Test func configCheckValidatesWithoutServing() throws {
        let scratch = try TemporaryDirectory()
        let good = scratch.path + "/good.yml", bad = scratch.path + "/bad.yml"
        try config().write(toFile: good, atomically: true, encoding: .utf8)
        try "modules:\n  x:\n    prober: http\n    http: { nonsense: 1 }\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let ok = try ipcurl(["exporter", "--config.file", good, "--config.check"])
        #expect(ok.status == 0, "\(ok.stderr)")
        let refused = try ipcurl(["exporter", "--config.file", bad, "--config.check"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("\(bad):4:"), "\(refused.stderr)")
    }

    @Test func aWebConfigDemandsCredentialsAndServesTLS() throws {
        let scratch = try TemporaryDirectory()
        let hash = try run("/usr/bin/env", ["python3", "-c", "import bcrypt; print(bcrypt.hashpw(b'pass word', bcrypt.gensalt(rounds=4)).decode())"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let certs = lab.ca.replacingOccurrences(of: "/ca.pem", with: "")
        let web = scratch.path + "/web.yml"
        try """
            tls_server_config: { cert_file: \(certs)/a.test.pem, key_file: \(certs)/a.test.key }
            basic_auth_users: { prom: "\(hash)" }
            """.write(toFile: web, atomically: true, encoding: .utf8)
        let exporter = try RunningExporter(config: config(), arguments: ["--web.config.file", web, "--doh", lab.dohURL,
                                                                          "--cacert", lab.ca, "--no-fallback"])
        let base = "https://a.test:\(exporter.port)"
        let pin = ["--cacert", lab.ca, "--resolve", "a.test:\(exporter.port):127.0.0.1"]
        let target = "/probe?target=" + Self.encoded(lab.https("a.test"))
        func get(_ extra: [String]) throws -> String { try run("/usr/bin/curl", ["-sS", "-w", "\n%{http_code}"] + pin + extra + [base + target]).stdout }
        #expect(try get([]).hasSuffix("\n401"))
        #expect(try get(["-u", "prom:wrong"]).hasSuffix("\n401"))
        let allowed = try get(["-u", "prom:pass word"])
        #expect(allowed.hasSuffix("\n200") && allowed.contains("probe_success 1"), "\(allowed)")
        let plain = try run("/usr/bin/curl", ["-sS", "-u", "prom:pass word", "http://127.0.0.1:\(exporter.port)" + target])
        #expect(plain.status != 0, "plain HTTP to the TLS port: \(plain.stdout)")
        // Two refused requests and one allowed one: only the allowed one ran a probe.
        let metrics = try run("/usr/bin/curl", ["-sS", "-u", "prom:pass word"] + pin + [base + "/metrics"]).stdout
        #expect(metrics.contains("ipcurl_exporter_probes_total{module=\"http_2xx\",result=\"success\"} 1"), "\(metrics)")
        #expect(!metrics.contains("result=\"failure\"} 1"), "\(metrics)")
    }

    @Test func ipcurlLoadsNoLibraryOfTheServer() throws {
        let ipcurl = try run("/usr/bin/ldd", [ipcurlBinary()]).stdout
        let beside = URL(fileURLWithPath: ipcurlBinary()).deletingLastPathComponent().appendingPathComponent("ipcurl-exporter").path
        let exporter = try run("/usr/bin/ldd", [beside]).stdout
        // ldd lists what the program loads, its libraries' libraries too (libcurl's bring GnuTLS already).
        for library in ["libmicrohttpd", "libcrypt.so.1"] {
            #expect(!ipcurl.contains(library), "ipcurl links \(library)")
            #expect(exporter.contains(library), "ipcurl-exporter does not link \(library): \(exporter)")
        }
    }

    @Test func sigtermEndsTheExporterWhileAProbeIsStillRunning() throws {
        let exporter = try exporter("""
              patient:
                prober: http
                timeout: 60s
                http: { preferred_ip_protocol: ip4, tls_config: { ca_file: \(lab.ca) } }
            """)
        // A probe of a target that answers after 30 s; the scrape gives it 60 s.
        let slow = Process()
        slow.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        slow.arguments = ["-sS", "--noproxy", "*", "-H", "X-Prometheus-Scrape-Timeout-Seconds: 60",
                          exporter.base + "/probe?module=patient&target=" + Self.encoded(lab.https("a.test", "/api/delay?ms=30000"))]
        slow.standardOutput = FileHandle.nullDevice
        slow.standardError = FileHandle.nullDevice
        try slow.run()
        defer { if slow.isRunning { slow.terminate() } }
        usleep(300_000)  // the probe has reached the backend
        // The exporter gives in-flight responses 1.5 s (main.swift's grace) and then exits: well before the probe's
        // 29 s. The bound here is loose on purpose (sanitizer builds are slow); what it proves is that nothing waits
        // for the probe.
        #expect(exporter.stop(SIGTERM, within: 10) == 0, "the exporter had not exited 10 s after SIGTERM")
        // The exporter is gone although the probe had 29 s to go: the scrape ends with it, without the response a
        // stop that waited for the probe would have sent (curl exit 0).
        slow.waitUntilExit()
        #expect(slow.terminationReason == .exit && slow.terminationStatus != 0)
    }

    @Test func fiveHundredMixedProbesLeaveNoDescriptorBehind() throws {
        let exporter = try exporter()
        let targets = [lab.https("a.test"), lab.https("wrong.test"), "https://127.0.0.1:9/", lab.https("a.test", "/api/status?code=503")]
        func probeAll(_ count: Int) throws {
            let urls = (0..<count).map { index in
                exporter.base + "/probe?i=\(index)&target=" + Self.encoded(targets[index % targets.count])
                    + (index % 25 == 0 ? "&module=nope" : "")
            }
            for batch in stride(from: 0, to: urls.count, by: 100) {
                _ = try run("/usr/bin/curl", ["-sS", "--noproxy", "*", "-Z", "--parallel-immediate", "--parallel-max", "16", "-o", "/dev/null"]
                            + Array(urls[batch..<min(batch + 100, urls.count)]).flatMap { [$0, "-o", "/dev/null"] })
            }
        }
        func descriptors() -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(exporter.process.processIdentifier)/fd").count) ?? -1
        }
        try probeAll(20)  // every kind once: connections, TLS, the DoH client warmed up
        usleep(300_000)  // the warm-up's connections closed
        let before = descriptors()
        try probeAll(500)
        // Each server thread ends with its client's connection and frees its multi handle then: wait for the
        // connections curl closed to be gone (a wait, not a measure of time).
        var after = descriptors()
        for _ in 0..<100 where after > before + 2 {
            usleep(50_000)
            after = descriptors()
        }
        #expect(before > 0 && after <= before + 2, "descriptors before \(before), after 500 probes \(after)")
        let metrics = try exporter.get("/metrics").body
        #expect(Self.value("ipcurl_exporter_probes_total{module=\"http_2xx\",result=\"failure\"}", in: metrics) ?? 0 >= 300, "\(metrics)")
        #expect(metrics.contains("ipcurl_exporter_address_lookups_total{source=\"literal\"}"), "\(metrics)")
        #expect(metrics.contains("ipcurl_exporter_address_lookups_total{source=\"server\"}") || metrics.contains("source=\"cache\""), "\(metrics)")
    }

    @Test func hostnameNamesTheRequestAndTLSAndIsPinnedToTheTarget() throws {
        let exporter = try exporter()
        let literal = Self.encoded("https://\(lab.ip):\(lab.httpsPort)/")
        let plain = try exporter.get("/probe?target=" + literal)
        #expect(Self.value("probe_success", in: plain.body) == 0, "the certificate names no IP: \(plain.body)")
        let named = try exporter.get("/probe?hostname=a.test&target=" + literal)
        #expect(Self.value("probe_success", in: named.body) == 1, "\(named.body)")
        #expect(named.body.contains("subject=\"CN=a.test,O=ipcurl lab\""), "\(named.body)")
    }

    @Test func theLogIsLogfmtOrJSON() throws {
        let json = try RunningExporter(config: config(), arguments: ["--log.format", "json", "--doh", lab.dohURL, "--cacert", lab.ca])
        let line = json.startLog.split(separator: "\n").first { $0.contains("Listening") } ?? ""
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
        #expect(object?["msg"] == "Listening on address" && object?["level"] == "info", "\(json.startLog)")
        #expect(json.stop() == 0)
        let logfmt = try exporter()
        #expect(logfmt.startLog.contains("level=info msg=\"Listening on address\""), "\(logfmt.startLog)")
    }

    /// A module's `preferred_ip_protocol` wins over the command line's `-4`/`-6` (a.test has 127.0.0.2 and ::1, both
    /// serving it): the module's resolver asks for both families. A module that gives none prefers the family
    /// `-4`/`-6` name.
    @Test func aModulesPreferredProtocolWinsOverTheCommandLinesFamily() throws {
        let modules = """
            modules:
              v4:
                prober: http
                http: { preferred_ip_protocol: ip4, tls_config: { ca_file: \(lab.ca) } }
              v6_only:
                prober: http
                http: { preferred_ip_protocol: ip6, ip_protocol_fallback: false, tls_config: { ca_file: \(lab.ca) } }
              unsaid_only:
                prober: http
                http: { ip_protocol_fallback: false, tls_config: { ca_file: \(lab.ca) } }
            """
        let target = "&target=" + Self.encoded(lab.https("a.test"))
        func probe(_ exporter: RunningExporter, _ module: String) throws -> (success: Double?, family: Double?, body: String) {
            let body = try exporter.get("/probe?module=" + module + target).body
            return (Self.value("probe_success", in: body), Self.value("probe_ip_protocol", in: body), body)
        }
        let resolver = ["--doh", lab.dohURL, "--cacert", lab.ca, "--no-fallback"]
        let six = try RunningExporter(config: modules, arguments: ["-6"] + resolver)
        let v4 = try probe(six, "v4")
        #expect(v4.success == 1 && v4.family == 4, "-6, preferred_ip_protocol: ip4: \(v4.body)")
        let unsaidUnder6 = try probe(six, "unsaid_only")
        #expect(unsaidUnder6.success == 1 && unsaidUnder6.family == 6, "\(unsaidUnder6.body)")
        let four = try RunningExporter(config: modules, arguments: ["-4"] + resolver)
        let v6 = try probe(four, "v6_only")
        #expect(v6.success == 1 && v6.family == 6, "-4, preferred_ip_protocol: ip6 without fallback: \(v6.body)")
        let unsaidUnder4 = try probe(four, "unsaid_only")
        #expect(unsaidUnder4.success == 1 && unsaidUnder4.family == 4, "-4 is the preferred family: \(unsaidUnder4.body)")
    }

    /// `ip=[::1]`, what Prometheus' relabelling of `[::1]:PORT` gives, is the address ::1; brackets hold IPv6 only.
    @Test func aBracketedIPv6AddressIsTheAddress() throws {
        let exporter = try exporter()
        let target = "&target=" + Self.encoded(lab.https("a.test"))
        let probe = try exporter.get("/probe?ip=" + Self.encoded("[::1]") + target)
        #expect(probe.status == 200 && Self.value("probe_success", in: probe.body) == 1, "\(probe)")
        #expect(Self.value("probe_ip_protocol", in: probe.body) == 6, "\(probe.body)")
        for refused in ["[127.0.0.2]", "[::1", "::1]", "[[::1]]"] {
            #expect(try exporter.get("/probe?ip=" + Self.encoded(refused) + target).status == 400, "\(refused)")
        }
    }

    /// The configuration's warnings at start go through the log, as a reload's do: a JSON line under
    /// `--log.format json`, nothing under `--log.level error`; `--config.check` prints them as ipcurl's warnings.
    @Test func startUpWarningsGoThroughTheLog() throws {
        let extra = "  fast:\n    prober: http\n    http: { enable_http2: true }\n"
        let resolver = ["--doh", lab.dohURL, "--cacert", lab.ca, "--no-fallback"]
        let json = try RunningExporter(config: config(extra), arguments: ["--log.format", "json"] + resolver)
        let line = json.startLog.split(separator: "\n").first { $0.contains("enable_http2") } ?? ""
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
        #expect(object?["level"] == "warn" && object?["msg"]?.contains("\"enable_http2\" is not supported") == true, "\(json.startLog)")
        #expect(!json.startLog.contains("warning:"), "\(json.startLog)")
        #expect(json.stop() == 0)
        let quiet = try RunningExporter(config: config(extra), arguments: ["--log.level", "error"] + resolver,
                                        port: try RoutingOptionTests.freeLocalPort())
        #expect(quiet.stop() == 0)
        let log = quiet.laterLog()
        #expect(log.isEmpty, "--log.level error: \(log)")
        let checked = try ipcurl(["exporter", "--config.file", json.config, "--config.check"])
        #expect(checked.status == 0 && checked.stderr.contains("ipcurl: warning: \(json.config):"), "\(checked.stderr)")
    }

    /// After `ipcurl exporter` hands over to the `ipcurl-exporter` program, its errors still start `ipcurl:`; a stray
    /// argument's hint is given once.
    @Test func usageErrorsAreIpcurlsWithOneHint() throws {
        let scratch = try TemporaryDirectory()
        let bad = scratch.path + "/bad.yml"
        try "modules:\n  x:\n    prober: http\n    http: { nonsense: 1 }\n".write(toFile: bad, atomically: true, encoding: .utf8)
        for extra in [["--web.listen-address", "127.0.0.1:0"], ["--config.check"]] {
            let refused = try ipcurl(["exporter", "--config.file", bad] + extra)
            #expect(refused.status == 2 && refused.stderr.hasPrefix("ipcurl: \(bad):4:"), "\(extra): \(refused.stderr)")
        }
        let stray = try ipcurl(["exporter", "--config.file", bad, "stray"])
        #expect(stray.status == 2)
        #expect(stray.stderr == "ipcurl: 'stray': ipcurl exporter takes no arguments (see 'ipcurl help exporter')\n", "\(stray.stderr)")
    }
}
