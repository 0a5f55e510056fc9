import HTTPDNS

/// What one probe found: the transfer's measurements and every assertion that failed. With `--samples N` it is
/// one address's result over its samples (``SampleAggregate``), the measurements those of one sample.
/// - SeeAlso: `CURLINFO_PRIMARY_IP`, `CURLINFO_RESPONSE_CODE`, `CURLINFO_HTTP_VERSION`.
public struct ProbeResult: Sendable {
    /// The target probed.
    public var target: CheckTarget
    /// The address this probe meant to test; `nil` when the name could not be resolved.
    public var address: IPAddress?
    /// Which resolver gave the address (`doh`, `aliyun`, `cache`, `system`, `static`); empty for an IP literal.
    public var answerSource = ""
    /// The transfer's error as curl reports it (exit code and message); `nil` when the transfer completed.
    public var error: ProbeError?
    /// Assertions that failed, in the order they were checked.
    public var failures: [AssertionFailure] = []
    /// Phase times.
    public var timings = ProbeTimings()
    /// The HTTP status; 0 when no response came.
    public var status = 0
    /// The HTTP version as `%{http_version}` prints it (`1.1`, `2`); `0` before a response.
    public var httpVersion = "0"
    /// The negotiated TLS version; `nil` over http:// or when TLS never completed.
    public var tlsVersion: TLSVersion?
    /// The peer's certificate (leaf) and the chain's earliest expiry; `nil` without TLS.
    public var certificate: CertificateSummary?
    /// `CURLINFO_PRIMARY_IP`: where the connection really went.
    public var connectedIP = ""
    /// The address's samples: how many ran and failed, and the spread of their phase times.
    public var samples = SampleSummary()
    /// Transfers made for this result, retries included (over every sample with `--samples`); 0 when it never ran.
    public var attempts = 1
    /// The failed attempts that `--retries` tried again, in the order they happened.
    public var retriedFailures: [FailedAttempt] = []
    /// With more than one sample, the last attempt of every sample that failed (those `--max-failed-samples` allowed
    /// too), in sample order; empty with one sample, whose failure is the result's own.
    public var failedSamples: [FailedAttempt] = []
    /// The addresses of the probe's pin its failure proves unusable
    /// (``AddressFailover/failedAddresses(after:at:requestBytesSent:pinned:throughProxy:)``); not reported.
    var failedAddresses: [IPAddress] = []

    /// A probe of `target` at `address` that has not run.
    public init(target: CheckTarget, address: IPAddress?) {
        self.target = target
        self.address = address
    }

    /// Passed: the transfer completed and every assertion held.
    public var passed: Bool { error == nil && failures.isEmpty }

    /// Passed although an attempt failed: one that `--retries` tried again, or a sample `--max-failed-samples` allowed.
    public var flaky: Bool { passed && (!retriedFailures.isEmpty || samples.failed > 0) }

    /// `ipv4`/`ipv6`, blackbox_exporter's `probe_ip_protocol` as a word; empty without an address.
    public var family: String {
        guard let address else { return "" }
        return address.family == .v6 ? "ipv6" : "ipv4"
    }

    /// One line saying why the probe failed (the transfer error, then every failed assertion: with samples a failed
    /// percentile can follow a sample's transfer error), or `ok`.
    public var reason: String {
        let parts = (error.map { ["exit \($0.exitCode): \($0.message)"] } ?? []) + failures.map(\.description)
        return parts.isEmpty ? "ok" : parts.joined(separator: "; ")
    }
}

/// One attempt of a probe that failed: one that `--retries` tried again, or the last attempt of a sample that failed.
public struct FailedAttempt: Sendable, Equatable {
    /// Which sample it belonged to, from 1 (always 1 without `--samples`).
    public var sample: Int
    /// Which attempt of that sample it was, from 1.
    public var attempt: Int
    /// Why it failed, as ``ProbeResult/reason`` says it.
    public var reason: String

