import HTTPDNS

/// What `ipcurl cache list` prints: one line per cached record, or a JSON array.
public enum CacheListing {
    /// Aligned columns: host, family, state (`fresh 57s`, `stale 3s`), source, addresses.
    public static func plain(_ records: [CacheRecord], now: Int64) -> String {
        records.map { record in
            let addresses = record.addresses.isEmpty ? "(none)" : record.addresses.map(\.description).joined(separator: ",")
            return [record.host, record.family.cacheName, state(record, now: now), record.origin, addresses]
                .joined(separator: "\t") + "\n"
        }.joined()
    }

    /// A JSON array: host, family, addresses, ttl, expires (Unix time), expired, source and origin per record.
    public static func json(_ records: [CacheRecord], now: Int64) -> String {
        "[" + records.map { record in
            let fields = [
                "\"host\":\(JSONString.quoted(record.host))", "\"family\":\(JSONString.quoted(record.family.cacheName))",
                "\"addresses\":[" + record.addresses.map { JSONString.quoted($0.description) }.joined(separator: ",") + "]",
                "\"ttl\":\(record.ttl)", "\"stored\":\(record.stored)", "\"expires\":\(record.expires)",
                "\"expired\":\(now >= record.expires)", "\"source\":\(JSONString.quoted(record.sourceName))",
                "\"origin\":\(JSONString.quoted(record.origin))",
            ]
            return "{" + fields.joined(separator: ",") + "}"
        }.joined(separator: ",") + "]\n"
    }

    private static func state(_ record: CacheRecord, now: Int64) -> String {
        now < record.expires ? "fresh \(record.expires - now)s" : "expired \(now - record.expires)s"
    }
}
