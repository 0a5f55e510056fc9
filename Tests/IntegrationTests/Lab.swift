import Foundation

/// The running nginx + unbound + kresd lab (Tests/Lab/lab.sh), read from its lab.env.
/// `make test` starts it before `swift test` and stops it after; `make lab-up` starts it by hand.
struct Lab: Sendable {
    let ca: String
    let ip: String
    let wrongIP: String
    let httpsPort: Int
    let httpPort: Int
    /// unbound's DoH endpoint (authoritative for test.).
    let dohURL: String
    /// kresd's DoH endpoint (a caching resolver that forwards to unbound).
    let kresdDoHURL: String
    /// Every lab.env value, for the HTTPDNS fixture's keys.
    let values: [String: String]

    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The lab, or a test failure that says how to start it.
    static func current() throws -> Lab {
        let dir = ProcessInfo.processInfo.environment["IPCURL_LAB_DIR"] ?? repoRoot + "/.lab"
        guard let text = try? String(contentsOfFile: dir + "/lab.env", encoding: .utf8) else {
            throw LabError("the lab is not running (no \(dir)/lab.env): run 'make lab-up' or 'make test'")
        }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        func value(_ key: String) throws -> String {
            guard let value = values[key] else { throw LabError("lab.env lacks \(key): restart the lab (make lab-down lab-up)") }
            return value
        }
        return Lab(ca: try value("LAB_CA"), ip: try value("LAB_IP"), wrongIP: try value("LAB_WRONG_IP"),
                   httpsPort: Int(try value("LAB_HTTPS_PORT")) ?? 0, httpPort: Int(try value("LAB_HTTP_PORT")) ?? 0,
                   dohURL: try value("LAB_DOH_URL"), kresdDoHURL: try value("LAB_KRESD_DOH_URL"), values: values)
    }

    /// A lab.env value, or a test failure naming the missing key.
    func value(_ key: String) throws -> String {
        guard let value = values[key] else { throw LabError("lab.env lacks \(key): restart the lab (make lab-down lab-up)") }
        return value
    }

    /// `https://NAME:PORT/PATH` on the lab's HTTPS listener.
    func https(_ name: String, _ path: String = "/") -> String { "https://\(name):\(httpsPort)\(path)" }

    /// The resolver options every lab request needs: the lab DoH server and the lab CA.
    var resolverArguments: [String] { ["--doh", dohURL, "--cacert", ca] }
}

struct LabError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
