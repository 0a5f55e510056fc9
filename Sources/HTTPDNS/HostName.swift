/// Validation for host names that go into DNS questions and `CURLOPT_RESOLVE` entries.
public enum HostName {
    /// Lowercases `host`, drops one trailing dot, and checks it is a plain DNS name: labels of 1–63 characters
    /// from `[a-z0-9-_]` that neither start nor end with `-`, 253 characters at most. Returns `nil` for anything
    /// else (IP literals, `:`, `,`, whitespace, non-ASCII), so a host can never split or inject a resolve entry.
    public static func normalized(_ host: String) -> String? {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, name.utf8.count <= 253 else { return nil }
        for label in name.split(separator: ".", omittingEmptySubsequences: false) {
            guard (1...63).contains(label.utf8.count), label.utf8.allSatisfy({ isLabelByte($0) }),
                  label.utf8.first != UInt8(ascii: "-"), label.utf8.last != UInt8(ascii: "-") else { return nil }
        }
        return name
    }

    /// The name libcurl looks up for `host`: lowercased, a trailing dot kept, when it is a valid ``normalized(_:)``
    /// name; `nil` otherwise. `A.Test.` gives `a.test.`, which libcurl's DNS cache keeps apart from `a.test`.
    public static func lookupName(_ host: String) -> String? {
        guard let name = normalized(host) else { return nil }
        return host.hasSuffix(".") ? name + "." : name
    }

    private static func isLabelByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}
