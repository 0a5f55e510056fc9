extension CertificateSummary {
    /// Reads libcurl's `CURLINFO_CERTINFO` fields (OpenSSL backend: `Subject`, `Issuer`, `Expire date` as
    /// `Nov 23 21:00:00 2027 GMT`, `X509v3 Subject Alternative Name` as `DNS:a.test, IP Address:127.0.0.1`);
    /// `nil` for an empty chain or a leaf without a readable expiry.
    init?(chain: [[String: String]]) {
        guard let leaf = chain.first, let notAfter = leaf["Expire date"].flatMap(Self.time) else { return nil }
        let expiries = chain.compactMap { $0["Expire date"].flatMap(Self.time) }
        let names = (leaf["X509v3 Subject Alternative Name"] ?? "").split(separator: ",").map { item in
            var name = item.drop { $0 == " " }
            for prefix in ["DNS:", "IP Address:"] where name.hasPrefix(prefix) { name = name.dropFirst(prefix.count) }
            return String(name)
        }
        self.init(subject: Self.trimmed(leaf["Subject"]), subjectAlternativeNames: names.filter { !$0.isEmpty },
                  issuer: Self.trimmed(leaf["Issuer"]), notAfter: notAfter, earliestNotAfter: expiries.min() ?? notAfter)
    }

    private static func trimmed(_ text: String?) -> String {
        String((text ?? "").drop { $0 == " " })
    }

    /// `Nov 23 21:00:00 2027 GMT` (OpenSSL's `ASN1_TIME_print`) as seconds since 1970 (UTC).
    static func time(_ text: String) -> Int64? {
        let fields = text.split(separator: " ")
        guard fields.count == 5, fields[4] == "GMT", let month = HTTPDate.months.firstIndex(of: String(fields[0])),
              let day = Int32(fields[1]), let year = Int32(fields[3]) else { return nil }
        return HTTPDate.utcSeconds(year: year, month: month, day: day, clock: fields[2])
    }
}
