#if canImport(Glibc)
import Glibc
#endif

/// The exporter's own counters for `/metrics`: probes by module and result, unknown modules (blackbox's
/// `blackbox_module_unknown_total`) and the configuration's last reload.
struct ExporterCounters {
    private var probes: [String: (success: Int, failure: Int)] = [:]
    private var lookups: [String: Int] = [:]
    var unknownModules = 0
    private var lastReloadSucceeded = true
    private var lastSuccessfulReload: Int64 = 0

    mutating func probed(module: String, success: Bool, addressSource: String) {
        lookups[addressSource, default: 0] += 1
        var counts = probes[module] ?? (0, 0)
        if success { counts.success += 1 } else { counts.failure += 1 }
        probes[module] = counts
    }

    mutating func reloaded(successfully: Bool) {
        lastReloadSucceeded = successfully
        if successfully { lastSuccessfulReload = Int64(time(nil)) }
    }

    func text() -> String {
        var out = "# HELP blackbox_module_unknown_total Count of unknown modules requested by probes\n"
            + "# TYPE blackbox_module_unknown_total counter\nblackbox_module_unknown_total \(unknownModules)\n"
        out += "# HELP ipcurl_exporter_config_last_reload_successful Whether the last configuration reload attempt was successful.\n"
            + "# TYPE ipcurl_exporter_config_last_reload_successful gauge\n"
            + "ipcurl_exporter_config_last_reload_successful \(lastReloadSucceeded ? 1 : 0)\n"
        out += "# HELP ipcurl_exporter_config_last_reload_success_timestamp_seconds Timestamp of the last successful configuration reload.\n"
            + "# TYPE ipcurl_exporter_config_last_reload_success_timestamp_seconds gauge\n"
            + "ipcurl_exporter_config_last_reload_success_timestamp_seconds \(lastSuccessfulReload)\n"
        out += "# HELP ipcurl_exporter_probes_total Probes run, by module and result.\n# TYPE ipcurl_exporter_probes_total counter\n"
        for module in probes.keys.sorted() {
            let counts = probes[module]!
            let label = MetricsWriter.escaped(module)
            out += "ipcurl_exporter_probes_total{module=\"\(label)\",result=\"failure\"} \(counts.failure)\n"
            out += "ipcurl_exporter_probes_total{module=\"\(label)\",result=\"success\"} \(counts.success)\n"
        }
        out += "# HELP ipcurl_exporter_address_lookups_total Where probes' target addresses came from: cache, server (HTTPDNS), "
            + "fallback (the system resolver), static (--resolve), literal (an IP in the URL), failed.\n"
            + "# TYPE ipcurl_exporter_address_lookups_total counter\n"
        for source in lookups.keys.sorted() {
            out += "ipcurl_exporter_address_lookups_total{source=\"\(source)\"} \(lookups[source]!)\n"
        }
        return out
    }
}

/// The `process_*` metrics of client_golang's process collector, from `/proc/self`.
/// - SeeAlso: proc(5) (`stat`, `fd`), `getrusage(2)`.
enum ProcessMetrics {
    static func text() -> String {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        var out = "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n"
            + "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total \(cpu)\n"
        out += "# HELP process_open_fds Number of open file descriptors.\n# TYPE process_open_fds gauge\n"
            + "process_open_fds \(openDescriptors())\n"
        if let resident = residentBytes() {
            out += "# HELP process_resident_memory_bytes Resident memory size in bytes.\n# TYPE process_resident_memory_bytes gauge\n"
                + "process_resident_memory_bytes \(resident)\n"
        }
        return out
    }

    /// Entries of `/proc/self/fd`, less the one `opendir` holds.
    static func openDescriptors() -> Int {
        guard let stream = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(stream) }
        var count = 0
        while let entry = readdir(stream) {
            let dot = withUnsafeBytes(of: entry.pointee.d_name) { $0.first == UInt8(ascii: ".") }
            if !dot { count += 1 }
        }
        return max(0, count - 1)
    }

    /// The second field of `/proc/self/statm` (resident pages) in bytes.
    static func residentBytes() -> Int? {
        guard let file = fopen("/proc/self/statm", "r") else { return nil }
        defer { fclose(file) }
        var size = 0, resident = 0
        guard withUnsafeMutablePointer(to: &size, { s in withUnsafeMutablePointer(to: &resident) { r in readStatm(file, s, r) } }) else { return nil }
        return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    private static func readStatm(_ file: UnsafeMutablePointer<FILE>, _ size: UnsafeMutablePointer<Int>, _ resident: UnsafeMutablePointer<Int>) -> Bool {
        var line = [CChar](repeating: 0, count: 256)
        guard fgets(&line, Int32(line.count), file) != nil else { return false }
        let fields = String(cString: line).split(separator: " ")
        guard fields.count >= 2, let first = Int(fields[0]), let second = Int(fields[1]) else { return false }
        size.pointee = first
        resident.pointee = second
        return true
    }
}
