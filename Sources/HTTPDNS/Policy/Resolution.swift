/// How one resolution used the answer cache, for `-v`.
public enum CacheUse: Sendable, Equatable {
    /// No cache was consulted: disabled, an IP literal, a static entry, or the system fallback.
    case off
    /// Not in the cache (or expired): the provider was asked and the answer stored when its TTL allows.
    case miss
    /// A fresh cached answer with this many seconds left.
    case hit(remaining: UInt32)
    /// An expired answer served inside the policy's stale window (``ResolutionPolicy/staleSeconds``), this many seconds past expiry, while a
    /// background query refreshes it.
    case stale(by: UInt32)
}

/// The outcome of resolving one URL's host: the entry to hand to libcurl (if any) and the answer behind it.
public struct Resolution: Sendable, Equatable {
    /// The `CURLOPT_RESOLVE` entry, already filtered by address family; `nil` when the host is an IP literal.
    public let entry: ResolveEntry?
    /// The answer that produced `entry` (all of its addresses, before family filtering).
    public let answer: ResolverAnswer?
    /// Whether the answer came from the cache.
    public var cache: CacheUse
    /// Why HTTPDNS gave no usable address, when the answer comes from the system resolver fallback.
    public var fallbackReason: ResolutionError?
    /// How many of the answer's addresses were dropped as unusable (unspecified, multicast, broadcast, mapped
    /// IPv4 under `-6`) or beyond ``ResolutionPolicy/maximumAddressesPerFamily``.
    public var dropped = 0

    /// Pairs an entry with the answer it came from.
    public init(entry: ResolveEntry?, answer: ResolverAnswer?, cache: CacheUse = .off, fallbackReason: ResolutionError? = nil) {
        self.entry = entry
        self.answer = answer
        self.cache = cache
        self.fallbackReason = fallbackReason
    }

    /// `%{dns_source}`: `aliyun`, `dnspod`, `doh`, `doh-json`, `command`, `static`, `system` or `cache`;
    /// empty for an IP literal.
    public var sourceName: String { answer?.source.name ?? "" }
}