    /// Attempt `attempt` of sample `sample`, which failed for `reason`.
    public init(sample: Int, attempt: Int, reason: String) {
        self.sample = sample
        self.attempt = attempt
        self.reason = reason
    }
}

/// A transfer that did not complete, in curl's terms.
/// - SeeAlso: curl's exit codes, `CURLOPT_ERRORBUFFER`.
public struct ProbeError: Sendable, Equatable {
    /// curl's exit code (6, 7, 28, 35, 60, ...).
    public var exitCode: Int32
    /// curl's message for it.
    public var message: String

    /// An error with curl's `exitCode` and `message`.
    public init(exitCode: Int32, message: String) {
        self.exitCode = exitCode
        self.message = message
    }
}

/// One assertion that did not hold: which, what it wanted, what came back.
public struct AssertionFailure: Sendable, Equatable, CustomStringConvertible {
    /// The assertion's name as typed in a targets file (`status`, `min_cert_days`, `body_contains`, ...).
    public var assertion: String
    /// What was expected, as typed.
    public var expected: String
    /// What the probe saw.
    public var actual: String

    /// A failed `assertion`.
    public init(assertion: String, expected: String, actual: String) {
        self.assertion = assertion
        self.expected = expected
        self.actual = actual
    }

    /// `status: expected 200, got 503`.
    public var description: String { "\(assertion): expected \(expected), got \(actual)" }
}

/// Phase times of one probe, in microseconds; blackbox_exporter's `probe_http_duration_seconds` phases.
/// - SeeAlso: `CURLINFO_CONNECT_TIME_T`, `CURLINFO_APPCONNECT_TIME_T`, `CURLINFO_PRETRANSFER_TIME_T`,
///   `CURLINFO_STARTTRANSFER_TIME_T`, `CURLINFO_TOTAL_TIME_T`.
public struct ProbeTimings: Sendable, Equatable {
    /// The HTTPDNS lookup of the name (shared by every probe of it).
    public var resolve: Int64 = 0
    /// How many names ``resolve`` covers: 1 when it is the name's own lookup, more when the provider answered the
    /// names together in one query (Alibaba's batches), which cannot be timed apart.
    public var resolveNames = 1
    /// TCP connect.
    public var connect: Int64 = 0
    /// TLS handshake.
    public var tls: Int64 = 0
    /// Request sent to first response byte (time to first byte after the handshake).
    public var processing: Int64 = 0
    /// First byte to last.
    public var transfer: Int64 = 0
    /// The whole transfer, connect to last byte (libcurl's `time_total`; the lookup is not in it).
    public var total: Int64 = 0

    /// No time yet.
    public init() {}
}

/// What the peer's certificate chain says.
/// - SeeAlso: `CURLOPT_CERTINFO`, `CURLINFO_CERTINFO`.
public struct CertificateSummary: Sendable, Equatable {
    /// The leaf's subject, as OpenSSL prints it (`CN = a.test`).
    public var subject: String
    /// The leaf's DNS and IP subject alternative names.
    public var subjectAlternativeNames: [String]
    /// The leaf's issuer.
    public var issuer: String
    /// The leaf's notAfter, seconds since 1970.
    public var notAfter: Int64
    /// The earliest notAfter over the chain the peer sent (blackbox_exporter's `probe_ssl_earliest_cert_expiry`).
    public var earliestNotAfter: Int64

    /// A summary with every field given.
    public init(subject: String, subjectAlternativeNames: [String], issuer: String, notAfter: Int64, earliestNotAfter: Int64) {
        self.subject = subject
        self.subjectAlternativeNames = subjectAlternativeNames
        self.issuer = issuer
        self.notAfter = notAfter
        self.earliestNotAfter = earliestNotAfter
    }

    /// Whole days from `now` (seconds since 1970) to the chain's earliest expiry, rounded down; negative once expired.
    public func daysLeft(at now: Int64) -> Int {
        let seconds = earliestNotAfter - now
        return Int(seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400))
    }
}
