/// The time one lookup may take: each host of each hop and each retry attempt gets its own budget.
///
/// The budget is the provider's time limit from the moment the lookup starts, cut short by an outer deadline
/// (the whole request's time limit, such as curl's `--max-time`) when that comes first.
public struct LookupBudget: Sendable {
    /// When the lookup must have finished; `nil` for no limit.
    public let deadline: ContinuousClock.Instant?
    /// The limit as configured, in milliseconds, for messages; `nil` for no limit.
    public let milliseconds: Int?

    /// The whole budget when it was made, in milliseconds: ``milliseconds``, or less when the outer deadline came
    /// first; `nil` for no limit. What a lookup divides among its servers.
    let initialMS: Int?

    /// The outer deadline the budget was cut to, if any.
    let outerDeadline: ContinuousClock.Instant?

    /// A budget of `milliseconds` from now, ending no later than `outerDeadline`.
    public init(milliseconds: Int?, endingBy outerDeadline: ContinuousClock.Instant? = nil) {
        self.milliseconds = milliseconds
        self.outerDeadline = outerDeadline
        let now = ContinuousClock.now
        let own = milliseconds.map { now + .milliseconds($0) }
        let deadline: ContinuousClock.Instant? = switch (own, outerDeadline) {
        case (let own?, let outer?): min(own, outer)
        case (let own, nil): own
        case (nil, let outer): outer
        }
        self.deadline = deadline
        initialMS = deadline.map { max(0, Self.milliseconds(of: $0 - now)) }
    }

    /// A fresh budget of the same size from now, under the same outer deadline: the next host's lookup.
    public func renewed() -> LookupBudget { LookupBudget(milliseconds: milliseconds, endingBy: outerDeadline) }

    /// Milliseconds left (0 when spent); `nil` without a limit.
    public var remainingMS: Int? {
        deadline.map { max(0, Self.milliseconds(of: $0 - ContinuousClock.now)) }
    }

    /// Whether the budget is spent.
    public var isSpent: Bool { remainingMS == 0 }

    static func milliseconds(of duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
