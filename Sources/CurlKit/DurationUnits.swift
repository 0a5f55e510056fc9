extension Duration {
    /// Whole microseconds, truncated toward zero (negative for a deadline already past): the unit of curl's
    /// `_T` times and `%{time_*}`.
    public var wholeMicroseconds: Int64 { components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000 }

    /// Whole milliseconds, truncated toward zero: the unit of `CURLOPT_TIMEOUT_MS`.
    public var wholeMilliseconds: Int { Int(wholeMicroseconds / 1000) }
}
