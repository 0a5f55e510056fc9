import Foundation

/// What the lab's echo backend (`/api/echo`) saw: method, headers (lower-cased names) and the body's digest.
struct Echo {
    let method: String
    let headers: [String: String]
    let query: String
    let bodySHA256: String
    let bodyLength: Int
    let contentType: String

    /// Parses the echo JSON at the start of `text` (anything after the first line, such as `-w` output, is ignored).
    init(_ text: String) throws {
        let json = String(text.prefix { $0 != "\n" })
        guard let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw LabError("not an echo: \(text.prefix(200))")
        }
        method = object["method"] as? String ?? ""
        headers = object["headers"] as? [String: String] ?? [:]
        query = object["query"] as? String ?? ""
        bodySHA256 = object["body_sha256"] as? String ?? ""
        bodyLength = object["body_length"] as? Int ?? -1
        contentType = object["content_type"] as? String ?? ""
    }
}

/// The sha256 of a file or bytes, by the system's sha256sum (an independent implementation).
func sha256(ofFile path: String) throws -> String {
    let result = try run("/usr/bin/sha256sum", [path])
    return String(result.stdout.prefix(64))
}

/// `count` pseudo-random bytes written to `name` in `directory`.
func randomFile(_ directory: TemporaryDirectory, _ name: String, bytes count: Int) throws -> String {
    let path = directory.path + "/" + name
    var generator = SystemRandomNumberGenerator()
    var bytes = [UInt8](repeating: 0, count: count)
    for index in stride(from: 0, to: count, by: 8) {
        let word = generator.next() as UInt64
        for offset in 0..<min(8, count - index) { bytes[index + offset] = UInt8(truncatingIfNeeded: word >> (offset * 8)) }
    }
    let data = Data(bytes)
    try data.write(to: URL(fileURLWithPath: path))
    return path
}

extension Lab {
    /// `https://NAME:PORT/api/...` on the lab (echo backend behind nginx).
    func api(_ name: String, _ pathAndQuery: String) -> String { https(name, "/api/" + pathAndQuery) }

    /// A redirect from `from` to `target` with `status`.
    func redirect(_ from: String, _ status: Int, to target: String) -> String {
        let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
        return api(from, "redirect?code=\(status)&to=\(encoded)")
    }

    /// The echo backend's hit counter for `key`.
    func hits(_ key: String) throws -> Int {
        let result = try run("/usr/bin/curl", ["-sS", "--cacert", ca, "--resolve", "a.test:\(httpsPort):\(ip)",
                                                api("a.test", "hits?key=\(key)")])
        return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}
