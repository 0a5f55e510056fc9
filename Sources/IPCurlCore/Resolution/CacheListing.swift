import HTTPDNS

/// What `ipcurl cache list` prints: one line per cached record, or a JSON array.
public enum CacheListing {
    /// Tab-separated columns: host, family, state (`fresh 57s`, `expired 3s`, followed by the marks of a record no
    /// verified connection stands behind: `(-k)`, `(unverified)` or `(-k, unverified)`), origin, addresses.
    public static func plain(_ records: [CacheRecord], now: Int64) -> String {
        records.map { record in
            let addresses = record.addresses.isEmpty ? "(none)" : record.addresses.map(\.description).joined(separator: ",")
            return [record.host, record.family.cacheName, state(record, now: now), record.origin, addresses]
                .joined(separator: "\t") + "\n"
        }.joined()
    }

    /// A JSON array: host, family, addresses, ttl, expires (Unix time), expired, source, origin, insecure (fetched
    /// with `-k`) and unverified (stored by `ipcurl resolve`) per record.
    public static func json(_ records: [CacheRecord], now: Int64) -> String {
        "[" + records.map { record in
            let fields = [
                "\"host\":\(JSONString.quoted(record.host))", "\"family\":\(JSONString.quoted(record.family.cacheName))",
                "\"addresses\":[" + record.addresses.map { JSONString.quoted($0.description) }.joined(separator: ",") + "]",
                "\"ttl\":\(record.ttl)", "\"stored\":\(record.stored)", "\"expires\":\(record.expires)",
                "\"expired\":\(now >= record.expires)", "\"source\":\(JSONString.quoted(record.sourceName))",
                "\"origin\":\(JSONString.quoted(record.origin))", "\"insecure\":\(record.insecure)",
                "\"unverified\":\(record.unverified)",
            ]
            return "{" + fields.joined(separator: ",") + "}"
        }.joined(separator: ",") + "]\n"
    }

    private static func state(_ record: CacheRecord, now: Int64) -> String {
        let age = now < record.expires ? "fresh \(record.expires - now)s" : "expired \(now - record.expires)s"
        let marks = (record.insecure ? ["-k"] : []) + (record.unverified ? ["unverified"] : [])
        return marks.isEmpty ? age : age + " (" + marks.joined(separator: ", ") + ")"
    }
}
