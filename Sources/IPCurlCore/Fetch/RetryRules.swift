import CurlKit

/// curl's `--retry` rules: which failures are transient, how long to wait, and when to give up.
///
/// Transient: a timeout (28), a name that could not be resolved (6), an HTTP 408, 429, 500, 502, 503 or 504
/// answer (fetched, or failed by `-f`); with `--retry-connrefused` also a refused connection; with
/// `--retry-all-errors` every failed transfer (an HTTP 404 fails only with `-f`). The wait is
/// `--retry-delay` when given, else 1 s doubling up to 10 minutes; a `Retry-After` header wins, capped by
/// `--retry-max-time`.
/// - SeeAlso: curl's `--retry`, `--retry-delay`, `--retry-max-time`, `--retry-connrefused`,
///   `--retry-all-errors`, `CURLINFO_RETRY_AFTER`.
public struct RetryRules: Sendable, Equatable {
    /// `--retry N`: how many times to try again (0: never).
    public var count = 0
    /// `--retry-delay` in milliseconds; `nil` for the doubling backoff.
    public var delayMS: Int?
    /// `--retry-max-time` in milliseconds; `nil` for no limit.
    public var maxTimeMS: Int?
    /// `--retry-connrefused`.
    public var connectionRefused = false
    /// `--retry-all-errors`.
    public var allErrors = false

    public init() {}

    /// HTTP statuses curl treats as transient.
    public static let transientStatuses: [Int] = [408, 429, 500, 502, 503, 504]
    static let firstBackoffMS = 1_000, maxBackoffMS = 600_000

    /// What one finished attempt looked like.
    public struct Attempt: Sendable {
        /// The attempt's error, `nil` when libcurl succeeded.
        public var error: CurlError?
        /// The last response's status (0 without one).
        public var status: Int
        /// `CURLINFO_OS_ERRNO` of the attempt.
        public var osErrno: Int
        /// `CURLINFO_RETRY_AFTER` in seconds, 0 without the header.
        public var retryAfterSeconds: Int64

        public init(error: CurlError?, status: Int, osErrno: Int = 0, retryAfterSeconds: Int64 = 0) {
            self.error = error
            self.status = status
            self.osErrno = osErrno
            self.retryAfterSeconds = retryAfterSeconds
        }
    }

    /// Why curl retries, worded as curl's warning (`Problem : timeout`).
    public enum Reason: String, Sendable {
        case allErrors = "(retrying all errors)", timeout = ": timeout", refused = ": connection refused",
             http = ": HTTP error"
    }

    /// The reason to retry `attempt`, or `nil` when it is final.
    public func reason(for attempt: Attempt) -> Reason? {
        if let error = attempt.error {
            if error == .operationTimedOut || error == .couldntResolveHost { return .timeout }
            if connectionRefused, error == .couldntConnect, attempt.osErrno == 111 /* ECONNREFUSED */ { return .refused }
        }
        let answered = attempt.error == nil || attempt.error == .httpReturnedError
        if answered, Self.transientStatuses.contains(attempt.status) { return .http }
        if allErrors, attempt.error != nil { return .allErrors }
        return nil
    }

    /// The wait before the next attempt, or `nil` when retries or time ran out. `backoffMS` is the current
    /// doubling step; `elapsedMS` counts from the first attempt.
    public func wait(for attempt: Attempt, reason: Reason, retriesLeft: Int, backoffMS: Int, elapsedMS: Int) -> Int? {
        guard retriesLeft > 0 else { return nil }
        if let maxTimeMS, elapsedMS >= maxTimeMS { return nil }
        var sleep = delayMS ?? backoffMS
        if reason == .http, attempt.retryAfterSeconds > 0 {
            sleep = attempt.retryAfterSeconds > Int64(Int.max / 1000) ? Int.max : Int(attempt.retryAfterSeconds) * 1000
        }
        if let maxTimeMS, sleep > maxTimeMS - elapsedMS {
            guard reason == .http, attempt.retryAfterSeconds > 0 else { return max(0, min(sleep, maxTimeMS - elapsedMS)) }
            return nil  // the server asks for longer than the budget left
        }
        return sleep
    }

    /// The next doubling step (unchanged with a fixed `--retry-delay`).
    public func nextBackoff(after backoffMS: Int) -> Int {
        delayMS != nil ? backoffMS : min(backoffMS * 2, Self.maxBackoffMS)
    }
}
