import CurlKit

/// Everything one `ipcurl check` run needs, already validated: the targets with their expectations merged,
/// how names are resolved, trust and time limits, and how many probes run at once.
/// - SeeAlso: `CURLOPT_TIMEOUT_MS`, `CURLOPT_CONNECTTIMEOUT_MS`, `CURLOPT_CAINFO`.
public struct CheckPlan: Sendable {
    /// The targets, in report order.
    public var targets: [CheckTarget]
    /// How host names become addresses (the same choices as every subcommand).
    public var resolver = ResolverSettings()
    /// TLS trust and time limits of every probe (and of the HTTPDNS queries).
    public var transport = TransportOptions()
    /// `--parallel`: probes on the loop at once.
    public var parallel = 16
    /// `--compare-system`: also ask the system resolver for every name and report both answers.
    public var compareSystem = false
    /// Labels for every metric, JSON record and JUnit property.
    public var labels: [(name: String, value: String)] = []

    /// The probe time limit when `--max-time` is not given: a check must end even when a server never answers.
    public static let defaultMaxTimeMS = 10_000

    /// Each probe's time limit, its name's resolution included: `--max-time`, else ``defaultMaxTimeMS``.
    public var timeLimitMS: Int { transport.timeoutMS ?? Self.defaultMaxTimeMS }

    /// A plan for `targets` with default settings.
    public init(targets: [CheckTarget]) { self.targets = targets }
}
