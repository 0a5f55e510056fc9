import Testing

/// The comparison of a probe's exposition with the lab's blackbox_exporter's on the same target: every sample
/// blackbox gives, timings excepted, with the same labels and value, and the same `probe_http_duration_seconds`
/// phases.
enum BlackboxAgreement {
    /// The metrics whose values are timings, which no two probes share.
    static let timed = ["probe_duration_seconds", "probe_dns_lookup_time_seconds", "probe_http_duration_seconds"]

    /// `name{labels} value` lines of an exposition, by the text before the value.
    static func samples(_ text: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    /// Expects `ours` to agree with blackbox_exporter's `theirs`, both expositions of one target.
    static func expect(ours ourText: String, theirs theirText: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let theirs = samples(theirText), ours = samples(ourText)
        let compared = theirs.keys.filter { key in !timed.contains { key.hasPrefix($0) } }
        #expect(compared.count >= 14, "\(theirs.keys.sorted())", sourceLocation: sourceLocation)
        for key in compared.sorted() {
            #expect(ours[key] == theirs[key], "\(key): blackbox_exporter \(theirs[key]!), ipcurl \(String(describing: ours[key]))",
                    sourceLocation: sourceLocation)
        }
        func phases(_ samples: [String: Double]) -> Set<String> { Set(samples.keys.filter { $0.hasPrefix("probe_http_duration_seconds") }) }
        #expect(phases(ours) == phases(theirs), sourceLocation: sourceLocation)
    }
}
