import HTTPDNS

/// Everything one `ipcurl check` run found, ready to render in any ``CheckFormat``.
public struct CheckReport: Sendable {
    /// Every probe, grouped by target in the order targets were given, addresses in answer order.
    public var probes: [ProbeResult]
    /// `--label k=v` and the targets file's `labels`, in the order given: added to every metric, JSON record and
    /// JUnit property.
    public var labels: [(name: String, value: String)]
    /// With `--compare-system`: per name, HTTPDNS's addresses beside the system resolver's.
    public var comparisons: [NameComparison]
    /// When the run started, seconds since 1970 (for days left and report timestamps).
    public var startedAt: Int64
    /// The whole run's wall time, in microseconds.
    public var durationMicroseconds: Int64

    /// A report of `probes`.
    public init(probes: [ProbeResult], labels: [(name: String, value: String)] = [], comparisons: [NameComparison] = [],
                startedAt: Int64, durationMicroseconds: Int64) {
        self.probes = probes
        self.labels = labels
        self.comparisons = comparisons
        self.startedAt = startedAt
        self.durationMicroseconds = durationMicroseconds
    }

    /// Whether every probe passed (exit 0) or not (exit 1).
    public var passed: Bool { probes.allSatisfy(\.passed) }
}

/// HTTPDNS's and the system resolver's answers for one name (`--compare-system`): a difference may be DNS
/// hijacking, split horizon or a CDN steering by resolver location.
public struct NameComparison: Sendable, Equatable {
    /// The host name as looked up.
    public var host: String
    /// What HTTPDNS returned (empty when it failed).
    public var httpdns: [IPAddress]
    /// What the system resolver (`getaddrinfo`) returned; empty when it failed.
    public var system: [IPAddress]
    /// The system resolver's error, when it failed.
    public var systemError: String?

    /// A comparison for `host`.
    public init(host: String, httpdns: [IPAddress], system: [IPAddress], systemError: String? = nil) {
        self.host = host
        self.httpdns = httpdns
        self.system = system
        self.systemError = systemError
    }

    /// Whether the two address sets differ (order ignored).
    public var differs: Bool { Set(httpdns) != Set(system) }
}

/// `--format`: how the report is written.
public enum CheckFormat: String, Sendable, CaseIterable {
    /// A table for people; colour only on a TTY without `NO_COLOR`.
    case text
    /// One JSON document.
    case json
    /// JUnit XML (Jenkins' `junit-10.xsd`).
    case junit
    /// TAP version 13 with YAML diagnostics.
    case tap
    /// OpenMetrics text exposition, blackbox_exporter's names where the meaning is the same.
    case openmetrics
    /// One self-contained HTML page: summary, phase waterfalls, certificates; failures first.
    case html
}
