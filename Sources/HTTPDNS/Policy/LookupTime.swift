/// How long one name's lookup took, and how many names that time covers: a provider that answers several names in
/// one query (``Resolver/asksNamesTogether``, Alibaba's batches) cannot time one of them, so each gets the query's time.
/// - SeeAlso: ``ResolutionPolicy/timedResolve(hosts:port:)``.
public struct LookupTime: Sendable, Equatable {
    /// The time taken.
    public var duration: Duration
    /// The names looked up together in that time: 1 when ``duration`` is the name's own.
    public var names: Int

    /// `duration`, covering `names` names.
    public init(duration: Duration, names: Int = 1) {
        self.duration = duration
        self.names = names
    }

    /// The time since `began`, covering `names` names.
    static func since(_ began: ContinuousClock.Instant, names: Int = 1) -> LookupTime {
        LookupTime(duration: ContinuousClock.now - began, names: names)
    }
}

/// One name's resolution, or why there is none, with the time its lookup took.
public struct TimedResolution {
    /// The resolution or the error.
    public var result: Result<Resolution, ResolutionError>
    /// The lookup's time.
    public var time: LookupTime

    /// `result`, found in `time`.
    public init(result: Result<Resolution, ResolutionError>, time: LookupTime) {
        self.result = result
        self.time = time
    }
}
